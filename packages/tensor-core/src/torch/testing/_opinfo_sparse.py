"""Op-database entries of the sparse COO ops. Each entry goes dense -> sparse -> dense
(or reads the values), so its NumPy reference is plain array math and the autograd
tests check gradients through the values and the dense operands."""

from __future__ import annotations

import numpy as np

import torch

from ._opinfo_base import OpInfo, SampleInput, _make

__all__ = ["SPARSE_OPS"]

# column k of _INDICES is where value k goes in a 3 x 4 tensor; (1, 2) appears twice
_INDICES = [[0, 1, 2, 1, 0], [3, 2, 0, 2, 1]]
_SHAPE = (3, 4)


def _scatter_ref(values):
    dense = np.zeros(_SHAPE + values.shape[1:], dtype=values.dtype)
    np.add.at(dense, tuple(np.array(_INDICES)), values)
    return dense


def _coalesced_values_ref(values):
    flat = np.ravel_multi_index(tuple(np.array(_INDICES)), _SHAPE)
    unique, inverse = np.unique(flat, return_inverse=True)
    summed = np.zeros((unique.size,) + values.shape[1:], dtype=values.dtype)
    np.add.at(summed, inverse.reshape(-1), values)
    return summed


def _values_samples(dtype):
    return [SampleInput((_make((5,), dtype, 1),)), SampleInput((_make((5, 2), dtype, 2),))]


def _sparse(values):
    indices = torch.tensor(_INDICES)  # on the values' device in the CUDA device tests
    return torch.sparse_coo_tensor(indices, values, _SHAPE + tuple(values.shape[1:]))


def _dense_samples(dtype):
    # no zeros: finite differences would see the positions to_sparse leaves out (the
    # golden tests of test_sparse.py cover those)
    return [
        SampleInput((_make((3, 4), dtype, 3),), (None,)),
        SampleInput((_make((2, 3, 2), dtype, 4),), (1,)),
        SampleInput((_make((2, 3), dtype, 5),), (0,)),
    ]


def _matrix_samples(dtype):
    return [SampleInput((_make((5,), dtype, 6), _make((4, 2), dtype, 7)))]


def _sum_samples(dtype):
    return [
        SampleInput((_make((5,), dtype, 8),), (None,)),
        SampleInput((_make((5,), dtype, 9),), (0,)),
        SampleInput((_make((5, 2), dtype, 10),), ((1, 2),)),
    ]


def _sum_ref(values, dim):
    dense = _scatter_ref(values)
    return dense.sum() if dim is None else dense.sum(dim)


def _sum_op(values, dim):
    result = torch.sparse.sum(_sparse(values), dim)
    return result.to_dense() if result.is_sparse else result


SPARSE_OPS = [
    OpInfo("sparse_coo_tensor", lambda v: _sparse(v).to_dense(), _scatter_ref, _values_samples),
    OpInfo("to_dense", lambda v: _sparse(v).to_dense(), _scatter_ref, _values_samples),
    OpInfo(
        "coalesce", lambda v: _sparse(v).coalesce().values(), _coalesced_values_ref, _values_samples
    ),
    OpInfo(
        "to_sparse",
        lambda x, sparse_dim: x.to_sparse(sparse_dim).to_dense(),
        lambda a, sparse_dim: a,
        _dense_samples,
    ),
    OpInfo(
        "sparse_mm",
        lambda v, m: torch.sparse.mm(_sparse(v), m),
        lambda v, m: _scatter_ref(v) @ m,
        _matrix_samples,
    ),
    OpInfo("sparse_sum", _sum_op, _sum_ref, _sum_samples),
]
