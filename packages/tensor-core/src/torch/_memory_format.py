"""PyTorch's memory formats on strided tensors (c10's TensorImpl flags and ATen's
``empty_like``/``clone``/``_to_copy`` stride rules), in element strides.

- ``format_strides``: the strides ``torch.empty(..., memory_format=)`` gives
  (``contiguous_format``, ``channels_last`` for 4-D, ``channels_last_3d`` for 5-D);
- ``is_contiguous_as``: ``Tensor.is_contiguous(memory_format=)`` (size-1 dims skipped);
- ``preserve_strides``: ``preserve_format``'s strides (a non-overlapping and dense
  input's own strides, else ``infer_dense_strides``: the input's dim order, dense);
- ``suggest_memory_format``: the format PyTorch reads off the strides (``to`` uses it
  to decide whether it can return ``self``);
- ``empty_array``: a NumPy array with exactly the given strides (PyTorch's strides of
  size-0 and size-1 dims included, which NumPy's own allocation would not give).
"""

from __future__ import annotations

import numpy as np

from ._layout import memory_format
from ._native import all_c_contiguous

__all__ = [
    "format_name",
    "format_strides",
    "is_contiguous_as",
    "non_overlapping_and_dense",
    "preserve_strides",
    "suggest_memory_format",
    "empty_array",
    "strides_of",
]

_RANK = {"channels_last": 4, "channels_last_3d": 5}


def format_name(value, function: str, default: str = "preserve_format") -> str:
    """The name of ``value`` (a ``torch.memory_format`` or None for ``default``); other
    values raise PyTorch's argument TypeError."""
    if value is None:
        return default
    if not isinstance(value, memory_format):
        raise TypeError(
            f"{function}(): argument 'memory_format' must be torch.memory_format, not "
            f"{type(value).__name__}"
        )
    return value.name


def strides_of(array: np.ndarray) -> tuple:
    itemsize = array.itemsize
    return tuple(s // itemsize for s in array.strides)


def contiguous_strides(shape) -> tuple:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def format_strides(shape, name: str) -> tuple:
    """``empty_tensor_restride``: strides for a new tensor of ``shape`` in format ``name``."""
    shape = tuple(shape)
    if name == "contiguous_format":
        return contiguous_strides(shape)
    if name == "preserve_format":
        raise RuntimeError("unsupported memory format Preserve")
    rank = _RANK[name]
    if len(shape) != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {name} format")
    # get_channels_last_strides_2d/3d: C fastest, then the spatial dims right to left, N
    # (no max(size, 1) here, unlike the contiguous strides)
    strides = [0] * rank
    strides[1] = 1
    step = shape[1]
    for d in (*range(rank - 1, 1, -1), 0):
        strides[d] = step
        step *= shape[d]
    return tuple(strides)


def _dims_in_order(rank: int) -> tuple:
    return (1, *range(rank - 1, 1, -1), 0)


def is_contiguous_as(shape, strides, name: str) -> bool:
    """``is_contiguous(memory_format=name)``: the channels-last checks are False for
    other ranks; size-1 dims may have any stride."""
    if name in ("contiguous_format", "preserve_format"):
        return _is_contiguous(shape, strides)
    if len(shape) != _RANK[name]:
        return False
    expected = 1
    for d in _dims_in_order(len(shape)):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def _is_contiguous(shape, strides) -> bool:
    if 0 in shape:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def non_overlapping_and_dense(shape, strides) -> bool:
    """c10's ``compute_non_overlapping_and_dense`` (or either contiguity)."""
    if _is_contiguous(shape, strides) or is_contiguous_as(shape, strides, "channels_last"):
        return True
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    perm = sorted(
        range(len(shape)), key=lambda d: (shape[d] < 2, strides[d] if shape[d] >= 2 else 0)
    )
    required = 1
    for d in perm:
        if shape[d] < 2:
            return True
        if strides[d] != required:
            return False
        required *= shape[d]
    return True


def _dim_order(ndim: int, should_swap) -> list:
    """TensorIterator's stable insertion sort of the dims, innermost first: starting from
    the reversed dims, ``should_swap(d0, d1)`` > 0 moves d1 inside d0, < 0 stops."""
    perm = list(range(ndim - 1, -1, -1))
    for i in range(1, ndim):
        dim1 = i
        for j in range(1, i + 1):
            dim0 = i - j
            comparison = should_swap(perm[dim0], perm[dim1])
            if comparison > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    return perm


def infer_dense_strides(shape, strides) -> tuple:
    """ATen's ``infer_dense_strides``: dense strides in the dim order of ``strides``
    (TensorIterator's stable insertion sort; 0 strides keep their place)."""
    ndim = len(shape)
    if ndim == 0:
        return ()
    if ndim == 1:
        return (1,)

    def should_swap(d0: int, d1: int) -> int:
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 < s1:
            return -1
        if s0 > s1:
            return 1
        return 1 if shape[d0] > shape[d1] else 0

    perm = _dim_order(ndim, should_swap)
    out = [0] * ndim
    step = 1
    for d in perm:
        out[d] = step
        if shape[d] > 1:
            step *= shape[d]
    return tuple(out)


def preserve_strides(shape, strides) -> tuple:
    """``preserve_format`` on a strided CPU tensor (``empty_like``, ``clone``, ``to``)."""
    shape, strides = tuple(shape), tuple(strides)
    if non_overlapping_and_dense(shape, strides):
        return strides
    return infer_dense_strides(shape, strides)


def _strides_like_channels_last(shape, strides) -> bool:
    """c10's ``is_channels_last_strides_2d_s4`` / ``_3d_s5``."""
    rank = len(shape)
    if rank not in _RANK.values() or strides[1] == 0:
        return False
    low = 0
    for d in _dims_in_order(rank):
        if shape[d] == 0 or strides[d] < low:
            return False
        if d == 0 and low == strides[1]:
            return False
        low = strides[d]
        if shape[d] > 1:
            low *= shape[d]
    return True


def suggest_memory_format(shape, strides) -> str:
    if _strides_like_channels_last(shape, strides):
        return "channels_last" if len(shape) == 4 else "channels_last_3d"
    return "contiguous_format"


def target_strides(shape, strides, name: str) -> tuple:
    """The strides of a copy of a tensor (``shape``, ``strides``) made in format ``name``."""
    if name == "preserve_format":
        return preserve_strides(shape, strides)
    return format_strides(shape, name)


def empty_array(shape, strides, np_dtype) -> np.ndarray:
    """An uninitialised NumPy array with exactly these element strides (dense ones)."""
    shape, strides = tuple(shape), tuple(strides)
    dtype = np.dtype(np_dtype)
    if strides == contiguous_strides(shape) and 0 not in shape:
        return np.empty(shape, dtype)
    extent = 0 if 0 in shape else sum((n - 1) * s for n, s in zip(shape, strides)) + 1
    flat = np.empty(extent, dtype)
    from ._tensor import restrided  # _tensor imports this module

    return restrided(flat, shape, tuple(s * dtype.itemsize for s in strides), writeable=True)


def iterator_strides(shape, operands) -> tuple:
    """The strides TensorIterator gives the output of a pointwise op on ``operands``
    (NumPy arrays, or anything else for a wrapped Python scalar): the fast setups (all
    contiguous, all channels-last contiguous, all non-overlapping and dense with equal
    strides), else the inputs' dim order (the first input whose strides tell two dims
    apart decides; broadcast dims are ambiguous)."""
    shape = tuple(shape)
    ndim = len(shape)
    arrays = [o for o in operands if isinstance(o, np.ndarray)]
    infos = [(a.shape, strides_of(a)) for a in arrays]
    if len(arrays) == len(operands) and all(s == shape for s, _ in infos):
        if all(_is_contiguous(s, st) for s, st in infos):
            return contiguous_strides(shape)
        if all(is_contiguous_as(s, st, "channels_last") for s, st in infos):
            return format_strides(shape, "channels_last")
        if all(non_overlapping_and_dense(s, st) for s, st in infos):
            if all(st == infos[0][1] for _, st in infos):
                return infos[0][1]
    broadcast = []
    for s, st in infos:
        lead = ndim - len(s)
        broadcast.append(
            [0] * lead
            + [0 if n == 1 and shape[lead + i] != 1 else t for i, (n, t) in enumerate(zip(s, st))]
        )

    def should_swap(d0: int, d1: int) -> int:
        for st in broadcast:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = _dim_order(ndim, should_swap)
    if perm == list(range(ndim - 1, -1, -1)):
        return contiguous_strides(shape)
    out = [0] * ndim
    step = 1
    for d in perm:
        out[d] = step
        step *= shape[d]
    return tuple(out)


def pointwise_layout(result: np.ndarray, operands):
    """``result`` (a pointwise op's NumPy result on ``operands``) laid out as PyTorch's
    TensorIterator lays out the output, and whether it had to be moved (then wrap it
    with ``make``, which keeps strides exactly). Values are unchanged; results whose
    tensor inputs are all C-contiguous (the common case) are returned as they are."""
    if result.ndim < 2 or result.size == 0 or all_c_contiguous(*operands):
        return result, False
    strides = iterator_strides(result.shape, operands)
    if strides == strides_of(result):
        return result, False
    out = empty_array(result.shape, strides, result.dtype)
    out[...] = result
    return out, True
