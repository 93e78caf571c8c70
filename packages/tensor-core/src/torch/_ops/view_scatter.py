"""Writes into copies and through views: ``slice_scatter``, ``select_scatter``,
``diagonal_scatter``, ``as_strided_scatter`` (a copy of ``input`` with ``src`` written
where the view would be), ``put`` and ``fill_diagonal_``.

NOTE: written on ``clone``, views and in-place copies, so their gradients follow.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from ._dispatch import defop
from .gather_scatter import _inplace

__all__ = [
    "put",
    "slice_scatter",
    "select_scatter",
    "diagonal_scatter",
    "as_strided_scatter",
]


@defop("put", method=True, inplace=True)
def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``source`` written (or added) at the flat ``index``."""
    if source.numel() != index.numel():
        raise IndexError(
            "put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {source.numel()}, index.numel() = {index.numel()}"
        )
    size = input.numel()
    idx = index._np
    if idx.size and (idx.min() < -size or idx.max() >= size):
        bad = int(idx.max() if idx.max() >= size else idx.min())
        raise IndexError(
            f"out of range: tried to access index {bad} on a tensor of {size} elements."
        )
    flat = input.reshape(-1)
    written = flat.index_put((index.reshape(-1),), source.reshape(-1), accumulate=accumulate)
    return written.reshape(input.shape)


def _scatter_into_view(input: Tensor, src: Tensor, view_of) -> Tensor:
    result = input.clone()
    target = view_of(result)
    if tuple(target.shape) != tuple(src.shape):
        raise RuntimeError(
            f"expected src to have a size equal to the slice of self. src size = "
            f"{list(src.shape)}, slice size = {list(target.shape)}"
        )
    target.copy_(src)
    return result


@defop("slice_scatter", method=True)
def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start=None, end=None, step=1):
    """A copy of ``input`` with ``src`` written into ``input[..., start:end:step]``
    along ``dim``."""
    d = input._wrap_dim(dim)
    index = (slice(None),) * d + (slice(start, end, step),)
    return _scatter_into_view(input, src, lambda t: t[index])


@defop("select_scatter", method=True)
def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` with ``src`` written into ``input.select(dim, index)``."""
    return _scatter_into_view(input, src, lambda t: t.select(dim, index))


@defop("diagonal_scatter", method=True)
def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1):
    """A copy of ``input`` with ``src`` written into its diagonal."""
    return _scatter_into_view(input, src, lambda t: t.diagonal(offset, dim1, dim2))


@defop("as_strided_scatter", method=True)
def as_strided_scatter(input: Tensor, src: Tensor, size, stride, storage_offset=None):
    """A copy of ``input`` with ``src`` written into ``as_strided(size, stride)``."""
    return _scatter_into_view(input, src, lambda t: t.as_strided(size, stride, storage_offset))


@defop("fill_diagonal_", method=True, public=False)
def fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """Fill the main diagonal in place (all dims equal for 3 or more dims; a tall matrix
    restarts the diagonal every ``cols + 1`` rows when ``wrap``)."""
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    rows, cols = self.shape[0], self.shape[1]
    if self.dim() == 2:
        step = cols + 1
        end = rows * cols if wrap or rows <= cols else cols * cols
        positions = np.arange(0, end, step)
    else:
        n = self.shape[0]
        step = sum(n**i for i in range(self.dim()))
        positions = np.arange(0, n * step, step)[:n]
    flat = self.reshape(-1) if self.is_contiguous() else None
    if flat is None:
        raise RuntimeError("fill_diagonal_ needs a contiguous tensor here")
    index = Tensor._from_array(positions.astype(np.int64), _dtype.int64)
    flat[index] = fill_value
    return self


put_ = _inplace(put, "put_")
