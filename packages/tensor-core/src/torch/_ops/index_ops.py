"""Writes and reductions at indices along a dim: ``index_add``, ``index_copy``,
``index_fill``, ``index_put``, ``index_reduce``, ``scatter_reduce``, ``masked_scatter``,
``take_along_dim`` (functions, methods and in-place methods).

NOTE: most are composites of ``scatter``/``scatter_add``/``gather``/indexing with the 1-D
index expanded to the source's shape, so their gradients come from those ops' entries.
``scatter_reduce`` is a registered op of its own (its gradient depends on the reduction).
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import _dtype, _native
from .._tensor import Tensor, _is_grad_recording
from ._dispatch import array_module, as_array, contiguous, defop, record, register_op
from .gather_scatter import (
    _bounds,
    _check_scatter_shapes,
    _inplace,
    _nonnegative,
    gather,
    scatter,
    scatter_add,
)
from .shape_ops import check_sizes_outside

__all__ = [
    "index_add",
    "index_copy",
    "index_fill",
    "index_put",
    "index_reduce",
    "scatter_reduce",
    "masked_scatter",
    "take_along_dim",
    "unravel_index",
]

_INDEX_DTYPES = (_dtype.int64, _dtype.int32)


def _legacy(d) -> str:
    """PyTorch's short dtype name in messages (``Float``, ``Long``)."""
    return d._legacy[:-6]


def _vector_index(op: str, index) -> Tensor:
    if not isinstance(index, Tensor) or index._dtype not in _INDEX_DTYPES:
        got = _legacy(index._dtype) if isinstance(index, Tensor) else type(index).__name__
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index but got: {got}")
    if index._np.ndim > 1:
        raise IndexError(
            f"{op}(): Index is supposed to be a vector, but got dim: {index._np.ndim} with "
            f"type: {_legacy(index._dtype)} and size: {list(index._np.shape)}"
        )
    return index.reshape(-1)


def _along(index: Tensor, d: int, shape) -> Tensor:
    """The 1-D ``index`` laid along dim ``d`` and expanded to ``shape`` (a scatter index)."""
    view = [1] * len(shape)
    if shape:
        view[d] = -1
    return index.reshape(view).expand(tuple(shape)) if shape else index.reshape(())


def _check_source(op: str, input: Tensor, d: int, index: Tensor, source: Tensor) -> None:
    if source._dtype is not input._dtype:
        raise RuntimeError(
            f"{op}(): self ({_legacy(input._dtype)}) and source ({_legacy(source._dtype)}) "
            "must have the same scalar type"
        )
    own, theirs = list(input._np.shape), list(source._np.shape)
    if len(own) != len(theirs) or any(
        a != b for i, (a, b) in enumerate(zip(own, theirs)) if i != d
    ):
        if len(own) == len(theirs) or source._np.ndim > 0:
            raise RuntimeError(
                "source tensor shape must match self tensor shape, excluding the specified "
                f"dimension. Got self.shape = {own} source.shape = {theirs}"
            )
    size = theirs[d] if theirs else 1
    if index._np.size != size:
        raise RuntimeError(
            f"{op}(): Number of indices ({index._np.size}) should be equal to "
            f"source.size(dim): ({size}), for dim: {d}"
        )


def _dim_of(input: Tensor, dim: int) -> int:
    return input._wrap_dim(dim) if input._np.ndim else 0


def _strict_bounds(index: Tensor, size: int, d: int) -> None:
    """Index ops take no negative indices (unlike ``gather``): -1 is out of bounds."""
    idx = index._np
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        bad = int(idx.max() if idx.max() >= size else idx.min())
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")


@defop("index_add", method=True, inplace=True, out=True)
def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    """A copy of ``input`` with ``alpha * source`` added at the 1-D ``index`` along
    ``dim`` (repeated indices accumulate).

    Examples::

        >>> torch.zeros(3).index_add(0, torch.tensor([0, 2, 0]), torch.tensor([1.0, 2.0, 3.0]))
        tensor([4., 0., 2.])
    """
    d = _dim_of(input, dim)
    index = _vector_index("index_add_", index)
    _check_source("index_add_", input, d, index, source)
    _strict_bounds(index, input._np.shape[d] if input._np.ndim else 1, d)
    if input._np.ndim and not _is_grad_recording(input, source):
        # the native row accumulation, without an index expanded to the source's shape
        result = input._np.copy(order="C")
        rows = index._np.astype(np.int64, copy=False)
        if _native.index_accumulate(result, d, rows, source._np, alpha):
            return Tensor._from_array(result, input._dtype)
    if alpha != 1:
        source = source * alpha
    if not input._np.ndim:
        return input + source.sum()
    return scatter_add(input, d, _along(index, d, source._np.shape), source)


@defop("index_copy", method=True, inplace=True, out=True)
def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` whose slices at the 1-D ``index`` along ``dim`` are those of
    ``source`` (for a repeated index, the last one wins)."""
    d = _dim_of(input, dim)
    if not isinstance(index, Tensor) or index._dtype is not _dtype.int64:
        raise RuntimeError("index_copy_(): Expected a long tensor for index")
    if index._np.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.dim()})")
    index = index.reshape(-1)
    if source._dtype is not input._dtype:
        raise RuntimeError(
            "index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{_legacy(input._dtype)} and (source) {_legacy(source._dtype)}"
        )
    size = source._np.shape[d] if source._np.ndim else 1
    if index._np.size != size:
        raise IndexError(
            f"index_copy_(): Number of indices ({index._np.size}) should be equal to "
            f"source.size(dim) ({size})"
        )
    slices_differ = (
        "index_copy_(): Source/destination tensor must have same slice shapes. Destination "
        f"slice shape: {{a}} at dimension {d} and source slice shape: {{b}} at dimension {d}."
    )
    check_sizes_outside(input._np.shape, source._np.shape, d, slices_differ)
    length = input._np.shape[d] if input._np.ndim else 1
    idx = index._np
    if idx.size and (idx.min() < 0 or idx.max() >= length):
        bad = int(idx.max() if idx.max() >= length else idx.min())
        raise IndexError(
            f"index_copy_(): index {bad} is out of bounds for dimension {d} with size {length}"
        )
    if not input._np.ndim:
        return source.reshape(()).clone()
    return scatter(input, d, _along(index, d, source._np.shape), source)


@defop("index_fill", method=True, inplace=True)
def index_fill(input: Tensor, dim: int, index: Tensor, value) -> Tensor:
    """A copy of ``input`` with ``value`` (a number or a 0-dim tensor) in the slices at the
    1-D ``index`` along ``dim``."""
    d = _dim_of(input, dim)
    if not isinstance(index, Tensor) or index._dtype is not _dtype.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if isinstance(value, Tensor) and value._np.ndim:
        raise RuntimeError(
            "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value._np.ndim} dimension(s)."
        )
    index = index.reshape(-1)
    length = input._np.shape[d] if input._np.ndim else 1
    try:
        _bounds(index._np, length, "index_fill", d)
    except RuntimeError as error:
        raise IndexError(str(error)) from None
    # index_fill counts negative indices from the end; scatter (below) does not
    index = Tensor._from_array(_nonnegative(index._np, length), index._dtype)
    shape = list(input._np.shape)
    if shape:
        shape[d] = index._np.size
    if isinstance(value, Tensor):
        value = value.to(input._dtype)
        if not input._np.ndim:
            return value.clone() if index._np.size else input.clone()
        return scatter(input, d, _along(index, d, shape), value.expand(tuple(shape)))
    if not input._np.ndim:
        return input.clone().fill_(value) if index._np.size else input.clone()
    return scatter(input, d, _along(index, d, shape), value=value)


@defop("index_put", method=True, inplace=True, torch_inplace=True)
def index_put(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``values`` written (or with ``accumulate``, added) at the
    advanced index ``indices`` (a tuple of index tensors)."""
    indices = tuple(indices)
    for i, item in enumerate(indices):
        if not isinstance(item, Tensor):
            raise TypeError(
                f"expected Tensor as element {i} in argument 0, but got {type(item).__name__}"
            )
    if values._dtype is not input._dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{_legacy(input._dtype)} for the destination and {_legacy(values._dtype)} for "
            "the source."
        )
    if not accumulate:
        result = input.clone()
        result[indices] = values
        return result
    from .._indexing import convert_index
    from .scatter import index_scatter

    target = input[indices]  # raises PyTorch's errors for bad indices
    try:
        spread = values.expand(tuple(target._np.shape))
    except RuntimeError:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(values._np.shape)} cannot be "
            f"broadcast to indexing result of shape {list(target._np.shape)}"
        ) from None
    converted, _ = convert_index(indices)
    return input + index_scatter(spread, converted, tuple(input._np.shape))


# --------------------------------------------------------------------- scatter_reduce

_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
#: the reductions' NumPy ufuncs (``mean`` accumulates a sum and divides after)
_UFUNCS = {
    "sum": np.add,
    "mean": np.add,
    "prod": np.multiply,
    "amax": np.maximum,
    "amin": np.minimum,
}


def _scatter_grid(index: np.ndarray, d: int) -> tuple:
    grid = list(array_module(index).indices(index.shape, sparse=True))
    grid[d] = index
    return tuple(grid)


def _identity(reduce: str, dtype: np.dtype):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    if dtype.kind == "b":
        return reduce == "amin"
    info = np.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def _scatter_reduce_array(array, d, idx, src, reduce, include_self):
    """The reduction of ``src`` into a copy of ``array`` at ``idx`` along ``d``."""
    result = array.copy()
    grid = _scatter_grid(idx, d)
    src = src[tuple(slice(0, n) for n in idx.shape)]
    hit = np.zeros(array.shape, dtype=bool, like=array)  # on the device of the data
    hit[grid] = True
    if not include_self:
        result[hit] = _identity(reduce, array.dtype)
    _UFUNCS[reduce].at(result, grid, src)
    if reduce == "mean":
        counts = np.zeros(array.shape, dtype=np.int64, like=array)
        np.add.at(counts, grid, 1)
        if include_self:
            counts += 1
        counts = np.maximum(counts, 1)
        if result.dtype.kind in "iub":
            result = np.floor_divide(result, counts).astype(array.dtype)
        else:
            result = (result / counts).astype(array.dtype)
    return result


@defop("scatter_reduce", method=True, inplace=True, out=True)
def scatter_reduce(
    input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self=True
) -> Tensor:
    """A copy of ``input`` with the entries of ``src`` reduced into it at ``index`` along
    ``dim`` by ``reduce`` (``"sum"``, ``"prod"``, ``"mean"``, ``"amax"`` or ``"amin"``);
    without ``include_self`` the entries of ``input`` that receive values do not take part.

    Examples::

        >>> x = torch.tensor([1.0, 5.0, 2.0, 4.0])
        >>> torch.zeros(2).scatter_reduce(0, torch.tensor([0, 0, 1, 1]), x, "amax")
        tensor([5., 4.])
    """
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(
            "reduce argument must be either sum, prod, mean, amax or amin, got " + str(reduce)
        )
    d = _dim_of(input, dim)
    if not isinstance(index, Tensor) or index._dtype is not _dtype.int64:
        raise RuntimeError("scatter(): Expected dtype int64 for index")
    if src._dtype is not input._dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    idx = index._np
    if input._np.ndim:
        _check_scatter_shapes(input, d, idx, src)
    _strict_bounds(index, input._np.shape[d] if input._np.ndim else 1, d)
    idx = np.where(idx < 0, idx + input._np.shape[d], idx) if idx.size else idx
    array = _scatter_reduce_array(input._np, d, idx, src._np, reduce, include_self)
    result = Tensor._from_array(as_array(array, None, "C"), input._dtype)
    return record(SCATTER_REDUCE, (input, index, src), result, (d, reduce, include_self))


SCATTER_REDUCE = register_op(
    "scatter_reduce",
    scatter_reduce,
    "scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, "
    "bool include_self=True) -> Tensor",
    "index_ops",
    saved=("dim", "reduce", "include_self"),
)


@defop("index_reduce", method=True, inplace=True, out=True)
def index_reduce(
    input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *, include_self=True
) -> Tensor:
    """A copy of ``input`` with the slices of ``source`` reduced into those at the 1-D
    ``index`` along ``dim`` by ``reduce`` (``"prod"``, ``"mean"``, ``"amax"``,
    ``"amin"``)."""
    warnings.warn(
        "index_reduce() is in beta and the API may change at any time.", UserWarning, stacklevel=2
    )
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
            f"{reduce}."
        )
    d = _dim_of(input, dim)
    index = _vector_index("index_reduce_", index)
    _check_source("index_reduce_", input, d, index, source)
    _strict_bounds(index, input._np.shape[d] if input._np.ndim else 1, d)
    spread = _along(index.to(_dtype.int64), d, source._np.shape)
    return scatter_reduce(input, d, spread, source, reduce, include_self=include_self)


# ------------------------------------------------------------------ masked, along dim


@defop("masked_scatter", method=True, inplace=True)
def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` (broadcast with ``mask``) whose elements where ``mask`` holds
    are taken, in order, from the start of ``source``."""
    if not isinstance(mask, Tensor) or mask._dtype is not _dtype.bool_:
        got = _legacy(mask._dtype) if isinstance(mask, Tensor) else type(mask).__name__
        raise RuntimeError(
            f"masked_scatter_ only supports boolean masks, but got mask with dtype {got}"
        )
    if source._dtype is not input._dtype:
        raise RuntimeError(
            "masked_scatter: expected self and source to have same dtypes but got"
            f"{_legacy(input._dtype)} and {_legacy(source._dtype)}"
        )
    from .shape_ops import broadcast_tensors
    from .ternary import where

    values, full_mask = broadcast_tensors(input, mask)
    flags = full_mask._np.reshape(-1)
    wanted = int(flags.sum())
    if wanted > source._np.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    # position of each element in source: the count of true mask entries before it
    positions = np.maximum(np.cumsum(flags) - 1, 0).reshape(full_mask._np.shape)
    flat = source.reshape(-1)
    picked = flat[Tensor._from_array(positions.astype(np.int64), _dtype.int64)]
    return where(full_mask, picked, values)


@defop("take_along_dim", method=True, out=True)
def take_along_dim(input: Tensor, indices: Tensor, dim=None) -> Tensor:
    """The entries of ``input`` at ``indices`` along ``dim`` (both broadcast outside that
    dim); without ``dim``, of the flattened input."""
    if not isinstance(indices, Tensor) or indices._dtype not in _INDEX_DTYPES:
        got = _legacy(indices._dtype) if isinstance(indices, Tensor) else type(indices).__name__
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got {got}")
    if dim is None:
        return gather(input.reshape(-1), 0, indices.reshape(-1))
    if input._np.ndim != indices._np.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {input._np.ndim} dimensions for input, and "
            f"{indices._np.ndim} dimensions for indices"
        )
    d = input._wrap_dim(dim)
    shape_in, shape_idx = list(input._np.shape), list(indices._np.shape)
    shape_in[d] = shape_idx[d] = 1
    common = list(np.broadcast_shapes(tuple(shape_in), tuple(shape_idx)))
    want_in, want_idx = list(common), list(common)
    want_in[d], want_idx[d] = input._np.shape[d], indices._np.shape[d]
    return gather(input.expand(tuple(want_in)), d, indices.expand(tuple(want_idx)))


index_add_ = _inplace(index_add, "index_add_")
index_copy_ = _inplace(index_copy, "index_copy_")
index_fill_ = _inplace(index_fill, "index_fill_", fills=True)
# PyTorch lets index_put_ write into an expanded tensor (with a deprecation warning)
index_put_ = _inplace(index_put, "index_put_", fills=True)
index_reduce_ = _inplace(index_reduce, "index_reduce_")
scatter_reduce_ = _inplace(scatter_reduce, "scatter_reduce_")
masked_scatter_ = _inplace(masked_scatter, "masked_scatter_")


@defop("unravel_index")
def unravel_index(indices, shape) -> tuple:
    """The coordinates in a tensor of ``shape`` of each flat index, one tensor per dim
    (negative indices count from the end)."""
    if not isinstance(indices, Tensor):
        from .._creation import tensor

        indices = tensor(indices)
    kind = indices._dtype
    if kind.is_floating_point or kind.is_complex or kind is _dtype.bool_:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    size = int(np.prod(shape))
    # NOTE: PyTorch computes the coordinates by division and remainder, so an index out of
    # range wraps around instead of raising
    flat = indices._np.astype(np.int64) % size if size else indices._np.astype(np.int64)
    coords = np.unravel_index(flat, shape) if shape else ()
    # views of the columns of one (..., ndim) tensor, as PyTorch lays them out
    stacked = np.stack(coords, -1) if coords else np.zeros(flat.shape + (0,), np.int64)
    table = Tensor._from_array(contiguous(stacked, np.int64), _dtype.int64)
    return tuple(table[..., i] for i in range(len(shape)))
