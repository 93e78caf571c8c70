"""The LU factorisation's solvers and unpacking: ``lu_unpack``, ``lu_solve`` and
``torch.linalg.lu_solve``.

NOTE: composites of triangular solves and products (gradients follow from them).
"""

from __future__ import annotations

import numpy as np

import torch

from .._return_types import _structseq
from .._tensor import Tensor
from ._dispatch import defop

__all__ = ["lu_solve", "lu_unpack"]


_LuUnpack = _structseq("lu_unpack", ("P", "L", "U"))


@defop("lu_unpack")
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data=True, unpack_pivots=True):  # noqa: N803
    """``(P, L, U)`` from the compact factorisation of :func:`torch.linalg.lu_factor`."""
    from .linalg_extras import _permutation

    m, n = LU_data.shape[-2:]
    k = min(m, n)
    eye = torch.eye(m, k, dtype=LU_data.dtype)
    lower = torch.tril(LU_data[..., :, :k], -1) + eye
    upper = torch.triu(LU_data[..., :k, :])
    perm = _permutation(LU_pivots._np.astype(np.int64), m, LU_data._np.dtype)
    P = Tensor._from_array(np.ascontiguousarray(perm), LU_data._dtype)  # noqa: N806
    return _LuUnpack(P, lower, upper)


def _lu_solve(LU: Tensor, pivots: Tensor, B: Tensor) -> Tensor:  # noqa: N803
    from .linalg_extras import solve_triangular

    P, L, U = lu_unpack(LU, pivots)  # noqa: N806
    from .decompositions import _in_lapack_buffer

    y = solve_triangular(L, P.mT @ B, upper=False, unitriangular=True)
    x = solve_triangular(U, y, upper=True)
    return _in_lapack_buffer(x, x.shape[-2])  # column-major, as LAPACK leaves it


@defop("lu_solve")
def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:  # noqa: N803
    """The solution of ``A X = b`` from ``A``'s compact LU factorisation (the older
    argument order of ``torch.linalg.lu_solve``)."""
    return _lu_solve(LU_data, LU_pivots, b)


def linalg_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left=True, adjoint=False):  # noqa: N803
    """The solution of ``A X = B`` (``X A = B`` unless ``left``; with ``adjoint``, of
    ``A^H``) from ``A``'s compact LU factorisation."""
    if adjoint or not left:
        P, L, U = lu_unpack(LU, pivots)  # noqa: N806
        A = P @ L @ U  # noqa: N806
        A = A.mT.conj() if adjoint else A  # noqa: N806
        return torch.linalg.solve(A, B, left=left)
    return _lu_solve(LU, pivots, B)


linalg_lu_solve.__name__ = "lu_solve"
