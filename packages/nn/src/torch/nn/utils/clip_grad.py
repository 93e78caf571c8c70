"""Gradient clipping: by total norm and by value."""

from __future__ import annotations

import torch

from .._deprecation import deprecated_alias

__all__ = [
    "clip_grad_norm_",
    "clip_grad_norm",
    "clip_grad_value_",
    "get_total_norm",
    "clip_grads_with_norm_",
]


def _as_list(parameters) -> list:
    if isinstance(parameters, torch.Tensor):
        return [parameters]
    return list(parameters)


def _grads(parameters) -> list:
    return [p.grad for p in _as_list(parameters) if p.grad is not None]


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None):
    """The ``norm_type``-norm of all ``tensors`` together (as if concatenated).

    Examples::

        >>> from torch.nn.utils import get_total_norm
        >>> get_total_norm([torch.tensor([3.0]), torch.tensor([4.0])])
        tensor(5.)
    """
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return torch.tensor(0.0)
    if norm_type == float("inf"):
        norms = [t.detach().abs().max() for t in tensors]
        total = torch.stack(norms).max()
    else:
        norms = [t.detach().abs().pow(norm_type).sum() for t in tensors]
        total = torch.stack(norms).sum().pow(1.0 / norm_type)
    if error_if_nonfinite and not bool(torch.isfinite(total)):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the "
            "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    return total


def clip_grads_with_norm_(parameters, max_norm: float, total_norm, foreach=None) -> None:
    """Scale the gradients by ``max_norm / (total_norm + 1e-6)`` when that is below 1."""
    grads = _grads(parameters)
    if not grads:
        return
    coef = float(max_norm) / (float(total_norm) + 1e-6)
    if coef < 1:
        with torch.no_grad():
            for g in grads:
                g.mul_(coef)


def clip_grad_norm_(
    parameters,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach=None,
) -> torch.Tensor:
    """Rescale the gradients in place so that their total norm is at most
    ``max_norm``.

    Args:
        parameters (Tensor or iterable of Tensors): whose ``.grad`` to clip.
        max_norm (float): the largest total norm allowed.
        norm_type (float): p of the norm; ``inf`` for the max norm. Default: 2.
        error_if_nonfinite (bool): raise when the norm is nan or inf. Default: False.

    Returns:
        Tensor: the total norm before clipping.

    Examples::

        >>> p = nn.Parameter(torch.zeros(2))
        >>> p.grad = torch.tensor([3.0, 4.0])
        >>> nn.utils.clip_grad_norm_([p], 1.0)
        tensor(5.)
        >>> p.grad
        tensor([0.6000, 0.8000])
    """
    parameters = _as_list(parameters)
    grads = _grads(parameters)
    if not grads:
        return torch.tensor(0.0)
    total = get_total_norm(grads, norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total)
    return total


clip_grad_norm = deprecated_alias(clip_grad_norm_, "clip_grad_norm", "torch.nn.utils.")
clip_grad_norm.__wrapped__ = clip_grad_norm_  # inspect.signature: clip_grad_norm_'s


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient element to ``[-clip_value, clip_value]`` in place.

    Examples::

        >>> p = nn.Parameter(torch.zeros(2))
        >>> p.grad = torch.tensor([-3.0, 0.5])
        >>> nn.utils.clip_grad_value_([p], 1.0)
        >>> p.grad
        tensor([-1.0000,  0.5000])
    """
    clip_value = float(clip_value)
    with torch.no_grad():
        for g in _grads(parameters):
            g.clamp_(min=-clip_value, max=clip_value)
