"""The standard's statistical, utility, searching, sorting and set functions."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import torch

from ._helpers import array, check_dtype, errstate, needs_grad, operand, wrap

__all__ = [
    "cumulative_prod",
    "cumulative_sum",
    "max",
    "mean",
    "min",
    "prod",
    "std",
    "sum",
    "var",
    "all",
    "any",
    "diff",
    "argmax",
    "argmin",
    "count_nonzero",
    "nonzero",
    "searchsorted",
    "where",
    "argsort",
    "sort",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]


def _axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def _torch_dims(axis, ndim):
    return tuple(range(ndim)) if axis is None else axis


def max(x, /, *, axis=None, keepdims=False):  # noqa: A001 - the standard's names
    """The largest element of ``x`` (over ``axis``); NaN when any element is NaN."""
    if needs_grad(x):
        return torch.amax(x, dim=_torch_dims(axis, x.ndim), keepdim=keepdims)
    return wrap(np.max(array(x), axis=_axis(axis), keepdims=keepdims))


def min(x, /, *, axis=None, keepdims=False):  # noqa: A001
    """The smallest element of ``x`` (over ``axis``); NaN when any element is NaN."""
    if needs_grad(x):
        return torch.amin(x, dim=_torch_dims(axis, x.ndim), keepdim=keepdims)
    return wrap(np.min(array(x), axis=_axis(axis), keepdims=keepdims))


def mean(x, /, *, axis=None, keepdims=False):
    """The arithmetic mean of a floating ``x`` (over ``axis``)."""
    if needs_grad(x):
        return torch.mean(x, dim=_torch_dims(axis, x.ndim), keepdim=keepdims)
    a = array(x)
    if a.dtype.kind not in "fc":
        raise TypeError(f"mean needs a floating-point array, got {x.dtype}")
    with errstate():
        return wrap(np.mean(a, axis=_axis(axis), keepdims=keepdims))


def _accumulation_dtype(x, dtype):
    """The standard's default dtype of a sum or product: the default integer type for
    signed integers and bool, its unsigned twin for unsigned integers, else ``x``'s."""
    check_dtype(dtype)
    if dtype is not None:
        return dtype.np_dtype
    kind = array(x).dtype.kind
    return {"b": np.int64, "i": np.int64, "u": np.uint64}.get(kind, array(x).dtype)


def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    """The sum of ``x`` (over ``axis``), in the standard's accumulation dtype."""
    if needs_grad(x) and dtype is None:
        return torch.sum(x, dim=_torch_dims(axis, x.ndim), keepdim=keepdims)
    with errstate():
        result = np.sum(
            array(x), axis=_axis(axis), dtype=_accumulation_dtype(x, dtype), keepdims=keepdims
        )
    return wrap(result)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """The product of ``x`` (over ``axis``), in the standard's accumulation dtype."""
    with errstate():
        result = np.prod(
            array(x), axis=_axis(axis), dtype=_accumulation_dtype(x, dtype), keepdims=keepdims
        )
    return wrap(result)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The standard deviation of ``x`` with ``correction`` (Bessel's for 1)."""
    return _spread(np.std, torch.std, x, axis, correction, keepdims)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The variance of ``x`` with ``correction`` (Bessel's for 1)."""
    return _spread(np.var, torch.var, x, axis, correction, keepdims)


def _spread(np_function, torch_function, x, axis, correction, keepdims):
    """``std``/``var``: through PyTorch's when ``x`` requires grad, else NumPy's (whose
    ``ddof`` is the standard's ``correction``)."""
    if needs_grad(x):
        dims = _torch_dims(axis, x.ndim)
        return torch_function(x, dim=dims, correction=correction, keepdim=keepdims)
    with errstate():
        return wrap(np_function(array(x), axis=_axis(axis), ddof=correction, keepdims=keepdims))


def _cumulative(np_function, x, axis, dtype, include_initial):
    a = array(x)
    if axis is None:
        if a.ndim > 1:
            raise ValueError("axis is required for arrays of more than one dimension")
        axis = 0
    if a.ndim == 0:
        raise ValueError("cumulative functions need an array of at least one dimension")
    with errstate():
        result = np_function(
            a, axis=axis, dtype=_accumulation_dtype(x, dtype), include_initial=include_initial
        )
    return wrap(result)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running sums of ``x`` along ``axis`` (with a leading 0 if ``include_initial``)."""
    return _cumulative(np.cumulative_sum, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running products of ``x`` along ``axis`` (with a leading 1 if ``include_initial``)."""
    return _cumulative(np.cumulative_prod, x, axis, dtype, include_initial)


def all(x, /, *, axis=None, keepdims=False):  # noqa: A001
    """Whether every element of ``x`` (over ``axis``) is true (non-zero; NaN is true)."""
    return wrap(np.all(array(x), axis=_axis(axis), keepdims=keepdims))


def any(x, /, *, axis=None, keepdims=False):  # noqa: A001
    """Whether some element of ``x`` (over ``axis``) is true."""
    return wrap(np.any(array(x), axis=_axis(axis), keepdims=keepdims))


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """The ``n``-th forward difference of ``x`` along ``axis``."""
    options = {}
    if prepend is not None:
        options["prepend"] = array(prepend, "prepend")
    if append is not None:
        options["append"] = array(append, "append")
    with errstate():
        return wrap(np.diff(array(x), n=n, axis=axis, **options))


def argmax(x, /, *, axis=None, keepdims=False):
    """The index of the first largest element (of the flattened array without ``axis``)."""
    return wrap(np.argmax(array(x), axis=axis, keepdims=keepdims).astype(np.int64))


def argmin(x, /, *, axis=None, keepdims=False):
    """The index of the first smallest element (of the flattened array without ``axis``)."""
    return wrap(np.argmin(array(x), axis=axis, keepdims=keepdims).astype(np.int64))


def count_nonzero(x, /, *, axis=None, keepdims=False):
    """How many elements of ``x`` (over ``axis``) are non-zero."""
    result = np.count_nonzero(array(x), axis=_axis(axis), keepdims=keepdims)
    return wrap(np.asarray(result, dtype=np.int64))


def nonzero(x, /):
    """The indices of the non-zero elements, one int64 array per dimension."""
    a = array(x)
    if a.ndim == 0:
        raise ValueError("nonzero is not defined for zero-dimensional arrays")
    return tuple(wrap(i.astype(np.int64)) for i in np.nonzero(a))


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Where the elements of ``x2`` would be inserted into the sorted 1-D ``x1``."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    order = None if sorter is None else array(sorter, "sorter")
    found = np.searchsorted(array(x1), operand(x2), side=side, sorter=order)
    return wrap(np.asarray(found, dtype=np.int64))


def where(condition, x1, x2, /):
    """Elements of ``x1`` where ``condition`` is true, else of ``x2`` (arrays or scalars)."""
    if needs_grad(x1, x2):
        return torch.where(condition, x1, x2)
    return wrap(np.where(array(condition, "condition"), operand(x1), operand(x2)))


def _stable_argsort(a, axis, descending):
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    # a stable descending order: sort the reversed array, then map indices back
    n = a.shape[axis] if a.ndim else 1
    flipped = np.flip(a, axis=axis)
    order = np.argsort(flipped, axis=axis, kind="stable")
    return n - 1 - np.flip(order, axis=axis)


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """Indices that sort ``x`` along ``axis`` (stable by default)."""
    a = array(x)
    return wrap(_stable_argsort(a, axis, descending).astype(np.int64))


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """``x`` sorted along ``axis`` (NaNs last)."""
    a = array(x)
    order = _stable_argsort(a, axis, descending)
    return wrap(np.take_along_axis(a, order, axis=axis))


class UniqueAllResult(NamedTuple):
    values: torch.Tensor
    indices: torch.Tensor
    inverse_indices: torch.Tensor
    counts: torch.Tensor


class UniqueCountsResult(NamedTuple):
    values: torch.Tensor
    counts: torch.Tensor


class UniqueInverseResult(NamedTuple):
    values: torch.Tensor
    inverse_indices: torch.Tensor


def _index(a):
    return wrap(np.asarray(a).astype(np.int64))


def unique_all(x, /):
    """The distinct elements of ``x`` (each NaN distinct), the first index of each, the
    inverse indices (shaped like ``x``) and the counts."""
    found = np.unique_all(array(x))
    return UniqueAllResult(
        wrap(found.values),
        _index(found.indices),
        _index(found.inverse_indices),
        _index(found.counts),
    )


def unique_counts(x, /):
    """The distinct elements of ``x`` and how often each occurs."""
    found = np.unique_counts(array(x))
    return UniqueCountsResult(wrap(found.values), _index(found.counts))


def unique_inverse(x, /):
    """The distinct elements of ``x`` and, per element of ``x``, its position among them."""
    found = np.unique_inverse(array(x))
    return UniqueInverseResult(wrap(found.values), _index(found.inverse_indices))


def unique_values(x, /):
    """The distinct elements of ``x``."""
    return wrap(np.unique_values(array(x)))
