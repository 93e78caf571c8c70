"""The standard's manipulation, indexing and linear algebra functions."""

from __future__ import annotations

import numpy as np

import torch

from ._helpers import array, needs_grad, promote, wrap, wrap_view

__all__ = [
    "broadcast_arrays",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "moveaxis",
    "permute_dims",
    "repeat",
    "reshape",
    "roll",
    "squeeze",
    "stack",
    "tile",
    "unstack",
    "take",
    "take_along_axis",
    "matmul",
    "matrix_transpose",
    "tensordot",
    "vecdot",
]


def _common(arrays):
    """The arrays of ``arrays`` converted to their standard result dtype."""
    dtype = arrays[0].dtype
    for x in arrays[1:]:
        dtype = promote(dtype, x.dtype)
    return [array(x).astype(dtype.np_dtype, copy=False) for x in arrays]


def broadcast_arrays(*arrays):
    """The arrays broadcast against each other (views)."""
    shape = np.broadcast_shapes(*(array(x).shape for x in arrays))
    return [broadcast_to(x, shape) for x in arrays]


def broadcast_to(x, /, shape):
    """``x`` broadcast to ``shape`` (a read-only view in NumPy terms)."""
    if needs_grad(x):
        return x.expand(*shape)
    return wrap_view(x, np.broadcast_to(array(x), tuple(shape)))


def concat(arrays, /, *, axis=0):
    """The arrays joined along ``axis`` (flattened first when ``axis`` is None)."""
    arrays = list(arrays)
    if needs_grad(*arrays):
        if axis is None:
            return torch.cat([x.reshape(-1) for x in arrays])
        return torch.cat(arrays, dim=axis)
    return wrap(np.concat(_common(arrays), axis=axis))


def expand_dims(x, /, *, axis=0):
    """``x`` with a new axis of size 1 at ``axis``."""
    ndim = array(x).ndim
    if not -ndim - 1 <= axis <= ndim:
        raise IndexError(f"axis {axis} is out of bounds for an array of dimension {ndim}")
    if needs_grad(x):
        return x.unsqueeze(axis)
    return wrap_view(x, np.expand_dims(array(x), axis))


def flip(x, /, *, axis=None):
    """``x`` with the order of elements reversed along ``axis`` (all axes by default)."""
    return wrap(np.flip(array(x), axis=axis).copy())


def moveaxis(x, source, destination, /):
    """``x`` with axes ``source`` moved to positions ``destination``."""
    if needs_grad(x):
        return torch.movedim(x, source, destination)
    return wrap_view(x, np.moveaxis(array(x), source, destination))


def permute_dims(x, /, axes):
    """``x`` with its axes in the order ``axes``."""
    if needs_grad(x):
        return x.permute(*axes)
    return wrap_view(x, np.transpose(array(x), axes))


def repeat(x, repeats, /, *, axis=None):
    """Each element of ``x`` repeated ``repeats`` times (an int or an array of counts)."""
    counts = array(repeats) if isinstance(repeats, torch.Tensor) else repeats
    return wrap(np.repeat(array(x), counts, axis=axis))


def reshape(x, /, shape, *, copy=None):
    """``x`` with a new shape; ``copy=False`` raises when a view is impossible."""
    if needs_grad(x) and not copy:
        return x.reshape(tuple(shape))
    a = array(x)
    if copy:
        return wrap(a.reshape(tuple(shape)).copy())
    try:
        return wrap_view(x, a.reshape(tuple(shape), copy=False))
    except ValueError:
        if copy is False:
            raise ValueError("reshape(copy=False): the new shape needs a copy") from None
    return wrap(a.reshape(tuple(shape)))


def roll(x, /, shift, *, axis=None):
    """``x`` with elements shifted by ``shift`` along ``axis`` (flattened when None)."""
    return wrap(np.roll(array(x), shift, axis=axis))


def squeeze(x, /, axis):
    """``x`` without the size-1 axes ``axis`` (ValueError for an axis of another size)."""
    a = array(x)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    for ax in axes:
        if not -a.ndim <= ax < a.ndim:
            raise IndexError(f"axis {ax} is out of bounds for an array of dimension {a.ndim}")
        if a.shape[ax] != 1:
            raise ValueError(f"cannot squeeze axis {ax} of size {a.shape[ax]}")
    if needs_grad(x):
        return x.squeeze(axes)
    return wrap_view(x, np.squeeze(a, axis=axes))


def stack(arrays, /, *, axis=0):
    """The arrays (all of one shape) joined along a new axis."""
    arrays = list(arrays)
    if needs_grad(*arrays):
        return torch.stack(arrays, dim=axis)
    return wrap(np.stack(_common(arrays), axis=axis))


def tile(x, repetitions, /):
    """``x`` repeated ``repetitions[i]`` times along each axis."""
    return wrap(np.tile(array(x), tuple(repetitions)))


def unstack(x, /, *, axis=0):
    """The slices of ``x`` along ``axis``, as a tuple of views."""
    a = array(x)
    moved = np.moveaxis(a, axis, 0)
    return tuple(wrap_view(x, part) for part in moved)


def take(x, indices, /, *, axis=None):
    """Elements of ``x`` at ``indices`` (an integer array) along ``axis``."""
    a = array(x)
    if axis is None:
        if a.ndim > 1:
            raise ValueError("take: axis is required for arrays of more than one dimension")
        axis = 0
    return wrap(np.take(a, array(indices, "indices"), axis=axis))


def take_along_axis(x, indices, /, *, axis=-1):
    """Elements of ``x`` picked by ``indices`` (same number of dims) along ``axis``."""
    return wrap(np.take_along_axis(array(x), array(indices, "indices"), axis=axis))


def matmul(x1, x2, /):
    """The matrix product of ``x1`` and ``x2`` (NumPy's broadcasting rules)."""
    if needs_grad(x1, x2):
        return torch.matmul(x1, x2)
    a, b = _common([x1, x2])
    return wrap(np.matmul(a, b))


def matrix_transpose(x, /):
    """``x`` with its last two axes swapped."""
    if array(x).ndim < 2:
        raise ValueError("matrix_transpose needs an array of at least 2 dimensions")
    if needs_grad(x):
        return x.mT
    return wrap_view(x, np.swapaxes(array(x), -1, -2))


def tensordot(x1, x2, /, *, axes=2):
    """The sum of products of ``x1`` and ``x2`` over ``axes``."""
    if needs_grad(x1, x2):
        return torch.tensordot(x1, x2, dims=axes)
    a, b = _common([x1, x2])
    return wrap(np.tensordot(a, b, axes=axes))


def vecdot(x1, x2, /, *, axis=-1):
    """The dot product of vectors along ``axis`` (``x1`` conjugated)."""
    a, b = _common([x1, x2])
    if a.shape[axis] != b.shape[axis]:
        raise ValueError("vecdot: the arrays differ in size along axis")
    return wrap(np.vecdot(a, b, axis=axis))
