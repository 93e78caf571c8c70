"""The native accumulation and gathering along a dimension (csrc/indexing.cpp) against
their NumPy references (np.add.at, np.take_along_axis)."""

import numpy as np
import pytest

from torch import _C, _native

DTYPES = [np.float32, np.float64, np.int64, np.int32]
# (shape, dim): small ones run on one thread, the last two split outer slices or columns
SHAPES = [((5,), 0), ((4, 7), 0), ((4, 7), 1), ((3, 5, 6), 1), ((300, 2, 500), 2),
          ((2, 1000, 300), 1)]  # fmt: skip


def _data(rng, shape, dtype):
    return rng.integers(-5, 5, shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,dim", SHAPES)
def test_index_accumulate_matches_add_at(shape, dim, dtype):
    rng = np.random.default_rng(0)
    out = _data(rng, shape, dtype)
    expected = out.copy()
    index = rng.integers(0, shape[dim], 9)  # repeats accumulate
    src_shape = list(shape)
    src_shape[dim] = 9
    src = _data(rng, src_shape, dtype)
    assert _native.index_accumulate(out, dim, index, src, 2)
    where = [slice(None)] * len(shape)
    where[dim] = index
    np.add.at(expected, tuple(where), 2 * src)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,dim", SHAPES)
def test_scatter_accumulate_and_gather_match_numpy(shape, dim, dtype):
    rng = np.random.default_rng(1)
    index_shape = list(shape)
    index_shape[dim] = 4
    index = rng.integers(0, shape[dim], index_shape)
    src = _data(rng, index_shape, dtype)
    out = _data(rng, shape, dtype)
    expected = out.copy()
    assert _native.scatter_accumulate(out, dim, index, src)
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    np.add.at(expected, tuple(grid), src)
    np.testing.assert_array_equal(out, expected)
    gathered = _native.gather_along(expected, dim, index)
    np.testing.assert_array_equal(gathered, np.take_along_axis(expected, index, dim))


def test_indexing_kernels_refuse_bad_input():
    out = np.zeros((3, 2, 1), np.float32)
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension with size 2"):
        _C.index_accumulate(out, np.array([3]), np.zeros((3, 1, 1), np.float32))
    with pytest.raises(IndexError, match="index -1"):
        _C.gather_along(out, np.full((3, 1, 1), -1))
    with pytest.raises(ValueError, match="source must be"):
        _C.index_accumulate(out, np.array([0]), np.zeros((3, 2, 1), np.float32))
    with pytest.raises(TypeError, match="int64"):
        _C.index_accumulate(out, np.array([0], np.int32), np.zeros((3, 1, 1), np.float32))
    with pytest.raises(TypeError, match="dtype"):
        _C.scatter_accumulate(out.astype(np.float16), np.zeros((3, 1, 1), np.int64),
                              np.zeros((3, 1, 1), np.float16))  # fmt: skip
    readonly = np.zeros((3, 2, 1), np.float32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _C.scatter_accumulate(readonly, np.zeros((3, 1, 1), np.int64),
                              np.zeros((3, 1, 1), np.float32))  # fmt: skip
    # not applicable: the callers fall back to NumPy
    assert _native.index_accumulate(np.zeros(3, np.float16), 0, np.array([0]),
                                    np.zeros(1, np.float16)) is False  # fmt: skip
    assert _native.gather_along(np.zeros((2, 3)), 0, np.zeros((1, 2), np.int64)) is None
