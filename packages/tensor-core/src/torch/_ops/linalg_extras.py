"""The rest of the linear-algebra API: products (``vdot``, ``inner``, ``addr``,
``chain_matmul``, ``linalg.multi_dot``, ``linalg.vecdot``), the legacy ``torch.*``
spellings of decompositions (``det``, ``inverse``, ``svd``, ``qr``, ``cholesky*``,
``lu``, ``triangular_solve``), and ``torch.linalg``'s ``*_ex`` forms, ``eig``, ``lu``,
``lu_factor``, ``solve_triangular``, ``matrix_power``, ``matrix_exp``, ``tensorinv``,
``tensorsolve``, ``householder_product``, ``vander``, ``cond``.

NOTE: the differentiable ones are composites of registered ops (``matmul``, ``solve``,
``inv``, ``svd``, triangle masks), so their gradients follow from those entries. The LU
factorisation is computed in NumPy and recorded as its own ops (``_lu``, ``_lu_factor``);
``eig`` is a decompositions op.
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
from .gather_scatter import _inplace
from .linalg import _combine, addbmm, addmm, addmv, baddbmm

__all__ = [
    "vdot",
    "inner",
    "addr",
    "ger",
    "chain_matmul",
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
    "lu",
    "triangular_solve",
]


def _legacy(d) -> str:
    return d._legacy[:-6]


def _int32(array) -> Tensor:
    return Tensor._from_array(np.asarray(array, dtype=np.int32, order="C"), _dtype.int32)


# ------------------------------------------------------------------------- products


@defop("vdot", method=True, out=True)
def vdot(input: Tensor, other: Tensor) -> Tensor:
    """The dot product of two 1-D tensors, conjugating the first."""
    if input._np.ndim != 1 or other._np.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input._np.ndim}D and {other._np.ndim}D tensors"
        )
    if input._dtype is not other._dtype:
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{_legacy(input._dtype)} and {_legacy(other._dtype)}"
        )
    return torch.dot(torch.conj(input), other)


@defop("inner", method=True, out=True)
def inner(input: Tensor, other: Tensor) -> Tensor:
    """Sums of products over the last dims (a scalar operand multiplies)."""
    if input._np.ndim == 0 or other._np.ndim == 0:
        return input * other
    if input._np.shape[-1] != other._np.shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"{list(input._np.shape)} and {list(other._np.shape)}"
        )
    size = input._np.shape[-1]
    rows = torch.matmul(input.reshape(-1, size), other.reshape(-1, size).t())
    return rows.reshape(tuple(input._np.shape[:-1]) + tuple(other._np.shape[:-1]))


@defop("addr", method=True, inplace=True, out=True)
def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``."""
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v._np.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v._np.ndim}-D")
    return _combine(input, torch.outer(vec1, vec2), beta, alpha)


@defop("ger", method=True, out=True)
def ger(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product (an old name of :func:`torch.outer`)."""
    return torch.outer(input, vec2)


def multi_dot(tensors) -> Tensor:
    """The product of a chain of matrices (the first may be a row vector, the last a
    column vector: they are squeezed back out of the result)."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first_vector, last_vector = tensors[0].dim() == 1, tensors[-1].dim() == 1
    if first_vector:
        tensors[0] = tensors[0].unsqueeze(0)
    if last_vector:
        tensors[-1] = tensors[-1].unsqueeze(-1)
    for i, t in enumerate(tensors):
        if t.dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    result = tensors[0]
    for t in tensors[1:]:
        result = torch.mm(result, t)
    if first_vector:
        result = result.squeeze(0)
    if last_vector:
        result = result.squeeze(-1)
    return result


@defop("chain_matmul")
def chain_matmul(*matrices, out=None) -> Tensor:
    """The product of 2-D matrices (deprecated: ``torch.linalg.multi_dot``)."""
    warnings.warn(
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
        "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors "
        "rather than multiple parameters.",
        UserWarning,
        stacklevel=2,
    )
    if len(matrices) == 1:
        result = matrices[0].clone()
    else:
        result = multi_dot(matrices)
    if out is not None:
        from .out_variants import copy_into_out

        return copy_into_out(result, out, "chain_matmul")
    return result


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """Sums of ``conj(x) * y`` along ``dim`` (broadcast)."""
    return (torch.conj(x) * y).sum(dim)


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


# ------------------------------------------------------------------------------- LU


def _lu_numpy(a: np.ndarray, pivot: bool = True):
    """LU with partial pivoting of a batch of matrices, column by column (vectorised
    over the batch): ``(LU, pivots (1-based), info)`` as LAPACK's getrf gives them."""
    lu = np.array(a, dtype=np.result_type(a, np.float32), copy=True)
    *batch, m, n = lu.shape
    flat = lu.reshape(-1, m, n)
    k = min(m, n)
    pivots = np.tile(np.arange(1, k + 1, dtype=np.int32), (flat.shape[0], 1))
    info = np.zeros(flat.shape[0], dtype=np.int32)
    rows = np.arange(flat.shape[0])
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
    order = np.tile(np.arange(m), (flat.shape[0], 1))
    for j in range(k):
        p = flat[:, j]
        rows = np.arange(flat.shape[0])
        a, b = order[rows, j].copy(), order[rows, p].copy()
        order[rows, j], order[rows, p] = b, a
    perm = np.zeros((flat.shape[0], m, m), dtype=dtype)
    perm[np.arange(flat.shape[0])[:, None], order, np.arange(m)[None, :]] = 1
    return perm.reshape(*batch, m, m)


def linalg_lu(A: Tensor, *, pivot: bool = True):
    """``(P, L, U)`` with ``A = P @ L @ U`` (L unit lower, U upper triangular)."""
    _check_lu_input("lu", A)
    lu_array, pivots, _ = _lu_numpy(A._np, pivot)
    m, n = lu_array.shape[-2:]
    k = min(m, n)
    lower = np.tril(lu_array[..., :, :k], -1) + np.eye(m, k, dtype=lu_array.dtype)
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
    _deprecated("torch.lu", "torch.linalg.lu_factor / torch.linalg.lu_factor_ex")
    _check_lu_input("lu_factor", A)
    lu_array, pivots, info = _lu_numpy(A._np, pivot)
    LU = _recorded_lu(A, lu_array, pivots)  # noqa: N806
    if get_infos:
        return _LU_WITH_INFO(LU, _int32(pivots), _int32(info))
    return LU, _int32(pivots)


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
    info = np.array([_dec._failing_minor(a) for a in flat], dtype=np.int32)
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


addmm_ = _inplace(addmm, "addmm_")
addmv_ = _inplace(addmv, "addmv_")
addbmm_ = _inplace(addbmm, "addbmm_")
baddbmm_ = _inplace(baddbmm, "baddbmm_")
addr_ = _inplace(addr, "addr_")

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
