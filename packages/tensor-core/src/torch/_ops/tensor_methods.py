"""Tensor methods (and their ``torch.*`` spellings) that are calls of other ops: ``type_as``,
``reshape_as``, ``new_empty_strided``, ``new``, ``ndimension``, ``ravel``, ``mH``/``H``/
``adjoint``, ``narrow_copy``, ``split_with_sizes``, ``unsafe_split``/``unsafe_chunk``,
``sum_to_size``, the no-op conjugate/negative-bit functions, and ``torch.<op>_`` forms
of in-place methods (``torch.sigmoid_(t)`` is ``t.sigmoid_()``).

NOTE: each is a view, a copy or a call of existing ops, so gradients follow from them.
"""

from __future__ import annotations

import torch

from .._tensor import Tensor
from ._dispatch import defop, warn_once

__all__ = [
    "ravel",
    "adjoint",
    "narrow_copy",
    "split_with_sizes",
    "unsafe_split",
    "unsafe_chunk",
    "conj_physical",
    "resolve_conj",
    "resolve_neg",
    "is_neg",
    "nonzero_static",
    "unsafe_split_with_sizes",
]


@defop("type_as", method=True, public=False)
def type_as(self: Tensor, other: Tensor) -> Tensor:
    """``self`` converted to ``other``'s dtype (``self`` itself when they match)."""
    return self.to(other.dtype)


@defop("reshape_as", method=True, public=False)
def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    """``self`` reshaped to ``other``'s shape."""
    return self.reshape(other.shape)


@defop("new_empty_strided", method=True, public=False)
def new_empty_strided(self: Tensor, size, stride, *, dtype=None, device=None, **kwargs):
    """An uninitialised tensor with the given sizes and strides, of ``self``'s dtype by
    default."""
    return torch.empty_strided(size, stride, dtype=dtype or self.dtype)


@defop("new", method=True, public=False)
def new(self: Tensor, *args) -> Tensor:
    """The legacy constructor: ``x.new(2, 3)`` is an uninitialised tensor of ``x``'s
    dtype, ``x.new([1, 2])`` one with that data, ``x.new()`` an empty one."""
    if (
        len(args) == 1
        and isinstance(args[0], (list, tuple))
        and not all(isinstance(a, int) for a in args[0])
    ):
        return torch.tensor(args[0], dtype=self.dtype)
    if len(args) == 1 and isinstance(args[0], list):
        return torch.tensor(args[0], dtype=self.dtype)
    if len(args) == 1 and isinstance(args[0], Tensor):
        return args[0].to(self.dtype)
    if len(args) == 1 and isinstance(args[0], torch.Size):
        return torch.empty(args[0], dtype=self.dtype)
    return torch.empty(*args, dtype=self.dtype) if args else torch.empty(0, dtype=self.dtype)


@defop("ndimension", method=True, public=False)
def ndimension(self: Tensor) -> int:
    """The number of dims (an old name of ``dim()``)."""
    return self.dim()


@defop("ravel", method=True)
def ravel(input: Tensor) -> Tensor:
    """``input`` flattened to 1-D (a view when the layout allows, as ``reshape``)."""
    return input.reshape(-1)


@defop("adjoint", method=True)
def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims (a view for real tensors)."""
    return _adjoint(input, "adjoint()")


def _adjoint(input: Tensor, name: str) -> Tensor:
    # as PyTorch: a 0-D tensor is its own transpose (deprecated, warned once per process);
    # a 1-D one is refused
    if input.dim() == 0:
        message = f"{name} is deprecated on 0-D tensors. Consider using x.conj()."
        warn_once(message, message, stacklevel=4)
        return input.conj()
    if input.dim() == 1:
        which = "tensor.adjoint()" if name == "adjoint()" else "tensor.mH"
        raise RuntimeError(
            f"{which} is only supported on matrices or batches of matrices. Got 1-D tensor."
        )
    view = input.transpose(-2, -1)
    return torch.conj(view) if input.is_complex() else view


def _conjugate_transpose(self: Tensor) -> Tensor:
    return _adjoint(self, "Tensor.mH")


def _h(self: Tensor) -> Tensor:
    if self.dim() > 2:
        raise RuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D tensor."
        )
    return adjoint(self) if self.dim() == 2 else self


@defop("narrow_copy", method=True, out=True)
def narrow_copy(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """A contiguous copy of ``input.narrow(dim, start, length)``."""
    return input.narrow(dim, start, length).clone(memory_format=torch.contiguous_format)


@defop("split_with_sizes", method=True)
def split_with_sizes(input: Tensor, split_sizes, dim: int = 0) -> tuple:
    """Views of ``input`` split along ``dim`` into parts of the given sizes (they must
    add up to the dim's size)."""
    d = input._wrap_dim(dim)
    if sum(split_sizes) != input.shape[d]:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {input.shape[d]} (input "
            f"tensor's size at dimension {dim}), but got split_sizes={list(split_sizes)}"
        )
    return tuple(torch.split(input, list(split_sizes), d))


@defop("unsafe_split", method=True)
def unsafe_split(input: Tensor, split_size, dim: int = 0) -> tuple:
    """:func:`torch.split` (PyTorch's version skips a check of later in-place use)."""
    return tuple(torch.split(input, split_size, dim))


@defop("unsafe_chunk", method=True)
def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """:func:`torch.chunk` (PyTorch's version skips a check of later in-place use)."""
    return tuple(torch.chunk(input, chunks, dim))


@defop("sum_to_size", method=True, public=False)
def sum_to_size(self: Tensor, *size) -> Tensor:
    """``self`` summed over the dims that broadcasting ``size`` to ``self``'s shape
    would have stretched, giving shape ``size``."""
    if len(size) == 1 and not isinstance(size[0], int):
        size = tuple(size[0])
    shape = tuple(self.shape)
    lead = len(shape) - len(size)
    fits = lead >= 0 and all(s in (1, n) for s, n in zip(size, shape[lead:]))
    if not fits:
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    result = self.sum(tuple(range(lead))) if lead else self
    stretched = tuple(i for i, s in enumerate(size) if s == 1 and result.shape[i] != 1)
    return result.sum(stretched, keepdim=True) if stretched else result


@defop("conj_physical", method=True, inplace=True, torch_inplace=True)
def conj_physical(input: Tensor) -> Tensor:
    """The complex conjugate, computed now (``input`` itself for real tensors)."""
    return torch.conj(input)


def conj_physical_(self: Tensor) -> Tensor:
    """In-place complex conjugate (a no-op for real tensors)."""
    if self.is_complex():
        self.copy_(torch.conj(self))
    return self


@defop("resolve_conj", method=True)
def resolve_conj(input: Tensor) -> Tensor:
    """``input`` (tensors here never carry a lazy conjugate bit)."""
    return input


@defop("resolve_neg", method=True)
def resolve_neg(input: Tensor) -> Tensor:
    """``input`` (tensors here never carry a lazy negative bit)."""
    return input


@defop("is_neg", method=True)
def is_neg(input: Tensor) -> bool:
    """Whether ``input`` is a lazily negated view (never here)."""
    return False


@defop("is_signed", method=True, public=False)
def is_signed(self: Tensor) -> bool:
    """Whether the dtype can hold negative values (every dtype but uint8 and bool)."""
    return self.dtype.name not in ("uint8", "bool")


@defop("nonzero_static", method=True)
def nonzero_static(input: Tensor, *, size: int, fill_value: int = -1) -> Tensor:
    """``nonzero(input)`` cut or padded with ``fill_value`` rows to exactly ``size`` rows."""
    found = torch.nonzero(input)
    if found.shape[0] >= size:
        return found[:size].clone(memory_format=torch.contiguous_format)
    pad = torch.full((size - found.shape[0], found.shape[1]), fill_value, dtype=torch.int64)
    return torch.cat([found, pad], 0)


@defop("unsafe_split_with_sizes", method=True)
def unsafe_split_with_sizes(input: Tensor, split_sizes, dim: int = 0) -> tuple:
    """:func:`split_with_sizes` (PyTorch's version skips a check of later in-place use)."""
    return split_with_sizes(input, split_sizes, dim)


def as_strided_(self: Tensor, size, stride, storage_offset=None) -> Tensor:
    """Give ``self`` the sizes, strides and offset of ``self.as_strided(...)`` in place."""
    view = self.as_strided(size, stride, storage_offset)
    self._np = view._np
    self._offset_ = view._offset_
    if view.grad_fn is not None:
        self.grad_fn = view.grad_fn
    return self


#: properties of Tensor
PROPERTIES = {"mH": _conjugate_transpose, "H": _h, "is_cpu": lambda self: True}
