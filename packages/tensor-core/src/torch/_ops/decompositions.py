"""Matrix functions and decompositions (``torch.linalg``), on NumPy's LAPACK. Ops with
several outputs (``eigh``, ``svd``) register one op per differentiable output, so each
output's gradient formula stays a single-output formula and their sum is the gradient."""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from .._return_types import _structseq
from .._tensor import Tensor
from ._dispatch import record, register_op, wrap_array

__all__ = [
    "LinAlgError",
    "inv",
    "det",
    "slogdet",
    "solve",
    "cholesky",
    "eigh",
    "eigvalsh",
    "svd",
    "svdvals",
    "qr",
    "eigvals",
    "lstsq",
    "pinv",
    "matrix_norm",
    "matrix_rank",
    "norm",
]


class _LinAlgError(RuntimeError):
    """A matrix is singular, not positive-definite, or a decomposition did not converge
    (``torch.linalg.LinAlgError``)."""


LinAlgError = _LinAlgError


def _register(name, function, signature, differentiable=True):
    binding = f"torch.linalg.{name.lstrip('_').split('_')[0]}"
    return register_op(
        name, function, signature, "decompositions", differentiable=differentiable, binding=binding
    )


_wrap = wrap_array


def _wrap_lapack(array, dtype) -> Tensor:
    """A matrix result laid out column-major per matrix, as LAPACK (and PyTorch) give it."""
    column_major = np.ascontiguousarray(np.asarray(array, dtype=dtype.np_dtype).swapaxes(-1, -2))
    return Tensor._from_array(column_major.swapaxes(-1, -2), dtype)


def _check_square(name: str, a: Tensor) -> None:
    if a._np.ndim < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    rows, cols = a._np.shape[-2:]
    if rows != cols:
        raise RuntimeError(
            f"linalg.{name}: A must be batches of square matrices, but they are "
            f"{rows} by {cols} matrices"
        )


def _check_float(name: str, a: Tensor) -> None:
    if not (a._dtype.is_floating_point or a._dtype.is_complex):
        raise RuntimeError(
            f"linalg.{name}: Expected a floating point or complex tensor as "
            f"input. Got {a._dtype._legacy[:-6]}"
        )


def inv(A: Tensor) -> Tensor:
    """The inverse of (batches of) square matrices; singular ones raise LinAlgError.

    Examples::

        >>> import torch
        >>> torch.linalg.inv(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))
        tensor([[ 0.6000, -0.2000],
                [-0.2000,  0.4000]])
    """
    _check_square("inv", A)
    _check_float("inv", A)
    try:
        result = np.linalg.inv(A._np)
    except np.linalg.LinAlgError:
        raise _LinAlgError(
            "linalg.inv: The diagonal element 2 is zero, the inversion could not "
            "be completed because the input matrix is singular."
        ) from None
    return record(INV, (A,), _wrap_lapack(result, A._dtype))


INV = _register("inv", inv, "linalg_inv(Tensor A) -> Tensor")


def det(A: Tensor) -> Tensor:
    """The determinant of (batches of) square matrices."""
    _check_square("det", A)
    _check_float("det", A)
    return record(DET, (A,), _wrap(np.linalg.det(A._np), A._dtype))


DET = _register("det", det, "linalg_det(Tensor A) -> Tensor")

_SlogdetResult = _structseq("linalg_slogdet", ("sign", "logabsdet"))


def _logabsdet(A: Tensor) -> Tensor:
    _, value = np.linalg.slogdet(A._np)
    return record(LOGABSDET, (A,), _wrap(value, A._dtype))


LOGABSDET = _register("_logabsdet", _logabsdet, "_logabsdet(Tensor A) -> Tensor")


def slogdet(A: Tensor):
    """``(sign, log|det|)`` of (batches of) square matrices."""
    _check_square("slogdet", A)
    _check_float("slogdet", A)
    sign, _ = np.linalg.slogdet(A._np)
    return _SlogdetResult(_wrap(sign, A._dtype), _logabsdet(A))


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """The solution ``X`` of ``A @ X = B`` (``B`` a vector or a batch of matrices)."""
    _check_square("solve", A)
    if not left:
        return solve(A.mT, B.mT).mT
    vector = B._np.ndim == A._np.ndim - 1
    b = B._np[..., None] if vector else B._np
    try:
        result = np.linalg.solve(A._np, b)
    except np.linalg.LinAlgError:
        raise _LinAlgError(
            "linalg.solve: The solver failed because the input matrix is singular."
        ) from None
    if vector:
        result = result[..., 0]
    dtype = A._dtype if A._dtype is B._dtype else _dtype.promote_types(A._dtype, B._dtype)
    result = _wrap(result, dtype) if vector else _wrap_lapack(result, dtype)
    return record(SOLVE, (A, B), result, (vector,))


SOLVE = _register("solve", solve, "linalg_solve(Tensor A, Tensor B) -> Tensor")


def cholesky(A: Tensor, *, upper: bool = False) -> Tensor:
    """The lower-triangular ``L`` with ``L @ L.mT = A`` for symmetric positive-definite
    ``A`` (upper-triangular ``L.mT`` with ``upper=True``)."""
    _check_square("cholesky", A)
    try:
        lower = np.linalg.cholesky(A._np)
    except np.linalg.LinAlgError:
        raise _LinAlgError(
            "linalg.cholesky: The factorization could not be completed because the input is "
            f"not positive-definite (the leading minor of order {_failing_minor(A._np)} is "
            "not positive-definite)."
        ) from None
    factor = lower.swapaxes(-1, -2) if upper else lower  # LAPACK computes either directly
    return record(CHOLESKY, (A,), _wrap_lapack(factor, A._dtype), (upper,))


def _failing_minor(a: np.ndarray) -> int:
    """The order of the first leading minor that is not positive-definite."""
    matrix = a.reshape(-1, *a.shape[-2:])[0]
    for k in range(1, matrix.shape[0] + 1):
        try:
            np.linalg.cholesky(matrix[:k, :k])
        except np.linalg.LinAlgError:
            return k
    return matrix.shape[0]


CHOLESKY = _register("cholesky", cholesky, "linalg_cholesky(Tensor A) -> Tensor")


# ------------------------------------------------------- symmetric eigenproblem

_EighResult = _structseq("linalg_eigh", ("eigenvalues", "eigenvectors"))


def _eigh_values(A: Tensor, uplo: str) -> Tensor:
    w = np.linalg.eigvalsh(A._np, UPLO=uplo)
    return record(EIGH_VALUES, (A,), _wrap(w, A._dtype), (uplo,))


def _eigh_vectors(A: Tensor, uplo: str) -> Tensor:
    _, v = np.linalg.eigh(A._np, UPLO=uplo)
    return record(EIGH_VECTORS, (A,), _wrap(v, A._dtype), (uplo,))


EIGH_VALUES = _register("_eigh_values", _eigh_values, "_eigh_values(Tensor A) -> Tensor")
EIGH_VECTORS = _register("_eigh_vectors", _eigh_vectors, "_eigh_vectors(Tensor A) -> Tensor")


def eigh(A: Tensor, UPLO: str = "L"):  # noqa: N803 - PyTorch's name
    """Eigenvalues (ascending) and eigenvectors of (batches of) symmetric matrices."""
    _check_square("eigh", A)
    return _EighResult(_eigh_values(A, UPLO), _eigh_vectors(A, UPLO))


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:  # noqa: N803
    """The eigenvalues (ascending) of symmetric matrices."""
    _check_square("eigvalsh", A)
    return _eigh_values(A, UPLO)


def eigvals(A: Tensor) -> Tensor:
    """The (complex) eigenvalues of general square matrices."""
    _check_square("eigvals", A)
    w = np.linalg.eigvals(A._np)
    dtype = _dtype.complex128 if A._dtype is _dtype.float64 else _dtype.complex64
    return _wrap(w, dtype)


# ----------------------------------------------------------------------- SVD

_SvdResult = _structseq("linalg_svd", ("U", "S", "Vh"))


def _svd_values(A: Tensor) -> Tensor:
    s = np.linalg.svd(A._np, compute_uv=False)
    return record(SVD_VALUES, (A,), _wrap(s, A._dtype))


SVD_VALUES = _register("_svd_values", _svd_values, "_svd_values(Tensor A) -> Tensor")


def svdvals(A: Tensor) -> Tensor:
    """The singular values of (batches of) matrices, descending."""
    _check_float("svdvals", A)
    return _svd_values(A)


def svd(A: Tensor, full_matrices: bool = True):
    """``(U, S, Vh)`` with ``A = U @ diag(S) @ Vh``. Gradients flow through ``S`` only
    (the singular vectors' gradients are not built yet)."""
    _check_float("svd", A)
    u, _, vh = np.linalg.svd(A._np, full_matrices=full_matrices)
    return _SvdResult(_wrap(u, A._dtype), _svd_values(A), _wrap(vh, A._dtype))


_QrResult = _structseq("linalg_qr", ("Q", "R"))


def qr(A: Tensor, mode: str = "reduced"):
    """``(Q, R)`` with ``A = Q @ R`` (no gradients yet)."""
    q, r = np.linalg.qr(A._np, mode="complete" if mode == "complete" else "reduced")
    return _QrResult(_wrap(q, A._dtype), _wrap(r, A._dtype))


_LstsqResult = _structseq("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))


def lstsq(A: Tensor, B: Tensor, rcond=None, *, driver=None):
    """The least-squares solution of ``A @ X = B``; full-column-rank ``A`` solves the
    normal equations (differentiable), others go through NumPy's SVD solver."""
    rank = np.linalg.matrix_rank(A._np)
    if A._np.ndim == 2 and rank == A._np.shape[1]:
        solution = solve(A.mT @ A, A.mT @ B)
    else:
        solution = _wrap(np.linalg.lstsq(A._np, B._np, rcond=rcond)[0], A._dtype)
    empty = _wrap(np.zeros(0), A._dtype)
    return _LstsqResult(solution, empty, _wrap(np.asarray(rank), _dtype.int64), empty)


def pinv(A: Tensor, *, atol=None, rtol=None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse; full-rank matrices go through ``solve``
    (differentiable), rank-deficient ones through NumPy's SVD."""
    rows, cols = A._np.shape[-2:]
    if A._np.ndim == 2 and np.linalg.matrix_rank(A._np) == min(rows, cols):
        if rows >= cols:
            return solve(A.mT @ A, A.mT).contiguous()
        return solve(A @ A.mT, A).mT.contiguous()
    return _wrap(np.linalg.pinv(A._np), A._dtype)


# ---------------------------------------------------------------------- norms


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:
    """Matrix norms over ``dim``: "fro", "nuc", 1, -1, 2, -2, inf, -inf."""
    from .reduction import amax, amin, vector_norm
    from .reduction import sum as reduce_sum

    if ord == "fro":
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    row, col = (d % A._np.ndim for d in dim)
    if ord in ("nuc", 2, -2):
        moved = A.movedim((row, col), (-2, -1))
        values = svdvals(moved)
        result = {
            "nuc": lambda: reduce_sum(values, -1),
            2: lambda: amax(values, -1),
            -2: lambda: amin(values, -1),
        }[ord]()
    elif ord in (1, -1):
        sums = reduce_sum(A.abs(), row, keepdim=True)
        result = (amax if ord == 1 else amin)(sums, col, keepdim=True).squeeze((row, col))
    elif ord in (math.inf, -math.inf):
        sums = reduce_sum(A.abs(), col, keepdim=True)
        result = (amax if ord > 0 else amin)(sums, row, keepdim=True).squeeze((row, col))
    else:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if keepdim:
        result = result.unsqueeze(min(row, col)).unsqueeze(max(row, col))
    return result


def matrix_rank(A: Tensor, *, atol=None, rtol=None, hermitian: bool = False) -> Tensor:
    """The number of singular values above the tolerance."""
    return _wrap(np.asarray(np.linalg.matrix_rank(A._np)), _dtype.int64)


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The vector norm (of the flattened tensor, or over one ``dim``) or the matrix norm
    (over two dims, or of a 2-D tensor when ``ord`` is given)."""
    from .reduction import vector_norm

    if dim is not None and not isinstance(dim, int) and len(dim) == 2:
        return matrix_norm(A, "fro" if ord is None else ord, dim, keepdim, dtype=dtype)
    if ord is not None and dim is None and A._np.ndim == 2:
        return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)
