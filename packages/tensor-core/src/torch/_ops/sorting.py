"""Sorting and searching: ``sort``, ``argsort``, ``topk``, ``unique``, ``nonzero``,
``masked_select``, ``take``, ``searchsorted``, ``bucketize``, ``bincount``, ``histc``.
The ops that return values do so through ``gather``, which carries their gradients."""

from __future__ import annotations

import numpy as np

from .. import _dtype, _return_types
from .._interface import OpDef
from .._tensor import Tensor
from ._dispatch import as_array, defop, kernel_refusal, record, refuse_complex, result_type
from .gather_scatter import gather

__all__ = [
    "sort",
    "argsort",
    "topk",
    "unique",
    "nonzero",
    "argwhere",
    "masked_select",
    "take",
    "searchsorted",
    "bucketize",
    "bincount",
    "histc",
    "isin",
]

_SORT_REFUSES_COMPLEX = (RuntimeError, " Sort does not support complex dtypes on CPU")


def _long(array) -> Tensor:
    return Tensor._from_array(as_array(array, np.int64, "C"), _dtype.int64)


def _order(array: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """A stable order along ``axis``; NaN counts as the largest value, as in PyTorch."""
    if not descending:
        return np.argsort(array, axis=axis, kind="stable")  # NumPy puts NaN last too
    # stable descending: sort the reversed data ascending, then map back and reverse
    size = array.shape[axis]
    flipped = np.flip(array, axis)
    if array.dtype.kind == "f":
        nan = np.isnan(flipped)
        order = np.lexsort((np.where(nan, 0, flipped), nan), axis=axis)
    else:
        order = np.argsort(flipped, axis=axis, kind="stable")
    return size - 1 - np.flip(order, axis)


@defop("sort", method=True, out=True, refuses_complex=_SORT_REFUSES_COMPLEX)
def sort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False):
    """``(values, indices)`` sorted along ``dim`` (stable).

    Examples::

        >>> torch.sort(torch.tensor([3, 1, 2]))
        torch.return_types.sort(
        values=tensor([1, 2, 3]),
        indices=tensor([1, 2, 0]))
    """
    if input._np.ndim == 0:
        return _return_types.sort(input.clone(), _long(0))
    d = input._wrap_dim(dim)
    indices = _long(_order(input._np, d, descending))
    return _return_types.sort(gather(input, d, indices), indices)


@defop("argsort", method=True, out=True, refuses_complex=_SORT_REFUSES_COMPLEX)
def argsort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False):
    """The indices that sort ``input`` along ``dim``."""
    return sort(input, dim, descending).indices


@defop(
    "topk",
    method=True,
    out=True,
    refuses_complex=(RuntimeError, " topk does not support complex dtypes on CPU"),
)
def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    """The ``k`` largest (or smallest) entries along ``dim`` and their indices."""
    d = input._wrap_dim(dim) if input._np.ndim else 0
    size = input._np.shape[d] if input._np.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if input._np.ndim == 0:
        return _return_types.topk(input.clone(), _long(0))
    order = _order(input._np, d, largest)
    indices = _long(np.take(order, np.arange(k), axis=d))
    return _return_types.topk(gather(input, d, indices), indices)


def _unique_flat(array: np.ndarray):
    """``np.unique`` of the flattened array where every NaN is its own value (as in
    PyTorch; NumPy >= 1.21 merges them)."""
    flat = array.reshape(-1)
    order = np.argsort(flat, kind="stable")
    ordered = flat[order]
    starts = np.ones(flat.size, dtype=bool)
    if flat.size:
        same = ordered[1:] == ordered[:-1]  # NaN != NaN: each NaN starts a new value
        starts[1:] = ~same
    group = np.cumsum(starts) - 1
    inverse = np.empty(flat.size, dtype=np.int64)
    inverse[order] = group
    counts = np.diff(np.append(np.flatnonzero(starts), flat.size))
    return ordered[starts], inverse, counts


@defop("unique", method=True, refuses_complex=kernel_refusal("unique"))
def unique(
    input: Tensor,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim=None,
):
    """The distinct elements (sorted), with the inverse mapping and/or counts if asked."""
    if dim is not None:
        values, inverse, counts = np.unique(
            input._np, return_inverse=True, return_counts=True, axis=input._wrap_dim(dim)
        )
    else:
        values, inverse, counts = _unique_flat(input._np)
        inverse = inverse.reshape(input._np.shape)
    result = [Tensor._from_array(as_array(values, None, "C"), input._dtype)]
    record(UNIQUE if dim is None else UNIQUE_DIM, (input,), result[0])
    if return_inverse:
        result.append(_long(inverse))
    if return_counts:
        result.append(_long(counts))
    return result[0] if len(result) == 1 else tuple(result)


@defop("nonzero", method=True, out=True)
def nonzero(input: Tensor, *, as_tuple: bool = False):
    """Indices of the nonzero elements: an (N, ndim) tensor, or one index tensor per dim."""
    if as_tuple:
        if input._np.ndim == 0:
            return (_long(np.nonzero(input._np.reshape(1))[0]),)
        rows = _long(np.array(np.nonzero(input._np)))
        return tuple(rows[i] for i in range(rows.shape[0]))
    # PyTorch fills the (N, ndim) result column by column: it is the transpose of a
    # contiguous (ndim, N) tensor
    if input._np.ndim == 0:
        return _long(np.zeros((int(bool(input._np)), 0)))
    return _long(np.array(np.nonzero(input._np))).t()


argwhere = nonzero
defop("argwhere", argwhere, method=True)  # an alias without out=


@defop("masked_select", method=True, out=True)
def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """The elements where ``mask`` (bool, broadcast with ``input``) holds, as 1-D."""
    if mask._dtype is not _dtype.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    from .shape_ops import broadcast_tensors

    values, full_mask = broadcast_tensors(input, mask)
    return values[full_mask]


@defop("take", method=True, out=True)
def take(input: Tensor, index: Tensor) -> Tensor:
    """Elements of the flattened ``input`` at ``index`` (shaped like ``index``)."""
    if isinstance(index, Tensor) and index._dtype is not _dtype.int64:
        raise RuntimeError(
            f"take(): Expected a long tensor for index, but got {index._dtype._legacy[:-6]}"
        )
    size = input._np.size
    idx = index._np
    if idx.size and (idx.min() < -size or idx.max() >= size):
        bad = int(idx.max() if idx.max() >= size else idx.min())
        raise IndexError(
            f"out of range: tried to access index {bad} on a tensor of {size} elements."
        )
    return input.reshape(-1)[index]


# the dtype both operands promote to decides (sorted_sequence or values complex)
@defop("searchsorted", out=True, refuses_complex={"": kernel_refusal("searchsorted_out_cpu")})
def searchsorted(
    sorted_sequence: Tensor,
    input,
    *,
    out_int32: bool = False,
    right: bool = False,
    side=None,
    sorter=None,
) -> Tensor:
    """Where ``input``'s values would be inserted into the sorted last dim of
    ``sorted_sequence`` to keep it sorted."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(
                f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}"
            )
        if right and side == "left":
            raise RuntimeError(
                "torch.searchsorted(): side and right can't be set to opposites, got side of "
                "left while right was True"
            )
        right = side == "right"
    values = input._np if isinstance(input, Tensor) else as_array(input)
    boundaries = sorted_sequence._np
    if sorter is not None:
        if sorter._np.shape != boundaries.shape:
            raise RuntimeError(
                "torch.searchsorted(): boundary and sorter must have the same size, but got "
                f"boundary tensor {list(boundaries.shape)}and got sorter tensor "
                f"{list(sorter._np.shape)}"
            )
        if sorter._dtype is not _dtype.int64:
            raise RuntimeError(
                "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
                f"{sorter._dtype._legacy[:-6]}"
            )
        boundaries = np.take_along_axis(boundaries, sorter._np.astype(np.int64), axis=-1)
    if values.ndim == 0 and boundaries.ndim != 1:
        raise RuntimeError(
            "torch.searchsorted(): input value can be a scalar only when boundaries tensor "
            f"dimension is 1, but we got boundaries tensor dim({boundaries.ndim}) and input "
            f"value's dim(0) numel(1)"
        )
    if boundaries.ndim == 0:
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should have positive dimension, but got "
            "0 dimension"
        )
    if boundaries.ndim > 1 and (
        values.ndim != boundaries.ndim or values.shape[:-1] != boundaries.shape[:-1]
    ):
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {list(boundaries.shape)} and input value tensor "
            f"{list(values.shape)}"
        )
    if values.size:  # PyTorch returns an empty result before dispatching on the dtype
        refuse_complex("searchsorted", result_type(sorted_sequence, input))
    how = "right" if right else "left"
    if boundaries.ndim == 1:
        result = np.searchsorted(boundaries, values, side=how)
    else:
        rows = boundaries.reshape(-1, boundaries.shape[-1])
        queries = values.reshape(rows.shape[0], -1)
        result = np.stack([np.searchsorted(r, q, side=how) for r, q in zip(rows, queries)])
        result = result.reshape(values.shape)
    dtype = _dtype.int32 if out_int32 else _dtype.int64
    return Tensor._from_array(as_array(result, dtype.np_dtype), dtype)


@defop("bucketize", out=True)
def bucketize(input, boundaries: Tensor, *, out_int32: bool = False, right: bool = False):
    """The bucket of each value among 1-D ``boundaries``."""
    if boundaries._np.ndim != 1:
        raise RuntimeError(
            f"boundaries tensor must be 1 dimension, but got dim({boundaries._np.ndim})"
        )
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


@defop("bincount", method=True)
def bincount(input: Tensor, weights=None, minlength: int = 0) -> Tensor:
    """Counts of each non-negative integer in 1-D ``input`` (weighted if asked)."""
    if input._dtype.is_floating_point or input._dtype.is_complex:
        name = input._dtype._legacy[:-6]
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{name}'")
    if input._np.ndim != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if input._np.size and input._np.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None and (weights._np.ndim != 1 or weights._np.size != input._np.size):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    w = None if weights is None else weights._np
    counts = np.bincount(input._np, weights=w, minlength=minlength)
    if weights is None or not input._np.size:  # PyTorch: int64 counts for no input
        return _long(counts.astype(np.int64))
    dtype = weights._dtype if weights._dtype.is_floating_point else _dtype.float64
    result = Tensor._from_array(as_array(counts, dtype.np_dtype), dtype)
    return record(BINCOUNT, (weights,), result)


# NOTE: not in the op registry (no op-database entries): recorded for autograd only, as
# PyTorch records them (their backward raises)
UNIQUE, UNIQUE_DIM, BINCOUNT = (
    OpDef(name=name, signature=signature, kernels={}, family="sorting")
    for name, signature in (
        (
            "_unique2",
            "_unique2(Tensor self, bool sorted=True, bool return_inverse=False, "
            "bool return_counts=False) -> (Tensor, Tensor, Tensor)",
        ),
        (
            "unique_dim",
            "unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, "
            "bool return_counts=False) -> (Tensor, Tensor, Tensor)",
        ),
        ("bincount", "bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor"),
    )
)


@defop("histc", method=True, out=True, refuses_complex=kernel_refusal("aminmax_cpu"))
def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:  # noqa: A002
    """A histogram of ``bins`` equal bins over [min, max] (the data's range when both
    are 0); values outside are ignored."""
    if not input._dtype.is_floating_point:
        name = input._dtype._legacy[:-6]
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{name}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    array = input._np.astype(np.float64)
    low, high = float(min), float(max)
    if low == high == 0 and array.size:
        low, high = float(array.min()), float(array.max())
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{low:g}, {high:g}] is not finite")
    if low == high:
        low, high = low - 1, high + 1
    if low > high:
        raise RuntimeError("torch.histc: max must be larger than min")
    counts, _ = np.histogram(array, bins=bins, range=(low, high))
    return Tensor._from_array(counts.astype(input._dtype.np_dtype), input._dtype)


@defop("isin")
def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False):
    """Whether each of ``elements`` is among ``test_elements`` (either may be a number)."""
    values = elements._np if isinstance(elements, Tensor) else as_array(elements)
    tests = test_elements._np if isinstance(test_elements, Tensor) else as_array(test_elements)
    found = np.isin(values, tests, invert=invert)
    return Tensor._from_array(as_array(found, bool), _dtype.bool_)
