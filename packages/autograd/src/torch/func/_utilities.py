"""The smaller utilities of ``torch.func``: ``functionalize``, ``debug_unwrap`` and
``replace_all_batch_norm_modules_``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from torch.autograd._transforms.levels import TransformTensor

__all__ = ["functionalize", "debug_unwrap", "replace_all_batch_norm_modules_"]

_REMOVE_OPTIONS = ("mutations", "mutations_and_views")


def functionalize(func: Callable[..., Any], *, remove: str = "mutations") -> Callable[..., Any]:
    """``func`` as a program without in-place ops (``remove="mutations"``) or without
    in-place ops and views (``"mutations_and_views"``), for transforms and compilers
    that need one. Ops run eagerly here, on tensors that own their values, so the
    functionalized program computes exactly what ``func`` computes, input mutations
    included: the returned function calls ``func``.

    Examples::

        >>> def f(x):
        ...     y = x.clone()
        ...     y.add_(1)
        ...     return y
        >>> torch.func.functionalize(f)(torch.zeros(2))
        tensor([1., 1.])
    """
    if remove not in _REMOVE_OPTIONS:
        raise RuntimeError(
            "functionalize(f, remove='mutations'): received invalid argument for "
            f"remove={remove}. Valid options are:\n"
            "     remove='mutations': all inplace and out= operators will be removed from "
            "the program, and replaced with their out-of-place equivalents.\n"
            "     remove='mutations_and_views': In addition to the above, all aliasing "
            "operators {view} will be replaced with their non-aliasing counterparts, "
            "{view}_copy.\n"
        )

    @functools.wraps(func)
    def functionalized(*args, **kwargs):
        return func(*args, **kwargs)

    return functionalized


def debug_unwrap(tensor, *, recurse: bool = True):
    """The tensor a transform's wrapper (inside ``vmap``, ``jvp``, ...) stands for: one
    level, or all of them with ``recurse``; a plain tensor is returned as it is."""
    while isinstance(tensor, TransformTensor):
        tensor = tensor._inner()
        if not recurse:
            break
    return tensor


def _is_batch_norm(module) -> bool:
    # NOTE: by class name: torch.autograd (torch.func's package) must not import torch.nn
    return any(cls.__name__ == "_BatchNorm" for cls in type(module).__mro__)


def replace_all_batch_norm_modules_(root):
    """Make every batch norm layer in ``root`` (in place) normalise with the statistics
    of each batch, keeping none (``running_mean``, ``running_var`` and
    ``num_batches_tracked`` become None, ``track_running_stats`` False), as ``vmap`` over
    models needs. Returns ``root``."""
    for module in root.modules():
        if _is_batch_norm(module):
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root
