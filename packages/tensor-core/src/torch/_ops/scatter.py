"""Scatter/gather kernels that the derivative formulas of views and indexing use.

They are ops like any other (registered, differentiable), so gradients of gradients
work: each is the other's derivative.
"""

from __future__ import annotations

import numpy as np

from .. import _native
from .._tensor import Tensor
from ._dispatch import array_module, record, register_op

__all__ = ["view_scatter", "view_gather", "index_scatter"]


def _extent(shape, strides) -> int:
    if 0 in shape:
        return 0
    return sum((n - 1) * s for n, s in zip(shape, strides)) + 1


def _flat_positions(shape, strides, offset, like=None) -> np.ndarray:
    """The flat buffer position of every element of a strided geometry (made with
    ``like``'s array module: a device buffer takes device positions)."""
    on = {} if like is None else {"like": like}
    positions = np.full(shape, offset, dtype=np.int64, **on)
    for d, (n, s) in enumerate(zip(shape, strides)):
        index_shape = [1] * len(shape)
        index_shape[d] = n
        positions = positions + (np.arange(n, dtype=np.int64, **on) * s).reshape(index_shape)
    return positions


def _reads_each_once(shape, strides) -> bool:
    """Whether a view of ``shape`` and ``strides`` reads no element twice: with the dims
    of more than one element sorted by stride, each stride must pass the extent of the
    dims below it (sufficient, and true of every view but expanded or overlapping ones)."""
    extent = 1
    for size, stride in sorted(
        ((n, abs(s)) for n, s in zip(shape, strides) if n > 1), key=lambda d: d[1]
    ):
        if stride < extent:
            return False
        extent = stride * (size - 1) + extent
    return True


def _read_counts(buffer, geometry, base):
    """How many elements of ``geometry`` read each of its positions in ``buffer``, laid
    out as the geometry."""
    shape, strides, offset = geometry
    counts = np.zeros(buffer.shape, dtype=buffer.dtype, like=buffer)
    np.add.at(counts, _flat_positions(shape, strides, offset - base, counts).reshape(-1), 1)
    return _strided(counts, shape, strides, offset - base)


def _buffer(input_geometry, view_geometry, dtype, like=None):
    (in_shape, in_strides, in_off), (v_shape, v_strides, v_off) = input_geometry, view_geometry
    base = min(in_off, v_off)
    end = max(in_off + _extent(in_shape, in_strides), v_off + _extent(v_shape, v_strides))
    return np.zeros(max(end - base, 0), dtype=dtype, like=like), base


def _strided(buffer, shape, strides, start):
    itemsize = buffer.itemsize
    strides = tuple(s * itemsize for s in strides)
    if not isinstance(buffer, np.ndarray):  # a device array: its array module's view
        return array_module(buffer).lib.stride_tricks.as_strided(buffer[start:], shape, strides)
    return np.lib.stride_tricks.as_strided(buffer[start:], shape, strides)


def view_scatter(grad: Tensor, input_geometry, view_geometry) -> Tensor:
    """The gradient of a view: ``grad`` (laid out as the view) summed into zeros laid out
    as the view's input; positions the view reads twice get both contributions."""
    buffer, base = _buffer(input_geometry, view_geometry, grad._np.dtype, grad._np)
    v_shape, v_strides, v_off = view_geometry
    if _reads_each_once(v_shape, v_strides):
        # no position is read twice (slices, selects, chunks, transposes): a plain
        # strided write, where np.add.at takes a position array and one add per element
        _strided(buffer, v_shape, v_strides, v_off - base)[...] = grad._np
    else:
        positions = _flat_positions(v_shape, v_strides, v_off - base, buffer)
        np.add.at(buffer, positions.reshape(-1), grad._np.reshape(-1))
    in_shape, in_strides, in_off = input_geometry
    result = _strided(buffer, in_shape, in_strides, in_off - base).copy()
    if not _reads_each_once(in_shape, in_strides):
        # an input whose elements share memory (expanded, unfolded): a position's gradient
        # is split among the elements that read it, as PyTorch's as_strided backward does,
        # so that the input's own backward, which sums those elements, counts it once
        np.divide(result, _read_counts(buffer, input_geometry, base), out=result)
    result = Tensor._from_array(result, grad._dtype)
    return record(VIEW_SCATTER, (grad,), result, (input_geometry, view_geometry))


def view_gather(grad: Tensor, input_geometry, view_geometry) -> Tensor:
    """The adjoint of :func:`view_scatter`: lay ``grad`` out as the input, read the view."""
    buffer, base = _buffer(input_geometry, view_geometry, grad._np.dtype, grad._np)
    in_shape, in_strides, in_off = input_geometry
    if _reads_each_once(in_shape, in_strides):
        _strided(buffer, in_shape, in_strides, in_off - base)[...] = grad._np
    else:  # the adjoint of view_scatter's split: shares of one position add up
        shares = grad._np / _read_counts(buffer, input_geometry, base)
        positions = _flat_positions(in_shape, in_strides, in_off - base, buffer)
        np.add.at(buffer, positions.reshape(-1), shares.reshape(-1))
    v_shape, v_strides, v_off = view_geometry
    result = _strided(buffer, v_shape, v_strides, v_off - base).copy()
    result = Tensor._from_array(result, grad._dtype)
    return record(VIEW_GATHER, (grad,), result, (input_geometry, view_geometry))


def _rows_accumulated(result: np.ndarray, index, grad: np.ndarray) -> bool:
    """The common case ``x[rows]`` (one integer index array on the first dim, e.g. an
    embedding lookup) by the native row accumulation; False when it does not apply."""
    if not (isinstance(index, tuple) and len(index) == 1) or result.ndim == 0:
        return False
    rows = index[0]
    if not isinstance(rows, np.ndarray) or rows.dtype.kind not in "iu":
        return False
    if grad.shape != rows.shape + result.shape[1:]:
        return False
    rows = (
        np.where(rows < 0, rows + result.shape[0], rows) if rows.size and rows.min() < 0 else rows
    )
    source = grad.reshape((rows.size,) + result.shape[1:])
    return _native.index_accumulate(result, 0, rows, source)


def index_scatter(grad: Tensor, index, shape) -> Tensor:
    """The gradient of advanced indexing: ``grad`` summed into zeros of ``shape`` at
    ``index`` (repeated indices accumulate)."""
    result = np.zeros(shape, dtype=grad._np.dtype, like=grad._np)  # on grad's device
    if not _rows_accumulated(result, index, grad._np):
        np.add.at(result, index, grad._np)
    return record(INDEX_SCATTER, (grad,), Tensor._from_array(result, grad._dtype), (index, shape))


def _register(name, function, signature, saved=("input_geometry", "view_geometry")):
    return register_op(name, function, signature, "scatter", saved=saved)


VIEW_SCATTER = _register(
    "_view_scatter",
    view_scatter,
    "_view_scatter(Tensor grad, Geometry input, Geometry view) -> Tensor",
)
VIEW_GATHER = _register(
    "_view_gather",
    view_gather,
    "_view_gather(Tensor grad, Geometry input, Geometry view) -> Tensor",
)
INDEX_SCATTER = _register(
    "_index_scatter",
    index_scatter,
    "_index_scatter(Tensor grad, Index index, int[] shape) -> Tensor",
    saved=("index", "shape"),
)
