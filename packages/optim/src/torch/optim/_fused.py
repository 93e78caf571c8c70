"""The bridge to torch-core's fused optimizer kernels (``torch._native.optim_kernels``).

Adam/AdamW, SGD, RMSprop, Adagrad, Adamax, Adadelta, NAdam and RAdam update dense,
C-contiguous float32/float64 CPU tensors with one native call per parameter (or per dtype
of a parameter group with ``foreach=True``): one pass over memory, rounding exactly as
PyTorch's single-tensor update does (tests/golden/fused_steps.json checks it bit for
bit). Everything else takes the tensor-op path of each optimizer's file, which stays the
reference. Older torch-core releases have no such kernels: then this module
reports none and the optimizers fall back (Adam/AdamW to the NumPy kernels of
:mod:`._kernels`). ``TORCH_OPTIM_KERNELS=0`` turns off both (``_kernels.ENABLED``).

The kernels write through NumPy views, so the version counters are bumped here as many
times as PyTorch's in-place ops bump them in the same update.
"""

from __future__ import annotations

import importlib

import torch

from . import _kernels

__all__ = ["kernels", "batches", "bump", "sqrt_"]

_FLOATS = (torch.float32, torch.float64)
_cache: dict = {}


def kernels():
    """torch._C's optimizer kernels, or None (pure core, older core, or turned off)."""
    if not _kernels.ENABLED:
        return None
    if "kernels" not in _cache:
        try:
            native = importlib.import_module("torch._native")
        except ImportError:
            native = None
        find = getattr(native, "optim_kernels", None)
        module = find() if find is not None else None
        _cache["kernels"] = module if hasattr(module, "adam_step") else None
    return _cache["kernels"]


def _flat(tensors) -> list | None:
    """Flat NumPy views of ``tensors`` (the parameter first) when the kernels can serve
    them all: one float dtype, CPU, C-contiguous, as many elements as the parameter."""
    first = tensors[0]
    dtype = first.dtype
    if dtype not in _FLOATS or first.device.type != "cpu":
        return None
    size = first.numel()
    views = []
    for t in tensors:
        sparse = getattr(t, "is_sparse", False)
        if sparse or t.dtype != dtype or t.numel() != size or not t.is_contiguous():
            return None
        # parameters require grad; step runs under no_grad, so writing them is allowed
        array = t.detach().numpy() if t.requires_grad else t.numpy()
        views.append(array.reshape(-1))
    return views


def batches(items, tensors_of, foreach: bool) -> tuple[list, list]:
    """Split ``items`` (e.g. ``(param, state)`` pairs) into batches for one native call
    each and the items the kernels cannot serve.

    Args:
        items: the per-parameter items of one parameter group.
        tensors_of: item -> tuple of its tensors, the parameter first.
        foreach: one batch per dtype (the multi-tensor path) instead of one per item.

    Returns:
        ``(batches, rest)``: each batch is ``(items, columns)`` where ``columns[k]`` lists
        the flat arrays of the k-th tensor of every item; ``rest`` lists the other items.
    """
    if kernels() is None:
        return [], list(items)
    grouped: dict = {}
    singles, rest = [], []
    for item in items:
        views = _flat(tensors_of(item))
        if views is None:
            rest.append(item)
        elif foreach:
            chosen, rows = grouped.setdefault(views[0].dtype.char, ([], []))
            chosen.append(item)
            rows.append(views)
        else:
            singles.append(([item], [views]))
    out = singles + list(grouped.values())
    return [(chosen, [list(col) for col in zip(*rows)]) for chosen, rows in out], rest


def bump(tensor, times: int = 1) -> None:
    """Count ``times`` in-place writes on ``tensor``'s version counter (as PyTorch's
    in-place ops would), so autograd's saved-tensor checks see the update."""
    bump_once = getattr(tensor, "_bump_version", None)
    if bump_once is not None:
        for _ in range(times):
            bump_once()


def sqrt_(tensor):
    """``tensor.sqrt_()`` with the kernels' square root (PyTorch's: MKL's VML) when they
    can serve the tensor; returns it."""
    native = kernels()
    views = _flat((tensor,)) if hasattr(native, "optim_sqrt_") else None
    if views is None:
        return tensor.sqrt_()
    native.optim_sqrt_(views[0])
    bump(tensor)
    return tensor
