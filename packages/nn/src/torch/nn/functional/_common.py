"""Helpers shared by the ``nn.functional`` families: core op lookup, complex-input
refusals, the legacy ``size_average``/``reduce`` arguments, in-place variants."""

from __future__ import annotations

import warnings

import torch
from torch._interface import ops

__all__ = []


def core(name: str):
    """The public function of core op ``name`` (its math lives in torch-core)."""
    return ops[name].function


def fused(name: str):
    """Core's fused op ``name`` (one recorded node for what the composite records as
    several; it returns None for operands it does not take)."""
    return ops[name].function


def fused_op(name: str):
    """Core's fused op ``name`` itself: call ``fused_op(name).function`` at call time, so
    that the device dispatcher (installed once a device backend registers) is honoured."""
    return ops[name]


def refuse_complex(input, kernel: str) -> None:
    """Raise PyTorch's error for complex ``input`` to a function whose CPU kernel
    ``kernel`` takes real input only (our composites would compute something)."""
    if isinstance(input, torch.Tensor) and input.is_complex():
        scalar_type = input.type().rsplit(".", 1)[-1].removesuffix("Tensor")
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type}'")


def legacy_reduction(size_average, reduce, emit_warning: bool = True) -> str:
    """The ``reduction`` string that the deprecated ``size_average``/``reduce`` pair
    means (either may be None = True)."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        reduction = "mean"
    elif reduce:
        reduction = "sum"
    else:
        reduction = "none"
    if emit_warning:
        warnings.warn(
            "size_average and reduce args will be deprecated, please use "
            f"reduction='{reduction}' instead.",
            UserWarning,
            stacklevel=3,
        )
    return reduction


def resolve_reduction(size_average, reduce, reduction: str) -> str:
    """``reduction``, overridden by the legacy arguments when either is given."""
    if size_average is not None or reduce is not None:
        return legacy_reduction(size_average, reduce)
    return reduction


def reduce_loss(loss, reduction: str):
    """Apply ``reduction`` ("none", "mean" or "sum") to an element-wise loss."""
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(f"{reduction} is not a valid value for reduction")


def maybe_inplace(input, result, inplace: bool):
    """``result``, written into ``input`` when ``inplace``."""
    if inplace:
        return input.copy_(result)
    return result


def apply_inplace(function, input, inplace: bool, *args):
    """``function(input, *args)``, written into ``input`` when ``inplace``.

    NOTE: the function runs on a copy of ``input`` so that what its gradient needs is
    not the tensor then overwritten; autograd sees ``input.copy_(f(input.clone()))``.
    """
    if not inplace:
        return function(input, *args)
    source = input.clone() if input.requires_grad else input
    return input.copy_(function(source, *args))
