"""Tensors made from Python objects by name: ``torch.asarray`` (sharing memory where it
can) and ``torch.scalar_tensor``. Composites of the creation functions."""

from __future__ import annotations

import numpy as np

import torch

from .. import _dtype
from .._tensor import Tensor
from ._dispatch import defop

__all__ = ["asarray", "scalar_tensor"]


@defop("asarray")
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad: bool = False):
    """``obj`` as a tensor, sharing memory with a tensor (or a NumPy array) when its
    dtype allows and ``copy`` is not True."""
    if isinstance(obj, Tensor):
        result = obj if dtype is None or obj.dtype is dtype else obj.to(dtype)
        if copy and result is obj:
            result = obj.clone()
    elif isinstance(obj, np.ndarray) and not copy:
        result = torch.from_numpy(obj)
        if dtype is not None and result.dtype is not dtype:
            result = result.to(dtype)
    else:
        result = torch.tensor(obj, dtype=dtype)
    if requires_grad:
        result.requires_grad_(True)
    return result


@defop("scalar_tensor")
def scalar_tensor(s, *, dtype=None, device=None, layout=None, requires_grad=False):
    """A 0-dim tensor holding ``s`` (of the default float dtype unless ``dtype``)."""
    result = torch.tensor(s, dtype=dtype or _dtype.get_default_dtype())
    return result.requires_grad_(True) if requires_grad else result
