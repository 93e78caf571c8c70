"""Resizing a tensor in place (``Tensor.resize_``, ``resize_as_``, ``torch.resize_as_``)
and the deprecated out-of-place forms ``Tensor.resize``/``resize_as``.

``resize_`` gives the tensor a new shape with contiguous (or channels-last) strides over
its storage from its storage offset; a storage too small grows, keeping its bytes (the new
bytes are zero here, uninitialised in PyTorch). Tensors that view the same storage then
see the grown buffer too, as in PyTorch, where they share the storage object. One
difference: PyTorch refuses to grow the storage of a tensor made by ``torch.from_numpy``
(the NumPy array owns it); here that storage grows into a buffer of its own, and the
tensor stops sharing memory with the array. Storage in shared memory refuses, as there."""

from __future__ import annotations

import gc
import math
import warnings

import numpy as np

from .._creation import check_size_element
from .._memory_format import format_name, format_strides
from .._tensor import Tensor
from ._dispatch import defop
from .views import strided_alias

__all__ = ["resize_", "resize_as_", "resize", "resize_as"]


def _sizes(name: str, sizes) -> tuple:
    if len(sizes) == 1 and not isinstance(sizes[0], (int, np.integer)):
        sizes = tuple(sizes[0])
    for n in sizes:
        check_size_element(name, n)
    return tuple(int(n) for n in sizes)


def _grow(storage, nbytes: int) -> None:
    """Give ``storage`` a buffer of ``nbytes`` holding its old bytes first, and rebind
    every tensor viewing it (found by the garbage collector's referrers: resizing is rare,
    so the hot paths keep no list of a storage's tensors)."""
    from .._shared_memory import _rebind, is_shared

    old = storage._buffer
    if is_shared(storage) or not isinstance(old, np.ndarray):
        raise RuntimeError("Trying to resize storage that is not resizable")
    new = np.zeros(nbytes, dtype=np.uint8)
    new[: old.nbytes] = old.reshape(-1).view(np.uint8)
    storage._buffer = new
    for holder in gc.get_referrers(storage):
        if isinstance(holder, Tensor) and holder._storage_ is storage:
            _rebind(holder, old, new)


def _resize_(self: Tensor, *sizes, memory_format=None) -> Tensor:
    """Give this tensor the shape ``sizes`` with contiguous strides (or those of
    ``memory_format``) over its storage, growing the storage if it is too small. The
    values of a tensor whose element count changes are its storage's bytes in the new
    layout. Tensors that require grad cannot be resized.

    Examples::

        >>> t = torch.arange(6.)
        >>> t.resize_(2, 2)
        tensor([[0., 1.],
                [2., 3.]])
    """
    shape = _sizes("resize_", sizes)
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if any(n < 0 for n in shape):
        raise RuntimeError("numel: integer multiplication overflow")
    if shape == tuple(self.shape) and memory_format is None:
        return self
    name = "contiguous_format" if memory_format is None else format_name(memory_format, "resize_")
    strides = format_strides(shape, name)
    storage = self._storage
    itemsize = self._np.itemsize
    needed = (self._offset + math.prod(shape)) * itemsize
    if needed > storage.nbytes():
        _grow(storage, needed)
    self._np = strided_alias(self, shape, strides, self._offset)._np
    self._bump_version()
    return self


def _resize_as_(self: Tensor, the_template: Tensor, *, memory_format=None) -> Tensor:
    """``resize_`` to the shape of ``the_template`` (its dtype is not taken)."""
    return _resize_(self, *the_template.shape, memory_format=memory_format)


resize_ = defop("resize_", _resize_, method=_resize_, public=False)
resize_as_ = defop("resize_as_", _resize_as_, method=_resize_as_)


def _same_count(self: Tensor, shape: tuple) -> None:
    count = math.prod(shape)
    if count != self.numel():
        sizes = ", ".join(str(n) for n in shape)
        raise RuntimeError(
            f"requested resize to {sizes} ({count} elements in total), but the given tensor "
            f"has a size of {'x'.join(str(n) for n in self.shape)} ({self.numel()} elements). "
            "autograd's resize can only change the shape of a given tensor, while preserving "
            "the number of elements. "
        )


def _resize(self: Tensor, *sizes) -> Tensor:
    """Deprecated: ``self`` in the shape ``sizes`` (the same number of elements), as a
    differentiable view of its values."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    shape = _sizes("resize", sizes)
    _same_count(self, shape)
    return self.contiguous().view(shape)


def _resize_as(self: Tensor, tensor: Tensor) -> Tensor:
    """Deprecated: ``resize`` to the shape of ``tensor``."""
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    shape = tuple(tensor.shape)
    _same_count(self, shape)
    return self.contiguous().view(shape)


resize = defop("resize", _resize, method=_resize, public=False)
resize_as = defop("resize_as", _resize_as, method=_resize_as, public=False)
