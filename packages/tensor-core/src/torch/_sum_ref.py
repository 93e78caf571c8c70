"""The order in which PyTorch's CPU kernel adds up a contiguous float32/float64 array
(its "cascade sum"), in NumPy: the reference for a native kernel that would give
bit-identical sums, and the oracle of its tests. Too slow for the hot path (tens of
microseconds for what ``np.add.reduce`` does in one), so ``torch.sum`` does not call it.

PyTorch splits the array into 32-byte vectors (8 float32 or 4 float64 lanes). The
vectors are read four at a time (four independent accumulators); the accumulators sum
16 rows of four vectors at a time into a first level, whose subtotals are added into a
second level every 16 rows, and so on up to four levels, every addition in the input's
precision. At the end the levels, the left-over vectors, the four accumulators, the
elements after the last whole vector and finally the lanes are added in that order.
Arrays shorter than one vector take the same path with scalars in place of vectors.
The multi-threaded split of arrays above 32768 elements is not modelled.
"""

from __future__ import annotations

import numpy as np

__all__ = ["cascade_sum", "VECTOR_BYTES"]

VECTOR_BYTES = 32  # one AVX2 register: the vector width of PyTorch's reduction kernels
_ILP = 4  # independent accumulators
_LEVELS = 4
_MAX_ROWS_AT_STEP_16 = 1 << 20  # the level step grows only for longer arrays


def _sequential(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """Left-to-right sums along ``axis`` (``np.add.accumulate`` never pairs terms)."""
    return np.add.accumulate(values, axis=axis).take(-1, axis=axis)


def _from_zero(values: np.ndarray) -> np.ndarray:
    """``0 + v[0] + v[1] + ...`` along axis 0; zeros when there is nothing to add."""
    if values.shape[0] == 0:
        return np.zeros(values.shape[1:], values.dtype)
    return _sequential(values)


def _blocks(values: np.ndarray, step: int) -> tuple[np.ndarray, np.ndarray]:
    """Sums of whole blocks of ``step`` entries, and the entries after the last block."""
    whole = values.shape[0] // step
    body = values[: whole * step].reshape((whole, step) + values.shape[1:])
    sums = _sequential(body, axis=1) if whole else values[:0]
    return sums, values[whole * step :]


def _levels(rows: np.ndarray) -> np.ndarray:
    """The four accumulators of the multi-level cascade over ``rows`` (n, 4, lanes)."""
    if rows.shape[0] >= _MAX_ROWS_AT_STEP_16:
        raise NotImplementedError("cascade_sum: arrays this long use a longer level step")
    step = 16
    sums, rest = _blocks(rows, step)
    totals = [_from_zero(rest)]
    for _ in range(_LEVELS - 2):  # levels 1 and 2 pass their total on every 16 entries
        sums, rest = _blocks(sums, step)
        totals.append(_from_zero(rest))
    totals.append(_from_zero(sums))  # the top level keeps everything
    return _sequential(np.stack(totals))


def _row_sum(items: np.ndarray) -> np.ndarray:
    """Four accumulators over ``items`` (scalars or vectors), then reduced to one."""
    rows = items.shape[0] // _ILP
    partial = _levels(items[: rows * _ILP].reshape((rows, _ILP) + items.shape[1:]))
    return _sequential(np.concatenate([partial[:1], items[rows * _ILP :], partial[1:]]))


def cascade_sum(array: np.ndarray):
    """The sum of a float32 or float64 array as PyTorch's CPU kernel computes it (up to
    32768 elements; C order), as a NumPy scalar of the array's dtype.

    Examples::

        >>> import numpy as np
        >>> from torch._sum_ref import cascade_sum
        >>> x = np.full(1000, 0.1, dtype=np.float32)
        >>> float(cascade_sum(x)), float(np.add.reduce(x))
        (100.00000762939453, 100.00001525878906)
    """
    flat = np.ravel(array)
    if flat.dtype not in (np.float32, np.float64):
        raise TypeError(f"cascade_sum: expected float32 or float64, got {flat.dtype}")
    lanes = VECTOR_BYTES // flat.itemsize
    if flat.size < lanes:
        return _row_sum(flat)
    vectors = flat.size // lanes
    accumulated = _row_sum(flat[: vectors * lanes].reshape(vectors, lanes))
    zero = np.zeros(1, flat.dtype)
    return _sequential(np.concatenate([zero, flat[vectors * lanes :], accumulated]))
