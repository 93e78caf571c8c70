"""Selection along a dim: ``gather``, ``scatter``, ``scatter_add``, ``index_select``,
``masked_fill``, ``flip``. Reductions with indices use them for their gradients."""

from __future__ import annotations

import numpy as np

from .. import _dtype, _native
from .._tensor import Tensor
from ._dispatch import (
    adopt_history,
    array_module,
    as_array,
    check_inplace,
    check_inplace_fill,
    defop,
    dims_argument,
    operand,
    record,
)
from .pointwise import INPLACE, _cast_error, _family_register, _shape_error, _snapshot, can_cast

__all__ = ["gather", "scatter", "scatter_add", "index_select", "masked_fill", "flip"]


# C type names PyTorch's messages use for some dtypes
_C_TYPE_NAMES = {
    "int64": "long int",
    "int32": "int",
    "float32": "float",
    "float64": "double",
    "uint8": "unsigned char",
    "int8": "signed char",
    "int16": "short int",
}


_register = _family_register("gather_scatter", saved=("dim",))


def _check_index(index: Tensor, what: str) -> np.ndarray:
    if not isinstance(index, Tensor) or index._dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError(f"{what}(): Expected dtype int32/int64 for index")
    return index._np.astype(np.int64, copy=False)


def _bounds(index: np.ndarray, size: int, what: str, dim: int) -> None:
    if index.size and (index.min() < -size or index.max() >= size):
        bad = int(index.max() if index.max() >= size else index.min())
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def _strict_bounds(index: np.ndarray, size: int, dim: int) -> None:
    """gather/scatter take positions in ``[0, size)``: unlike indexing, no counting from
    the end (PyTorch refuses -1 there)."""
    if index.size and (index.min() < 0 or index.max() >= size):
        bad = int(index.max() if index.max() >= size else index.min())
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def _check_scatter_shapes(input: Tensor, d: int, idx: np.ndarray, src) -> None:
    """PyTorch's shape rules of scatter*: an index of the rank of ``self`` (and of a tensor
    ``src``) and no larger than ``self`` apart from ``d``, nor than ``src`` anywhere (the
    values at ``idx`` are read from ``src``'s corner of that shape)."""
    if not idx.size:
        return
    shape = input._np.shape
    if idx.ndim != len(shape):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    source = src._np.shape if isinstance(src, Tensor) else None
    if source is not None and len(source) != idx.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    too_big = any(n > shape[i] for i, n in enumerate(idx.shape) if i != d)
    if source is not None and (too_big or any(n > m for n, m in zip(idx.shape, source))):
        raise RuntimeError(
            f"Expected index {list(idx.shape)} to be no larger than self {list(shape)} "
            f"apart from dimension {d} and to be no larger size than src {list(source)}"
        )
    if too_big:
        raise RuntimeError(
            f"Expected index {list(idx.shape)} to be no larger than self {list(shape)} "
            f"apart from dimension {d}"
        )


def _checked_scatter(name: str, input: Tensor, dim: int, index: Tensor, src):
    """scatter's and scatter_add's checks; then ``(dim, index array, copy of input)``."""
    _check_source_dtype(input, src)
    d = input._wrap_dim(dim)
    idx = _check_index(index, name)
    _check_scatter_shapes(input, d, idx, src)
    _strict_bounds(idx, input._np.shape[d], d)
    return d, idx, input._np.copy()


def _nonnegative(index: np.ndarray, size: int) -> np.ndarray:
    """Indices counted from the end (already bounds-checked) as plain positions."""
    return np.where(index < 0, index + size, index) if index.size and index.min() < 0 else index


@defop("gather", method=True, out=True)
def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """``out[i][j] = input[index[i][j]][j]`` along ``dim`` (an index of the same rank).

    Examples::

        >>> torch.gather(torch.tensor([[1, 2], [3, 4]]), 1, torch.tensor([[0, 0], [1, 0]]))
        tensor([[1, 1],
                [4, 3]])
    """
    d = input._wrap_dim(dim)
    idx = _check_index(index, "gather")
    if idx.ndim != input._np.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    _strict_bounds(idx, input._np.shape[d], d)
    for i, (n, size) in enumerate(zip(idx.shape, input._np.shape)):
        if i != d and n > size:
            raise RuntimeError(
                f"Size does not match at dimension {i} expected index "
                f"{list(idx.shape)} to be smaller than self "
                f"{list(input._np.shape)} apart from dimension {d}"
            )
    # the index may be smaller than the input in the other dims: only that corner is read
    corner = tuple(slice(None) if i == d else slice(0, n) for i, n in enumerate(idx.shape))
    idx = _nonnegative(idx, input._np.shape[d])
    array = _native.gather_along(input._np[corner], d, idx)
    if array is None:
        array = np.take_along_axis(input._np[corner], idx, axis=d)
    return record(
        GATHER, (input, index), Tensor._from_array(as_array(array, None, "C"), input._dtype), (d,)
    )


GATHER = _register("gather", gather, "gather(Tensor self, int dim, Tensor index) -> Tensor")


def _check_source_dtype(input: Tensor, src) -> None:
    if isinstance(src, Tensor) and src._dtype is not input._dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")


def _scatter_into(array: np.ndarray, d: int, idx: np.ndarray, src, accumulate):
    if np.ndim(src) != 0:
        src = src[tuple(slice(0, n) for n in idx.shape)]
    elif isinstance(array, np.ndarray) or not isinstance(src, (int, float, complex, np.generic)):
        src = np.broadcast_to(src, idx.shape)
    # else a number written into a device array broadcasts itself (a host array of it
    # would be an upload)
    if accumulate is True and _native.scatter_accumulate(
        array, d, _nonnegative(idx, array.shape[d]), as_array(src, array.dtype)
    ):
        return
    grid = list(array_module(idx).indices(idx.shape, sparse=True))  # on the index's device
    grid[d] = idx
    if accumulate == "multiply":
        np.multiply.at(array, tuple(grid), src)
    elif accumulate:
        np.add.at(array, tuple(grid), src)
    else:
        array[tuple(grid)] = src


@defop("scatter", method=True, inplace=True, out=True)
def scatter(input: Tensor, dim: int, index: Tensor, src=None, *, value=None, reduce=None) -> Tensor:
    """A copy of ``input`` with ``src`` (a tensor or a number) written at ``index`` along
    ``dim``: ``out[index[i][j]][j] = src[i][j]`` for ``dim=0``."""
    src = value if src is None else src
    if reduce not in (None, "add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    d, idx, array = _checked_scatter("scatter", input, dim, index, src)
    source = operand(src, input._dtype)
    accumulate = {"add": True, "multiply": "multiply"}.get(reduce, False)
    _scatter_into(array, d, idx, source, accumulate=accumulate)
    result = Tensor._from_array(array, input._dtype)
    if reduce is not None:
        # NOTE: no gradient for the reducing forms (PyTorch has none either)
        return result
    return record(SCATTER, (input, index, src), result, (d,))


SCATTER = _register(
    "scatter", scatter, "scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor"
)


@defop("scatter_add", method=True, inplace=True, out=True)
def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim`` (repeated
    indices accumulate).

    Examples::

        >>> torch.zeros(3).scatter_add(0, torch.tensor([0, 2, 0]), torch.tensor([1.0, 2.0, 3.0]))
        tensor([4., 0., 2.])
    """
    d, idx, array = _checked_scatter("scatter_add", input, dim, index, src)
    _scatter_into(array, d, idx, operand(src, input._dtype), accumulate=True)
    return record(SCATTER_ADD, (input, index, src), Tensor._from_array(array, input._dtype), (d,))


SCATTER_ADD = _register(
    "scatter_add",
    scatter_add,
    "scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
)


@defop("index_select", method=True, out=True)
def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The entries of ``input`` at the 1-D ``index`` along ``dim``."""
    d = input._wrap_dim(dim)
    if not isinstance(index, Tensor) or index._dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if index._np.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    idx = index._np.reshape(-1)
    if idx.size and (idx.min() < 0 or idx.max() >= input._np.shape[d]):
        raise IndexError("index out of range in self")
    from .._indexing import _index

    return _index(input, (slice(None),) * d + (idx,))


@defop("masked_fill", method=True, inplace=True)
def masked_fill(input: Tensor, mask: Tensor, value) -> Tensor:
    """A copy of ``input`` with ``value`` where ``mask`` (bool, broadcast) is true."""
    if not isinstance(mask, Tensor) or mask._dtype is not _dtype.bool_:
        got = (
            _C_TYPE_NAMES.get(mask._dtype.name, mask._dtype.name)
            if isinstance(mask, Tensor)
            else type(mask).__name__
        )
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {got}"
        )
    from .ternary import where

    if isinstance(value, Tensor) and value._np.ndim:
        raise RuntimeError(
            f"masked_fill_ only supports a 0-dimensional value tensor, but got "
            f"tensor with {value._np.ndim} dimension(s)."
        )
    filled = where(mask, value, input)
    if filled._dtype is not input._dtype:
        filled = filled.to(input._dtype)
    if not filled._np.flags.c_contiguous:
        filled = filled.contiguous()  # PyTorch fills a contiguous clone of ``input``
    if filled._np.shape != input._np.shape:
        raise RuntimeError(
            f"output with shape {list(input._np.shape)} doesn't match the "
            f"broadcast shape {list(filled._np.shape)}"
        )
    return filled


@defop("flip", method=True)
def flip(input: Tensor, *dims, **kwargs) -> Tensor:
    """A copy of ``input`` with the order of ``dims`` reversed (``torch.flip(x, dims)``,
    ``x.flip(*dims)``, or ``dims=`` by keyword)."""
    dims = dims_argument("flip", dims, kwargs)
    wrapped = tuple(input._wrap_dim(d) for d in dims)
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    axes = wrapped if input._np.ndim else ()  # (a 0-dim tensor's dim 0 is its element)
    array = as_array(np.flip(input._np, axes), None, "C")
    return record(FLIP, (input,), Tensor._from_array(array, input._dtype), (wrapped,))


FLIP = _register("flip", flip, "flip(Tensor self, int[] dims) -> Tensor", saved=("dims",))


def _inplace(function, name, fills=False):
    """``self.<name>(...)``: the out-of-place ``function`` written into ``self``.
    ``fills``: the op writes one value to the elements it touches, which PyTorch allows
    into an overlapping (expanded) ``self``."""
    check = check_inplace_fill if fills else check_inplace

    def method(self: Tensor, *args, **kwargs):
        recording = check(self, *args)
        result = function(self, *args, **kwargs)
        snapshot = _snapshot(self) if recording else None
        if result._dtype is not self._dtype and not can_cast(result._dtype, self._dtype):
            raise _cast_error(result._dtype, self)
        if result._np.shape != self._np.shape:
            raise _shape_error(self._np.shape, result._np.shape)
        self._np[...] = result._np
        self._bump_version()
        if recording:
            redo = function(snapshot, *args, **kwargs)
            adopt_history(self, redo)
        return self

    method.__name__ = name
    INPLACE[name] = method
    return method


scatter_ = _inplace(scatter, "scatter_")
scatter_add_ = _inplace(scatter_add, "scatter_add_")
masked_fill_ = _inplace(masked_fill, "masked_fill_", fills=True)
