"""The array API standard's ``linalg`` extension."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import torch

from ._helpers import array, check_dtype, errstate, needs_grad, wrap
from ._manipulation import _common, matmul, matrix_transpose, tensordot, vecdot

__all__ = [
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]


class EighResult(NamedTuple):
    eigenvalues: torch.Tensor
    eigenvectors: torch.Tensor


class QRResult(NamedTuple):
    Q: torch.Tensor
    R: torch.Tensor


class SlogdetResult(NamedTuple):
    sign: torch.Tensor
    logabsdet: torch.Tensor


class SVDResult(NamedTuple):
    U: torch.Tensor
    S: torch.Tensor
    Vh: torch.Tensor


def _float(x) -> np.ndarray:
    a = array(x)
    if a.dtype.kind not in "fc":
        raise TypeError(f"linalg functions need a floating-point array, got {x.dtype}")
    return a


def cholesky(x, /, *, upper=False):
    """The Cholesky factor of a Hermitian positive-definite ``x`` (lower by default)."""
    if needs_grad(x):
        return torch.linalg.cholesky(x, upper=upper)
    lower = np.linalg.cholesky(_float(x))
    return wrap(np.conj(np.swapaxes(lower, -1, -2)) if upper else lower)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along ``axis``."""
    a, b = _common([x1, x2])
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError("cross needs vectors of 3 elements along axis")
    return wrap(np.linalg.cross(a, b, axis=axis))


def det(x, /):
    """The determinant of each matrix of ``x``."""
    if needs_grad(x):
        return torch.linalg.det(x)
    with errstate():
        return wrap(np.linalg.det(_float(x)))


def diagonal(x, /, *, offset=0):
    """The diagonal ``offset`` of each matrix of ``x``."""
    return wrap(np.linalg.diagonal(array(x), offset=offset).copy())


def eigh(x, /):
    """Eigenvalues (ascending) and eigenvectors of Hermitian ``x``."""
    values, vectors = np.linalg.eigh(_float(x))
    return EighResult(wrap(values), wrap(vectors))


def eigvalsh(x, /):
    """Eigenvalues (ascending) of Hermitian ``x``."""
    return wrap(np.linalg.eigvalsh(_float(x)))


def inv(x, /):
    """The inverse of each matrix of ``x``."""
    if needs_grad(x):
        return torch.linalg.inv(x)
    return wrap(np.linalg.inv(_float(x)))


def matrix_norm(x, /, *, keepdims=False, ord="fro"):  # noqa: A002 - the standard's name
    """A norm of each matrix of ``x`` (``'fro'``, ``'nuc'``, 1, 2, inf, -1, -2, -inf)."""
    if needs_grad(x):
        return torch.linalg.matrix_norm(x, ord=ord, keepdim=keepdims)
    with errstate():
        return wrap(np.linalg.matrix_norm(_float(x), keepdims=keepdims, ord=ord))


def matrix_power(x, n, /):
    """``x`` (square matrices) to the integer power ``n``."""
    return wrap(np.linalg.matrix_power(array(x), n))


def matrix_rank(x, /, *, rtol=None):
    """The rank of each matrix of ``x``: singular values above ``rtol`` times the largest."""
    a = _float(x)
    singular = np.linalg.svd(a, compute_uv=False)
    if rtol is None:
        rtol = max(a.shape[-2:]) * np.finfo(singular.dtype).eps
    elif isinstance(rtol, torch.Tensor):
        rtol = array(rtol, "rtol")[..., np.newaxis]
    tolerance = np.max(singular, axis=-1, keepdims=True) * rtol
    return wrap(np.count_nonzero(singular > tolerance, axis=-1).astype(np.int64))


def outer(x1, x2, /):
    """The outer product of two 1-D arrays."""
    a, b = _common([x1, x2])
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError("outer needs two 1-D arrays")
    return wrap(np.outer(a, b))


def pinv(x, /, *, rtol=None):
    """The pseudo-inverse of each matrix of ``x`` (singular values below ``rtol`` times
    the largest count as zero)."""
    a = _float(x)
    if rtol is None:
        rtol = max(a.shape[-2:]) * np.finfo(a.dtype).eps
    elif isinstance(rtol, torch.Tensor):
        rtol = array(rtol, "rtol")
    return wrap(np.linalg.pinv(a, rtol=rtol))


def qr(x, /, *, mode="reduced"):
    """The QR decomposition of each matrix of ``x`` (``mode`` ``'reduced'`` or
    ``'complete'``)."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"mode must be 'reduced' or 'complete', got {mode!r}")
    q, r = np.linalg.qr(_float(x), mode=mode)
    return QRResult(wrap(q), wrap(r))


def slogdet(x, /):
    """The sign and log of the absolute value of each determinant of ``x``."""
    with errstate():
        sign, logabsdet = np.linalg.slogdet(_float(x))
    return SlogdetResult(wrap(sign), wrap(logabsdet))


def solve(x1, x2, /):
    """The solution ``x`` of ``x1 @ x = x2`` (``x2`` a vector when it is 1-D)."""
    if needs_grad(x1, x2):
        return torch.linalg.solve(x1, x2)
    a, b = _common([x1, x2])
    if b.ndim == 1:
        return wrap(np.linalg.solve(a, b[..., np.newaxis])[..., 0])
    return wrap(np.linalg.solve(a, b))


def svd(x, /, *, full_matrices=True):
    """``U, S, Vh`` with ``x = U @ diag(S) @ Vh`` for each matrix of ``x``."""
    u, s, vh = np.linalg.svd(_float(x), full_matrices=full_matrices)
    return SVDResult(wrap(u), wrap(s), wrap(vh))


def svdvals(x, /):
    """The singular values (descending) of each matrix of ``x``."""
    return wrap(np.linalg.svdvals(_float(x)))


def trace(x, /, *, offset=0, dtype=None):
    """The sum of diagonal ``offset`` of each matrix of ``x`` (sum's dtype rules)."""
    from ._reductions import _accumulation_dtype

    check_dtype(dtype)
    result = np.linalg.trace(array(x), offset=offset, dtype=_accumulation_dtype(x, dtype))
    return wrap(result)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002
    """The ``ord``-norm of ``x`` over ``axis`` (all elements when None)."""
    if needs_grad(x):
        return torch.linalg.vector_norm(x, ord=ord, dim=axis, keepdim=keepdims)
    axis = tuple(axis) if isinstance(axis, list) else axis
    with errstate():
        return wrap(np.linalg.vector_norm(_float(x), axis=axis, keepdims=keepdims, ord=ord))
