"""Matrix functions and decompositions (``torch.linalg``), on NumPy's LAPACK. Ops with
several outputs register either one op per differentiable output (``eigh``: each
output's gradient formula stays a single-output formula and their sum is the gradient), or
one op returning a tuple (``svd``, ``qr``, ``eig``: their gradient formulas need every
output's gradient at once, e.g. for the phase checks of complex singular vectors)."""

from __future__ import annotations

import math

import numpy as np

from .. import _blas, _dtype
from .._return_types import _structseq
from .._tensor import Tensor
from ._dispatch import as_array, contiguous, record, register_op, wrap_array

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


def _register(name, function, signature, differentiable=True, saved=()):
    binding = f"torch.linalg.{name.lstrip('_').split('_')[0]}"
    return register_op(
        name,
        function,
        signature,
        "decompositions",
        differentiable=differentiable,
        saved=saved,
        binding=binding,
    )


_wrap = wrap_array


def _wrap_lapack(array, dtype) -> Tensor:
    """A matrix result laid out column-major per matrix, as LAPACK (and PyTorch) give it."""
    column_major = contiguous(as_array(array, dtype.np_dtype).swapaxes(-1, -2))
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


def _batch_prefix(a: np.ndarray, failed: np.ndarray) -> tuple[str, int]:
    """``"(Batch element i): "`` for the first failing matrix of a batch ('' for one
    matrix), and that matrix's flat index."""
    index = int(np.flatnonzero(failed.reshape(-1))[0]) if failed.size else 0
    return (f"(Batch element {index}): " if a.ndim > 2 else ""), index


def _check_float(name: str, a: Tensor) -> None:
    if not (a._dtype.is_floating_point or a._dtype.is_complex):
        raise RuntimeError(
            f"linalg.{name}: Expected a floating point or complex tensor as "
            f"input. Got {a._dtype._legacy[:-6]}"
        )


def inv(A: Tensor) -> Tensor:
    """The inverse of (batches of) square matrices; singular ones raise LinAlgError.

    Examples::

        >>> torch.linalg.inv(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))
        tensor([[ 0.6000, -0.2000],
                [-0.2000,  0.4000]])
    """
    _check_square("inv", A)
    _check_float("inv", A)
    try:
        result = _blas.linalg.inv(A._np)
    except _blas.linalg.LinAlgError:
        raise _LinAlgError(_singular_message("linalg.inv", A._np)) from None
    return record(INV, (A,), _wrap_lapack(result, A._dtype))


def _singular_message(name: str, a: np.ndarray) -> str:
    """PyTorch's message for a singular matrix: the 1-based index of the first zero
    diagonal element of its LU factorisation (and the batch element)."""
    from .lu import _lu_numpy

    _, _, info = _lu_numpy(a)
    prefix, index = _batch_prefix(a, info != 0)
    element = int(info.reshape(-1)[index]) if info.size else 1
    return (
        f"{name}: {prefix}The diagonal element {element} is zero, the inversion could not "
        "be completed because the input matrix is singular."
    )


INV = _register("inv", inv, "linalg_inv(Tensor A) -> Tensor")


def det(A: Tensor) -> Tensor:
    """The determinant of (batches of) square matrices."""
    _check_square("det", A)
    _check_float("det", A)
    return record(DET, (A,), _wrap(_det_array(A._np), A._dtype))


def _det_array(a: np.ndarray) -> np.ndarray:
    """Determinants as PyTorch forms them: the product of U's diagonal from a partially
    pivoted LU, times the permutation's sign (so a singular matrix can give -0.0).
    NumPy's det goes through exp(log|det|) and is an ulp or so off (43.000000000000014
    for an integer matrix); large matrices keep it (the LU here loops over columns)."""
    if a.shape[-1] > 16 or a.shape[-1] == 0 or a.dtype.kind == "c":
        return _blas.linalg.det(a)
    from .lu import _lu_numpy

    lu, pivots, _ = _lu_numpy(a)
    n = a.shape[-1]
    swaps = (pivots != np.arange(1, n + 1, like=pivots)).sum(-1)
    result = np.where(swaps % 2 == 1, -1.0, 1.0).astype(lu.dtype)
    for i in range(n):
        result = result * lu[..., i, i]
    return result


DET = _register("det", det, "linalg_det(Tensor A) -> Tensor")

_SlogdetResult = _structseq("linalg_slogdet", ("sign", "logabsdet"))


def _slogdet(A: Tensor):
    """``(sign, logabsdet)``, recorded as one op with two outputs: the sign of a complex
    matrix (``det / |det|``) carries a gradient, and so does the (zero) real one."""
    sign, value = _blas.linalg.slogdet(A._np)
    if A._np.size and A._np.shape[-1] <= 16 and A._dtype.is_floating_point:
        det = _det_array(A._np)
        sign = np.where(det == 0, det, np.sign(det))  # keeps -0.0 of singular ones, as PyTorch
    outputs = (_wrap(sign, A._dtype), _wrap(value, A._dtype.to_real()))
    record(SLOGDET, (A,), outputs)
    return outputs


SLOGDET = _register("_slogdet", _slogdet, "_slogdet(Tensor A) -> (Tensor, Tensor)")


def slogdet(A: Tensor):
    """``(sign, log|det|)`` of (batches of) square matrices; ``logabsdet`` is real for
    complex input too."""
    _check_square("slogdet", A)
    _check_float("slogdet", A)
    return _SlogdetResult(*_slogdet(A))


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """The solution ``X`` of ``A @ X = B`` (``B`` a vector or a batch of matrices)."""
    _check_square("solve", A)
    if A._dtype is not B._dtype:
        raise RuntimeError(
            "linalg.solve: Expected A and B to have the same dtype, but found A of type "
            f"{A._dtype._legacy[:-6]} and B of type {B._dtype._legacy[:-6]} instead"
        )
    if not left:
        return solve(A.mT, B.mT).mT
    vector = B._np.ndim == 1 or B._np.ndim == A._np.ndim - 1 and B._np.shape == A._np.shape[:-1]
    b = B._np[..., None] if vector else B._np
    if b.shape[-2] != A._np.shape[-1]:
        raise RuntimeError(
            "linalg.solve: Incompatible shapes of A and B for the equation AX = B "
            f"({A._np.shape[-2]}x{A._np.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})"
        )
    try:
        result = _blas.linalg.solve(A._np, b)
    except _blas.linalg.LinAlgError:
        raise _LinAlgError(
            "torch.linalg.solve: The solver failed because the input matrix is singular."
        ) from None
    if vector:
        result = result[..., 0]
    dtype = A._dtype if A._dtype is B._dtype else _dtype.promote_types(A._dtype, B._dtype)
    result = _wrap(result, dtype) if vector else _wrap_lapack(result, dtype)
    return record(SOLVE, (A, B), result, (vector,))


SOLVE = _register("solve", solve, "linalg_solve(Tensor A, Tensor B) -> Tensor", saved=("vector",))


def cholesky(A: Tensor, *, upper: bool = False) -> Tensor:
    """The lower-triangular ``L`` with ``L @ L.mT = A`` for symmetric positive-definite
    ``A`` (upper-triangular ``L.mT`` with ``upper=True``)."""
    _check_square("cholesky", A)
    try:
        lower = _blas.linalg.cholesky(A._np)
    except _blas.linalg.LinAlgError:
        raise _LinAlgError(_not_definite_message("linalg.cholesky", A._np)) from None
    factor = lower.swapaxes(-1, -2) if upper else lower  # LAPACK computes either directly
    return record(CHOLESKY, (A,), _wrap_lapack(factor, A._dtype), (upper,))


def _not_definite_message(name: str, a: np.ndarray) -> str:
    flat = a.reshape(-1, *a.shape[-2:])
    minors = np.array([_failing_minor(m, check_whole=True) for m in flat])
    prefix, index = _batch_prefix(a, minors != 0)
    return (
        f"{name}: {prefix}The factorization could not be completed because the input is "
        f"not positive-definite (the leading minor of order {minors[index]} is not "
        "positive-definite)."
    )


def _failing_minor(a: np.ndarray, check_whole: bool = False) -> int:
    """The order of the first leading minor that is not positive-definite (0 when
    ``check_whole`` and the matrix is positive-definite)."""
    matrix = a.reshape(-1, *a.shape[-2:])[0]
    if check_whole:
        try:
            _blas.linalg.cholesky(matrix)
            return 0
        except _blas.linalg.LinAlgError:
            pass
    for k in range(1, matrix.shape[0] + 1):
        try:
            _blas.linalg.cholesky(matrix[:k, :k])
        except _blas.linalg.LinAlgError:
            return k
    return matrix.shape[0]


CHOLESKY = _register("cholesky", cholesky, "linalg_cholesky(Tensor A) -> Tensor", saved=("upper",))


# ------------------------------------------------------- symmetric eigenproblem

_EighResult = _structseq("linalg_eigh", ("eigenvalues", "eigenvectors"))


def _eigh_values(A: Tensor, uplo: str) -> Tensor:
    w = _blas.linalg.eigvalsh(A._np, UPLO=uplo)
    return record(EIGH_VALUES, (A,), _wrap(w, A._dtype), (uplo,))


def _eigh_vectors(A: Tensor, uplo: str) -> Tensor:
    _, v = _blas.linalg.eigh(A._np, UPLO=uplo)
    return record(EIGH_VECTORS, (A,), _wrap(v, A._dtype), (uplo,))


EIGH_VALUES = _register(
    "_eigh_values", _eigh_values, "_eigh_values(Tensor A) -> Tensor", saved=("uplo",)
)
EIGH_VECTORS = _register(
    "_eigh_vectors", _eigh_vectors, "_eigh_vectors(Tensor A) -> Tensor", saved=("uplo",)
)


def _check_uplo(uplo) -> None:
    if uplo not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {uplo}")


def eigh(A: Tensor, UPLO: str = "L"):  # noqa: N803 - PyTorch's name
    """Eigenvalues (ascending) and eigenvectors of (batches of) symmetric matrices."""
    _check_uplo(UPLO)
    UPLO = UPLO.upper()  # noqa: N806
    _check_square("eigh", A)
    return _EighResult(_eigh_values(A, UPLO), _eigh_vectors(A, UPLO))


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:  # noqa: N803
    """The eigenvalues (ascending) of symmetric matrices."""
    _check_uplo(UPLO)
    UPLO = UPLO.upper()  # noqa: N806
    _check_square("eigvalsh", A)
    return _eigh_values(A, UPLO)


def eigvals(A: Tensor) -> Tensor:
    """The (complex) eigenvalues of general square matrices."""
    _check_square("eigvals", A)
    if _needs_grad(A):  # the gradient needs the eigenvectors too (as in PyTorch)
        return _eig(A)[0]
    w = _blas.linalg.eigvals(A._np)
    return _wrap(w, _complex_of(A._dtype))


def _complex_of(dtype):
    return dtype if dtype.is_complex else dtype.to_complex()


def _needs_grad(A: Tensor) -> bool:
    from .. import _grad_mode

    return A._requires_grad and _grad_mode.is_grad_enabled()


def _eig(A: Tensor):
    """``(eigenvalues, eigenvectors)``, recorded as one op with two outputs."""
    values, vectors = _blas.linalg.eig(A._np)
    dtype = _complex_of(A._dtype)
    outputs = (_wrap(values, dtype), _wrap_lapack(vectors, dtype))
    record(EIG, (A,), outputs, (A._dtype.is_complex,))
    return outputs


EIG = _register("_eig", _eig, "_eig(Tensor A) -> (Tensor, Tensor)", saved=("complex_input",))


# ----------------------------------------------------------------------- SVD

_SvdResult = _structseq("linalg_svd", ("U", "S", "Vh"))


def _svd_values(A: Tensor) -> Tensor:
    s = _blas.linalg.svd(A._np, compute_uv=False)
    return record(SVD_VALUES, (A,), _wrap(s, A._dtype.to_real()))


SVD_VALUES = _register("_svd_values", _svd_values, "_svd_values(Tensor A) -> Tensor")


def svdvals(A: Tensor) -> Tensor:
    """The singular values of (batches of) matrices, descending."""
    _check_float("svdvals", A)
    return _svd_values(A)


def _svd(A: Tensor, full_matrices: bool):
    """``(U, S, Vh)``, recorded as one op with three outputs (S is real)."""
    u, s, vh = _blas.linalg.svd(A._np, full_matrices=full_matrices)
    outputs = (_wrap(u, A._dtype), _wrap(s, A._dtype.to_real()), _wrap(vh, A._dtype))
    record(SVD, (A,), outputs, (full_matrices,))
    return outputs


SVD = _register(
    "_svd",
    _svd,
    "_svd(Tensor A, bool full_matrices) -> (Tensor, Tensor, Tensor)",
    saved=("full_matrices",),
)


def svd(A: Tensor, full_matrices: bool = True):
    """``(U, S, Vh)`` with ``A = U @ diag(S) @ Vh``; differentiable through all three
    (only the first min(m, n) singular vectors carry a gradient)."""
    _check_float("svd", A)
    return _SvdResult(*_svd(A, full_matrices))


_QrResult = _structseq("linalg_qr", ("Q", "R"))


def _qr(A: Tensor, mode: str):
    """``(Q, R)``, recorded as one op with two outputs (Q empty with ``mode="r"``)."""
    q, r = _blas.linalg.qr(A._np, mode="complete" if mode == "complete" else "reduced")
    q = _wrap(np.zeros(0), A._dtype) if mode == "r" else _wrap_lapack(q, A._dtype)
    outputs = (q, _wrap_lapack(r, A._dtype))
    record(QR, (A,), outputs, (mode,))
    return outputs


QR = _register("_qr", _qr, "_qr(Tensor A, str mode) -> (Tensor, Tensor)", saved=("mode",))


def qr(A: Tensor, mode: str = "reduced"):
    """``(Q, R)`` with ``A = Q @ R``; ``mode="r"`` leaves Q empty (and, as in PyTorch,
    then has no gradient)."""
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
            "'r', or 'complete'"
        )
    _check_float("qr", A)
    return _QrResult(*_qr(A, mode))


_LstsqResult = _structseq("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))


_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _check_lstsq(A: Tensor, B: Tensor, driver) -> bool:
    """Errors of lstsq's arguments; whether ``B`` is a (batch of) vector(s)."""
    if driver not in _DRIVERS:
        raise RuntimeError(
            "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"
        )
    if A._dtype is not B._dtype:
        raise RuntimeError(
            "torch.linalg.lstsq: Expected input and other to have the same dtype, but got "
            f"input's dtype {A._dtype._legacy[:-6]} and other's dtype {B._dtype._legacy[:-6]}"
        )
    vector = B._np.ndim == A._np.ndim - 1
    rows = B._np.shape[-1] if vector else B._np.shape[-2]
    if rows != A._np.shape[-2]:
        what = "other.size(-1)" if vector else "other.size(-2)"
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match {what}")
    return vector


def _in_lapack_buffer(solution: Tensor, rows: int) -> Tensor:
    """``solution`` laid out as LAPACK (and PyTorch) leave it: the first rows of a
    column-major buffer with ``rows`` rows (the right-hand side's)."""
    from .._conversion import copy_
    from .._creation import empty_strided

    n, k = solution.shape[-2:]
    batch = tuple(solution.shape[:-2])
    strides, step = [], rows * k
    for size in reversed(batch):
        strides.insert(0, step)
        step *= size
    buffer = empty_strided(batch + (rows, k), tuple(strides) + (1, rows), dtype=solution.dtype)
    target = buffer.narrow(-2, 0, n)
    copy_(target, solution)
    return target


def lstsq(A: Tensor, B: Tensor, rcond=None, *, driver=None):
    """The least-squares solution of ``A @ X = B`` (batched). Full-column-rank ``A``
    solves the normal equations (differentiable); others go through the pseudo-inverse.
    As in PyTorch, ``residuals`` (m > n, full rank) and ``singular_values`` are filled
    only by the drivers that compute them (``gelsd``/``gelss``; ``gels`` gives residuals
    and no rank)."""
    driver = driver or "gelsy"
    vector = _check_lstsq(A, B, driver)
    b = B.unsqueeze(-1) if vector else B
    m, n = A._np.shape[-2:]
    values = _blas.linalg.svd(A._np, compute_uv=False) if A._np.size else np.zeros((0,))
    largest = values[..., :1] if values.shape[-1] else np.zeros(values.shape[:-1] + (1,))
    cutoff = (np.finfo(A._np.dtype).eps * max(m, n) if rcond is None else rcond) * largest
    rank = (values > cutoff).sum(-1)
    if np.all(rank == n) and m >= n:
        # NOTE: through QR, as LAPACK's drivers do (differentiable through qr and
        # solve_triangular): the normal equations square A's condition number
        from .linalg_solvers import solve_triangular

        Q, R = qr(A)  # noqa: N806
        QH = Q.mT.conj() if A._dtype.is_complex else Q.mT  # noqa: N806
        solution = solve_triangular(R, QH @ b, upper=True)
    else:
        pinv_array = _blas.linalg.pinv(
            A._np, rcond=cutoff[..., 0] / np.maximum(largest[..., 0], 1e-300)
        )
        solution = _recorded_pinv(A, pinv_array) @ b
    empty = _wrap(np.zeros(0), A._dtype)
    residuals = empty
    if driver != "gelsy" and m > n and (driver == "gels" or np.all(rank == n)):
        residuals = ((A @ solution - b).abs() ** 2).sum(-2)
    if not vector:
        solution = _in_lapack_buffer(solution, max(m, n))
    if vector:
        solution = solution.squeeze(-1)
        if residuals is not empty:
            residuals = residuals.squeeze(-1)
    rank_tensor = _wrap(np.zeros(0) if driver == "gels" else rank, _dtype.int64)
    singular = _wrap(values, A._dtype) if driver in ("gelsd", "gelss") else empty
    return _LstsqResult(solution, residuals, rank_tensor, singular)


def _tolerances(values: np.ndarray, atol, rtol, shape) -> np.ndarray:
    """The cut-off under which singular values count as zero: ``max(atol, rtol * s_max)``;
    with neither given, rtol is ``eps * max(m, n)``; with only atol, rtol is 0."""
    as_array = lambda t: t._np if isinstance(t, Tensor) else t  # noqa: E731
    atol, rtol = as_array(atol), as_array(rtol)
    if rtol is None:
        rtol = np.finfo(values.dtype).eps * max(shape) if atol is None or np.all(atol == 0) else 0
    atol = 0.0 if atol is None else atol
    largest = values.max(-1) if values.shape[-1] else np.zeros(values.shape[:-1])
    return np.maximum(atol, as_array(rtol) * largest)


def pinv(A: Tensor, rcond=None, hermitian: bool = False, *, atol=None, rtol=None) -> Tensor:
    """The Moore-Penrose pseudo-inverse, singular values at or below
    ``max(atol, rtol * largest)`` treated as zero. Full-rank matrices with the default
    tolerances go through ``solve`` (differentiable); the rest through an SVD (or, with
    ``hermitian``, an eigendecomposition). ``rcond`` is PyTorch's older name of ``rtol``
    (then with no ``atol``), also accepted positionally."""
    if rcond is not None:
        if atol is not None or rtol is not None:
            raise TypeError("linalg_pinv(): rcond cannot be given with atol or rtol")
        rtol = rcond
    rows, cols = A._np.shape[-2:]
    if hermitian:
        w, v = _blas.linalg.eigh(A._np)
        keep = np.abs(w) > _tolerances(np.abs(w), atol, rtol, (rows, cols))[..., None]
        inverse_w = np.where(keep, 1 / np.where(keep, w, 1), 0)
        result = _blas.matmul(v * inverse_w[..., None, :], np.swapaxes(v, -1, -2).conj())
        return _recorded_pinv(A, result)
    u, s, vh = _blas.linalg.svd(A._np, full_matrices=False)
    keep = s > _tolerances(s, atol, rtol, (rows, cols))[..., None]
    if A._np.ndim == 2 and keep.all() and atol is None and rtol is None:
        if rows >= cols:
            return solve(A.mT @ A, A.mT).contiguous()
        return solve(A @ A.mT, A).mT.contiguous()
    inverse_s = np.where(keep, 1 / np.where(keep, s, 1), 0)
    result = _blas.matmul(
        np.swapaxes(vh, -1, -2).conj() * inverse_s[..., None, :], np.swapaxes(u, -1, -2).conj()
    )
    return _recorded_pinv(A, result)


def _recorded_pinv(A: Tensor, array) -> Tensor:
    """A pseudo-inverse computed in NumPy, recorded so that it has a gradient (valid
    where the rank does not change, as PyTorch's)."""
    return record(PINV, (A,), _wrap(array, A._dtype))


PINV = _register("_pinv", _recorded_pinv, "_pinv(Tensor A) -> Tensor")


# ---------------------------------------------------------------------- norms


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:
    """Matrix norms over ``dim``: "fro", "nuc", 1, -1, 2, -2, inf, -inf."""
    from .reduction import amax, amin, vector_norm
    from .reduction import sum as reduce_sum

    if A._np.ndim < 2:
        raise RuntimeError(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
        )
    _check_float("matrix_norm", A)
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


def matrix_rank(A: Tensor, tol=None, hermitian: bool = False, *, atol=None, rtol=None) -> Tensor:
    """The number of singular values (absolute eigenvalues with ``hermitian``) above
    ``max(atol, rtol * largest)``; ``tol`` is the old spelling of ``atol`` (rtol 0)."""
    if tol is not None:
        atol, rtol = tol, 0.0
    _check_float("matrix_rank", A)
    if hermitian:
        values = np.abs(_blas.linalg.eigvalsh(A._np))
    else:
        values = _blas.linalg.svd(A._np, compute_uv=False)
    cutoff = _tolerances(values, atol, rtol, A._np.shape[-2:])
    return _wrap(as_array((values > cutoff[..., None]).sum(-1)), _dtype.int64)


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The vector norm (of the flattened tensor, or over one ``dim``) or the matrix norm
    (over two dims, or of a 2-D tensor when ``ord`` is given)."""
    from .reduction import vector_norm

    if dim is not None and not isinstance(dim, int) and len(dim) not in (1, 2):
        raise RuntimeError(
            f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dim)}"
        )
    if dim is None and ord is not None and A._np.ndim not in (1, 2):
        raise RuntimeError(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
            f"Got {A._np.ndim}D."
        )
    if isinstance(ord, str) and (dim is None or isinstance(dim, int) or len(dim) == 2):
        return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    if dim is not None and not isinstance(dim, int) and len(dim) == 2:
        return matrix_norm(A, "fro" if ord is None else ord, dim, keepdim, dtype=dtype)
    if ord is not None and dim is None and A._np.ndim == 2:
        return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)
