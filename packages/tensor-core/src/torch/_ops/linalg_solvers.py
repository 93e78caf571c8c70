"""Solving and inverting, and the forms written on core's decompositions: the legacy
``torch.*`` spellings (``det``, ``logdet``, ``slogdet``, ``inverse``, ``cholesky*``,
``qr``, ``svd``, ``pinverse``, ``matrix_power``, ``matrix_exp``, ``triangular_solve``) and
``torch.linalg``'s ``*_ex`` forms, ``solve_triangular``, ``eig``, ``tensorinv``,
``tensorsolve``, ``householder_product``, ``vander``, ``diagonal`` and ``cond``.

NOTE: the differentiable ones are composites of registered ops (``matmul``, ``solve``,
``inv``, ``svd``, triangle masks), so their gradients follow from those entries; ``eig``
is a decompositions op.
"""

from __future__ import annotations

import warnings

import numpy as np

import torch

from .. import _blas, _dtype
from .._return_types import _structseq
from .._tensor import Tensor
from . import decompositions as _dec
from ._dispatch import defop
from .lu import _int32, _lu_numpy, linalg_lu, lu_factor, lu_factor_ex
from .pointwise import _legacy_name as _legacy
from .products import multi_dot, vecdot

__all__ = [
    "det",
    "logdet",
    "slogdet",
    "inverse",
    "cholesky",
    "cholesky_solve",
    "cholesky_inverse",
    "qr",
    "svd",
    "pinverse",
    "matrix_power",
    "matrix_exp",
    "triangular_solve",
]


# ---------------------------------------------------------------- legacy spellings


@defop("det", method=True)
def det(input: Tensor) -> Tensor:
    """The determinant (``torch.linalg.det``)."""
    return _dec.det(input)


@defop("logdet", method=True)
def logdet(input: Tensor) -> Tensor:
    """``log(det(input))``: NaN for a negative determinant, -inf for a zero one."""
    sign, logabs = _dec.slogdet(input)
    if sign.is_complex():  # log(det) = log|det| + i arg(det)
        return logabs + torch.log(sign)
    nan = torch.full_like(logabs, float("nan"))
    return torch.where(sign < 0, nan, logabs)


@defop("slogdet", method=True, out=True)
def slogdet(input: Tensor):
    """``(sign, log|det|)`` (``torch.linalg.slogdet``)."""
    sign, logabs = _dec.slogdet(input)
    return _SlogdetResult(sign, logabs)


_SlogdetResult = _structseq("slogdet", ("sign", "logabsdet"))


@defop("inverse", method=True, out=True)
def inverse(input: Tensor) -> Tensor:
    """The matrix inverse (``torch.linalg.inv``)."""
    return _dec.inv(input)


def _deprecated(old: str, new: str) -> None:
    warnings.warn(
        f"{old} is deprecated in favor of {new} and will be removed in a future PyTorch release.",
        UserWarning,
        stacklevel=3,
    )


@defop("cholesky", method=True, out=True)
def cholesky(input: Tensor, upper: bool = False) -> Tensor:
    """The Cholesky factor (deprecated spelling of ``torch.linalg.cholesky``)."""
    _deprecated("torch.cholesky", "torch.linalg.cholesky")
    return _dec.cholesky(input, upper=upper)


def _triangle(A: Tensor, upper: bool, unitriangular: bool) -> Tensor:
    part = torch.triu(A) if upper else torch.tril(A)
    if unitriangular:
        eye = torch.eye(A.shape[-1], dtype=A.dtype)
        part = part * (1 - eye) + eye
    return part


def solve_triangular(
    A: Tensor, B: Tensor, *, upper: bool, left: bool = True, unitriangular: bool = False
) -> Tensor:
    """The solution ``X`` of ``A X = B`` (``X A = B`` unless ``left``) for a triangular
    ``A``: only the triangle ``upper`` names is read (with ones on the diagonal if
    ``unitriangular``)."""
    T = _triangle(A, upper, unitriangular)
    if not left:
        return _column_major(_dec.solve(T.mT, B.mT).mT)
    return _column_major(_dec.solve(T, B))


def _column_major(t: Tensor) -> Tensor:
    """``t`` with each matrix stored column by column, as LAPACK's results are."""
    return t.mT.contiguous().mT if t.dim() >= 2 else t


@defop("cholesky_solve", method=True, out=True)
def cholesky_solve(B: Tensor, L: Tensor, upper: bool = False) -> Tensor:
    """The solution of ``A X = B`` given the Cholesky factor of ``A`` (lower by
    default)."""
    lower = L.mT if upper else L
    y = solve_triangular(lower, B, upper=False)
    return solve_triangular(lower.mT, y, upper=True)


@defop("cholesky_inverse", method=True, out=True)
def cholesky_inverse(L: Tensor, upper: bool = False) -> Tensor:
    """The inverse of ``A`` given its Cholesky factor."""
    eye = torch.eye(L.shape[-1], dtype=L.dtype).expand(L.shape)
    return cholesky_solve(eye, L, upper)


_QR = _structseq("qr", ("Q", "R"))
_SVD = _structseq("svd", ("U", "S", "V"))


@defop("qr", method=True, out=True)
def qr(input: Tensor, some: bool = True):
    """``(Q, R)`` (deprecated spelling: ``torch.linalg.qr(mode='reduced' if some else
    'complete')``)."""
    _deprecated("torch.qr", "torch.linalg.qr")
    Q, R = _dec.qr(input, "reduced" if some else "complete")
    return _QR(Q, R)


@defop("svd", method=True, out=True)
def svd(input: Tensor, some: bool = True, compute_uv: bool = True):
    """``(U, S, V)`` with ``input = U diag(S) V^H`` (note: V, not V^H); without
    ``compute_uv``, U and V are zeros."""
    U, S, Vh = _dec.svd(input, full_matrices=not some)
    V = Vh.mH if hasattr(Vh, "mH") else Vh.mT.conj()
    if not compute_uv:
        m, n = input.shape[-2:]
        batch = tuple(input.shape[:-2])
        U = torch.zeros(batch + (m, m), dtype=input.dtype)
        V = torch.zeros(batch + (n, n), dtype=input.dtype).mT
        S = S.detach()
    return _SVD(U, S, V)


@defop("pinverse", method=True)
def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """The pseudo-inverse with singular values below ``rcond * max`` treated as zero."""
    return _dec.pinv(input, rtol=rcond)


@defop("matrix_power", method=True, out=True)
def matrix_power(input: Tensor, n: int) -> Tensor:
    """``input`` multiplied by itself ``n`` times (the inverse's power for negative
    ``n``, the identity for 0), by repeated squaring."""
    if input.dim() < 2 or input.shape[-1] != input.shape[-2]:
        rows, cols = (input.shape[-2], input.shape[-1]) if input.dim() >= 2 else (0, 0)
        raise RuntimeError(
            "linalg.matrix_power: A must be batches of square matrices, but they are "
            f"{rows} by {cols} matrices"
        )
    if n == 0:
        # NOTE: the identity, still linked to ``input`` (a zero gradient), as in PyTorch
        eye = torch.eye(input.shape[-1], dtype=input.dtype).expand(input.shape)
        return torch.where(torch.ones_like(eye, dtype=torch.bool), eye, input)
    base = _dec.inv(input) if n < 0 else input
    n = abs(n)
    result = None
    while n:
        if n & 1:
            result = base if result is None else torch.matmul(result, base)
        n >>= 1
        if n:
            base = torch.matmul(base, base)
    return result if result is not input else input.clone()


@defop("matrix_exp", method=True)
def matrix_exp(input: Tensor) -> Tensor:
    """The matrix exponential, by scaling and squaring of a Taylor series.

    NOTE: written with matmul and sums only, so its gradient is exact by the chain rule."""
    if input.dim() < 2 or input.shape[-1] != input.shape[-2]:
        raise RuntimeError("linalg.matrix_exp: A must be batches of square matrices")
    with torch.no_grad():
        norm = float(input.abs().sum(-2).amax()) if input.numel() else 0.0
    squarings = max(0, int(np.ceil(np.log2(norm))) + 1) if norm > 0.5 else 0
    scaled = input / (2.0**squarings) if squarings else input
    eye = torch.eye(input.shape[-1], dtype=input.dtype).expand(input.shape)
    term, result = eye, eye
    for k in range(1, 19):  # |scaled| <= 1/2: the terms fall below 1e-19 by k = 18
        term = torch.matmul(term, scaled) / k
        result = result + term
    for _ in range(squarings):
        result = torch.matmul(result, result)
    return result


_TRIANGULAR = _structseq("triangular_solve", ("solution", "cloned_coefficient"))


@defop("triangular_solve", method=True, out=True)
def triangular_solve(
    b: Tensor, A: Tensor, upper: bool = True, transpose: bool = False, unitriangular=False
):
    """``(X, A.clone())`` with ``X`` solving ``op(A) X = b`` for a triangular ``A``
    (deprecated: ``torch.linalg.solve_triangular``)."""
    _deprecated("torch.triangular_solve", "torch.linalg.solve_triangular")
    T = _triangle(A, upper, unitriangular)
    if transpose:
        T = T.mT
    return _TRIANGULAR(_column_major(_dec.solve(T, b)), _column_major(A.clone()))


# ------------------------------------------------------------------ torch.linalg.*_ex


def inv_ex(A: Tensor, *, check_errors: bool = False):
    """``(inverse, info)``; ``info`` is 0, or for a singular matrix the 1-based index of
    the zero pivot of its LU factorisation (then ``inverse`` is not meaningful)."""
    _dec._check_square("inv_ex", A)
    _, _, info = _lu_numpy(A._np)
    if np.any(info) and not check_errors:
        inverse = torch.full_like(A, float("nan"))
    else:
        inverse = _dec.inv(A)  # raises LinAlgError for a singular matrix
    return _INV_EX(inverse, _int32(info))


_INV_EX = _structseq("linalg_inv_ex", ("inverse", "info"))
_SOLVE_EX = _structseq("linalg_solve_ex", ("result", "info"))
_CHOLESKY_EX = _structseq("linalg_cholesky_ex", ("L", "info"))


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False):
    """``(X, info)`` for ``A X = B``; ``info`` as in :func:`inv_ex`."""
    _dec._check_square("solve_ex", A)
    _, _, info = _lu_numpy(A._np)
    if np.any(info) and not check_errors:
        shape = np.broadcast_shapes(A._np.shape[:-2], B._np.shape[:-2]) + B._np.shape[-2:]
        result = torch.full(shape, float("nan"), dtype=A.dtype)
    else:
        result = _dec.solve(A, B, left=left)
    return _SOLVE_EX(result, _int32(info))


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False):
    """``(L, info)``; ``info`` is 0, or the order of the leading minor that is not
    positive-definite."""
    _dec._check_square("cholesky_ex", A)
    try:
        return _CHOLESKY_EX(_dec.cholesky(A, upper=upper), _int32(np.zeros(A.shape[:-2])))
    except _dec.LinAlgError:
        if check_errors:
            raise _dec.LinAlgError(_cholesky_message("linalg.cholesky_ex", A)) from None
    flat = A._np.reshape(-1, *A._np.shape[-2:])
    # 0 for the matrices of the batch that do factor
    info = np.array([_dec._failing_minor(a, check_whole=True) for a in flat], dtype=np.int32)
    L = np.zeros_like(flat)
    for i, a in enumerate(flat):
        if not info[i]:
            L[i] = _blas.linalg.cholesky(a)
    if upper:
        L = np.swapaxes(L, -1, -2).conj()
    return _CHOLESKY_EX(
        _dec._wrap(L.reshape(A._np.shape), A._dtype), _int32(info.reshape(A._np.shape[:-2]))
    )


def _cholesky_message(name: str, A: Tensor) -> str:
    flat = A._np.reshape(-1, *A._np.shape[-2:])
    order = next(m for m in (_dec._failing_minor(a) for a in flat) if m)
    return (
        f"{name}: The factorization could not be completed because the input is not "
        f"positive-definite (the leading minor of order {order} is not positive-definite)."
    )


_EIG = _structseq("linalg_eig", ("eigenvalues", "eigenvectors"))


def eig(A: Tensor):
    """``(eigenvalues, eigenvectors)`` of general square matrices, always complex
    (eigenvectors of unit norm); differentiable."""
    _dec._check_square("eig", A)
    _dec._check_float("eig", A)
    return _EIG(*_dec._eig(A))


def tensorinv(A: Tensor, ind: int = 2) -> Tensor:
    """The inverse of ``A`` seen as a matrix from its first ``ind`` dims to the rest."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    outer, inner_shape = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    rows, cols = int(np.prod(outer)), int(np.prod(inner_shape))
    if rows != cols:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
            f"prod(self.shape[:ind]), but got {cols} != {rows}"
        )
    return _dec.inv(A.reshape(rows, cols)).reshape(inner_shape + outer)


def tensorsolve(A: Tensor, B: Tensor, dims=None) -> Tensor:
    """``X`` with ``tensordot(A, X, X.ndim) == B``."""
    if dims is not None:
        A = A.movedim(tuple(dims), tuple(range(A.dim() - len(dims), A.dim())))
    rest = tuple(A.shape[B.dim() :])
    rows = B.numel()
    return _dec.solve(A.reshape(rows, -1), B.reshape(rows)).reshape(rest)


def _check_householder(A: Tensor, tau: Tensor) -> None:  # noqa: N803
    name = "torch.linalg.householder_product"
    if A.dim() < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(
            f"{name}: input.shape[-2] must be greater than or equal to input.shape[-1]"
        )
    if tau.dim() == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if A.shape[-1] < tau.shape[-1]:
        raise RuntimeError(
            f"{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]"
        )
    if A.dim() - tau.dim() != 1:
        raise RuntimeError(
            f"{name}: Expected tau to have one dimension less than input, but got tau.ndim "
            f"equal to {tau.dim()} and input.ndim is equal to {A.dim()}"
        )
    if tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise RuntimeError(
            f"{name}: Expected batch dimensions of tau to be equal to input.shape[:-2], but "
            f"got {list(tau.shape[:-1])}"
        )
    if tau._dtype is not A._dtype:
        raise RuntimeError(
            f"{name}: tau dtype {_legacy(tau._dtype)} does not match input dtype "
            f"{_legacy(A._dtype)}"
        )
    if not (A._dtype.is_complex or A._dtype in (_dtype.float32, _dtype.float64)):
        raise NotImplementedError(f"\"orgqr_cpu\" not implemented for '{_legacy(A._dtype)}'")


def householder_product(A: Tensor, tau: Tensor) -> Tensor:
    """The first n columns of the product of Householder reflectors ``I - tau_i v_i
    v_i^H``, with ``v_i`` in column i of ``A`` below the diagonal (1 on it)."""
    _check_householder(A, tau)
    m, n = A.shape[-2:]
    eye = torch.eye(m, dtype=A.dtype)
    Q = eye.expand(tuple(A.shape[:-2]) + (m, m))
    rows = torch.arange(m).unsqueeze(-1)
    for i in range(tau.shape[-1]):
        column = A[..., :, i : i + 1]
        v = torch.where(rows > i, column, (rows == i).to(A.dtype))
        t = tau[..., i].unsqueeze(-1).unsqueeze(-1)
        Q = Q - torch.matmul(torch.matmul(Q, v), v.mT.conj()) * t
    return _column_major(Q[..., :, :n])


def vander(x: Tensor, N=None) -> Tensor:
    """Columns of increasing powers of ``x``: ``x ** 0, x ** 1, ..., x ** (N - 1)``."""
    n = x.shape[-1] if N is None else N
    if n < 2 and N is not None and N < 2:
        raise RuntimeError("N must be greater than 1.")
    if n == 0:
        return x.unsqueeze(-1)[..., :0]
    powers = [torch.ones_like(x)]
    for _ in range(1, n):
        powers.append(powers[-1] * x)
    return torch.stack(powers, -1)


def linalg_diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """The diagonal of each matrix (over the last two dims by default)."""
    return torch.diagonal(A, offset, dim1, dim2)


linalg_diagonal.__name__ = "diagonal"


def cond(A: Tensor, p=None) -> Tensor:
    """The condition number of ``A`` in the norm ``p`` (ratio of extreme singular
    values for ``None``/2/-2; ``norm(A) * norm(inv(A))`` otherwise)."""
    if p in (None, 2, -2):
        values = _dec.svdvals(A)
        big, small = values[..., 0], values[..., -1]
        return big / small if p != -2 else small / big
    _dec._check_square("cond", A)
    return _dec.matrix_norm(A, p) * _dec.matrix_norm(_dec.inv(A), p)


#: functions of ``torch.linalg`` defined here (name there -> function)
LINALG = {
    "multi_dot": multi_dot,
    "vecdot": vecdot,
    "matrix_power": matrix_power,
    "matrix_exp": matrix_exp,
    "lu_factor": lu_factor,
    "lu_factor_ex": lu_factor_ex,
    "lu": linalg_lu,
    "solve_triangular": solve_triangular,
    "inv_ex": inv_ex,
    "solve_ex": solve_ex,
    "cholesky_ex": cholesky_ex,
    "eig": eig,
    "tensorinv": tensorinv,
    "tensorsolve": tensorsolve,
    "householder_product": householder_product,
    "vander": vander,
    "diagonal": linalg_diagonal,
    "cond": cond,
}
