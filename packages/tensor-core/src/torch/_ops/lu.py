"""The LU factorisation: ``torch.linalg.lu_factor``/``lu_factor_ex``/``lu``, the legacy
``torch.lu``, and its solvers and unpacking: ``lu_unpack``, ``lu_solve`` and
``torch.linalg.lu_solve``.

NOTE: the factorisation is computed in NumPy and recorded as its own ops (``_lu``,
``_lu_factor``, decompositions ops with derivative entries); the solvers are composites
of triangular solves and products (gradients follow from them).
"""

from __future__ import annotations

import numpy as np

import torch

from .. import _dtype
from .._return_types import _structseq
from .._tensor import Tensor
from . import decompositions as _dec
from ._dispatch import as_array, contiguous, defop

__all__ = ["lu", "lu_solve", "lu_unpack"]


def _int32(array) -> Tensor:
    return Tensor._from_array(as_array(array, np.int32, "C"), _dtype.int32)


# ------------------------------------------------------------------------------- LU


def _lu_numpy(a: np.ndarray, pivot: bool = True):
    """LU with partial pivoting of a batch of matrices, column by column (vectorised
    over the batch): ``(LU, pivots (1-based), info)`` as LAPACK's getrf gives them."""
    lu = a.astype(np.result_type(a.dtype, np.float32), copy=True)  # on a's device
    *batch, m, n = lu.shape
    flat = lu.reshape(-1, m, n)
    k = min(m, n)
    pivots = np.tile(np.arange(1, k + 1, dtype=np.int32, like=a), (flat.shape[0], 1))
    info = np.zeros(flat.shape[0], dtype=np.int32, like=a)
    rows = np.arange(flat.shape[0], like=a)
    for j in range(k):
        if pivot:
            p = j + np.argmax(np.abs(flat[:, j:, j]), axis=1)
            pivots[:, j] = p + 1
            swap = flat[rows, p].copy()
            flat[rows, p] = flat[:, j]
            flat[:, j] = swap
        diag = flat[:, j, j]
        zero = diag == 0
        info = np.where(zero & (info == 0), j + 1, info)
        safe = np.where(zero, 1, diag)
        flat[:, j + 1 :, j] /= safe[:, None]
        flat[:, j + 1 :, j + 1 :] -= flat[:, j + 1 :, j, None] * flat[:, j, None, j + 1 :]
    return (
        flat.reshape(lu.shape),
        pivots.reshape(*batch, k),
        info.reshape(tuple(batch)),
    )


def _check_lu_input(name: str, A: Tensor) -> None:
    if A.dim() < 2:
        raise RuntimeError(
            f"torch.linalg.{name}: Expected tensor with 2 or more dimensions. Got size: "
            f"{list(A.shape)} instead"
        )
    _dec._check_float(name, A)


_LU_FACTOR = _structseq("linalg_lu_factor", ("LU", "pivots"))
_LU_FACTOR_EX = _structseq("linalg_lu_factor_ex", ("LU", "pivots", "info"))
_LU = _structseq("linalg_lu", ("P", "L", "U"))
_LU_WITH_INFO = _structseq("_lu_with_info", ("LU", "pivots", "info"))


def lu_factor(A: Tensor, *, pivot: bool = True):
    """The compact LU factorisation ``(LU, pivots)`` with partial pivoting (LAPACK's
    layout: L below the diagonal with implicit ones, U on and above; 1-based pivots)."""
    _check_lu_input("lu_factor", A)
    lu_array, pivots, info = _lu_numpy(A._np, pivot)
    if np.any(info):
        first = int(info.reshape(-1)[np.flatnonzero(info.reshape(-1))[0]])
        raise _dec.LinAlgError(
            f"torch.linalg.lu_factor: U[{first},{first}] is zero and using it on lu_solve "
            "would result in a division by zero. If you still want to perform the "
            "factorization, consider calling linalg.lu(A, pivot) or "
            "linalg.lu_factor_ex(A, pivot)"
        )
    return _LU_FACTOR(_recorded_lu(A, lu_array, pivots), _int32(pivots))


def _recorded_lu(A: Tensor, lu_array, pivots) -> Tensor:
    """The compact LU as a recorded op (its gradient needs the permutation of the
    pivots, saved as a matrix)."""
    LU = _dec._wrap_lapack(lu_array, A._dtype)  # noqa: N806
    perm = _permutation(pivots, lu_array.shape[-2], lu_array.dtype) if A._requires_grad else None
    return _dec.record(LU_FACTOR, (A,), LU, (perm,))


def _lu_factor_op(A: Tensor, pivot: bool = True) -> Tensor:
    lu_array, pivots, _ = _lu_numpy(A._np, pivot)
    return _recorded_lu(A, lu_array, pivots)


LU_FACTOR = _dec._register(
    "_lu_factor", _lu_factor_op, "_lu_factor(Tensor A) -> Tensor", saved=("perm",)
)


def lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False):
    """``(LU, pivots, info)``: :func:`lu_factor` that reports a zero pivot in ``info``
    (its 1-based position; 0 when none) instead of raising."""
    _check_lu_input("lu_factor_ex", A)
    lu_array, pivots, info = _lu_numpy(A._np, pivot)
    if check_errors and np.any(info):
        return lu_factor(A, pivot=pivot)  # raises PyTorch's error
    return _LU_FACTOR_EX(_recorded_lu(A, lu_array, pivots), _int32(pivots), _int32(info))


def _permutation(pivots: np.ndarray, m: int, dtype) -> np.ndarray:
    """The permutation matrices P (with ``A = P L U``) of 1-based LAPACK pivots."""
    *batch, k = pivots.shape
    flat = pivots.reshape(-1, k) - 1
    order = np.tile(np.arange(m, like=flat), (flat.shape[0], 1))  # on the pivots' device
    for j in range(k):
        p = flat[:, j]
        rows = np.arange(flat.shape[0], like=flat)
        a, b = order[rows, j].copy(), order[rows, p].copy()
        order[rows, j], order[rows, p] = b, a
    perm = np.zeros((flat.shape[0], m, m), dtype=dtype, like=flat)
    batch_rows = np.arange(flat.shape[0], like=flat)[:, None]
    perm[batch_rows, order, np.arange(m, like=flat)[None, :]] = 1
    return perm.reshape(*batch, m, m)


def linalg_lu(A: Tensor, *, pivot: bool = True):
    """``(P, L, U)`` with ``A = P @ L @ U`` (L unit lower, U upper triangular)."""
    _check_lu_input("lu", A)
    lu_array, pivots, _ = _lu_numpy(A._np, pivot)
    m, n = lu_array.shape[-2:]
    k = min(m, n)
    lower = np.tril(lu_array[..., :, :k], -1) + np.eye(m, k, dtype=lu_array.dtype, like=lu_array)
    upper = np.triu(lu_array[..., :k, :])
    perm = _permutation(pivots, m, lu_array.dtype)
    wrap = _dec._wrap
    factors = (wrap(lower, A._dtype), wrap(upper, A._dtype))
    _dec.record(LU, (A,), factors, (perm,))
    return _LU(wrap(perm, A._dtype), *factors)


linalg_lu.__name__ = "lu"
LU = _dec._register("_lu", linalg_lu, "_lu(Tensor A) -> (Tensor L, Tensor U)", saved=("perm",))


@defop("lu", method=True)
def lu(A: Tensor, pivot: bool = True, get_infos: bool = False, out=None):
    """``(LU, pivots)`` (and ``infos`` if asked): the deprecated ``torch.lu``."""
    from .linalg_solvers import _deprecated

    _deprecated("torch.lu", "torch.linalg.lu_factor / torch.linalg.lu_factor_ex")
    _check_lu_input("lu_factor", A)
    lu_array, pivots, info = _lu_numpy(A._np, pivot)
    LU = _recorded_lu(A, lu_array, pivots)  # noqa: N806
    if get_infos:
        return _LU_WITH_INFO(LU, _int32(pivots), _int32(info))
    return LU, _int32(pivots)


_LuUnpack = _structseq("lu_unpack", ("P", "L", "U"))


@defop("lu_unpack")
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data=True, unpack_pivots=True):  # noqa: N803
    """``(P, L, U)`` from the compact factorisation of :func:`torch.linalg.lu_factor`."""
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    eye = torch.eye(m, k, dtype=LU_data.dtype)
    lower = torch.tril(LU_data[..., :, :k], -1) + eye
    upper = torch.triu(LU_data[..., :k, :])
    perm = _permutation(LU_pivots._np.astype(np.int64), m, LU_data._np.dtype)
    P = Tensor._from_array(contiguous(perm), LU_data._dtype)  # noqa: N806
    return _LuUnpack(P, lower, upper)


def _lu_solve(LU: Tensor, pivots: Tensor, B: Tensor) -> Tensor:  # noqa: N803
    from .linalg_solvers import solve_triangular

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
