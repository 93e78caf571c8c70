"""Scans: ``logcumsumexp`` (with the log-add-exp of complex numbers it and
``torch.logaddexp`` use) and the in-place ``cumsum_``/``cumprod_``.

NOTE: ``logcumsumexp`` and ``_logaddexp_complex`` are recorded ops with derivative
entries; the in-place forms write the out-of-place results.
"""

from __future__ import annotations

import numpy as np

import torch

from .._tensor import Tensor
from ._dispatch import as_array, contiguous, defop, record, register_op
from .gather_scatter import _inplace
from .pointwise import _legacy_name as _legacy

__all__ = [
    "logcumsumexp",
]


# ---------------------------------------------------------- log-add-exp of complex numbers


def _complex_log1p(z: np.ndarray) -> np.ndarray:
    """c10's ``log1p`` of complex numbers on CPU (Kahan's: ``log(u) * z / (u - 1)`` with
    ``u = 1 + z``), part by part as c10 does it (adding 1 leaves the imaginary part's
    sign), so that results match PyTorch's, tiny-value overflows included."""
    z = as_array(z)
    u = np.array(z)
    u.real += 1
    log_u = np.log(u)
    back = np.array(u)
    back.real -= 1
    result = log_u * (z / back)
    result = np.where((back.real == z.real) & (back.imag == z.imag), log_u, result)
    return np.where((u.real == 1) & (u.imag == 0), z, result)


def _complex_log_add_exp(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``log(exp(x) + exp(y))`` of complex arrays as PyTorch's ``_log_add_exp_helper``
    (ATen/native/cpu/LogAddExp.h): shifted by the operand of larger real part; NaN in
    either operand gives NaN + NaN j; both real parts -inf give the second operand, both
    +inf the direct formula. Computed in the arrays' precision."""
    with np.errstate(all="ignore"):
        x_low = x.real < y.real  # ties: y is the low one
        low, high = np.where(x_low, x, y), np.where(x_low, y, x)
        result = _complex_log1p(np.exp(low - high)) + high
        infinite = ~np.isfinite(low.real) & (low.real == high.real)
        if infinite.any():
            direct = np.log(np.exp(low) + np.exp(high))
            result = np.where(infinite, np.where(low.real < 0, low, direct), result)
        nan = np.isnan(x.real) | np.isnan(x.imag) | np.isnan(y.real) | np.isnan(y.imag)
        if nan.any():
            nan_value = np.full((), np.nan, result.dtype)
            nan_value.imag = np.nan
            result = np.where(nan, nan_value, result)
    return result.astype(x.dtype, copy=False)


def _complex_logcumsumexp(array: np.ndarray, axis: int) -> np.ndarray:
    """Running ``_complex_log_add_exp(x_i, total)`` from total = -inf, accumulated in
    complex128 as PyTorch's CPU kernel does (its accumulation type) for complex64 too."""
    moved = np.moveaxis(array, axis, 0).astype(np.complex128)
    out = np.empty(moved.shape, np.complex128)
    total = np.full(moved.shape[1:], -np.inf, np.complex128)
    for i in range(moved.shape[0]):
        total = _complex_log_add_exp(moved[i], total)
        out[i] = total
    return np.moveaxis(out, 0, axis).astype(array.dtype)


def _logaddexp_complex(input: Tensor, other: Tensor) -> Tensor:
    """:func:`torch.logaddexp` of operands whose common dtype is complex (the real form
    is a composite in ``pointwise_composites``)."""
    from ._dispatch import result_type

    dtype = result_type(input, other)
    a = input._np.astype(dtype.np_dtype, copy=False)
    b = other._np.astype(dtype.np_dtype, copy=False)
    a, b = np.broadcast_arrays(a, b)
    result = Tensor._from_array(contiguous(_complex_log_add_exp(a, b)), dtype)
    return record(LOGADDEXP_COMPLEX, (input, other), result)


LOGADDEXP_COMPLEX = register_op(
    "_logaddexp_complex",
    _logaddexp_complex,
    "_logaddexp_complex(Tensor self, Tensor other) -> Tensor",
    "scans",
)


# ------------------------------------------------------------------------- reductions


@defop("logcumsumexp", method=True, out=True)
def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """``log(cumsum(exp(input)))`` along ``dim``, computed without overflow.

    Examples::

        >>> torch.logcumsumexp(torch.tensor([0.0, 0.0, 2.0]), 0)
        tensor([0.0000, 0.6931, 2.2395])
    """
    if not (input._dtype.is_floating_point or input._dtype.is_complex):
        raise NotImplementedError(
            f"\"logcumsumexp_out_cpu\" not implemented for '{_legacy(input._dtype)}'"
        )
    d = input._wrap_dim(dim) if input._np.ndim else 0
    array = input._np if input._np.ndim else input._np.reshape(1)
    if input._dtype.is_complex:
        result = _complex_logcumsumexp(array, d).reshape(input._np.shape)
    else:
        with np.errstate(all="ignore"):
            result = np.logaddexp.accumulate(array, axis=d).reshape(input._np.shape)
    # NOTE: asarray, not ascontiguousarray (which makes a 0-dim result 1-dim)
    out = Tensor._from_array(as_array(result, None, "C"), input._dtype)
    return record(LOGCUMSUMEXP, (input,), out, (d,))


LOGCUMSUMEXP = register_op(
    "logcumsumexp",
    logcumsumexp,
    "logcumsumexp(Tensor self, int dim) -> Tensor",
    "scans",
    saved=("dim",),
)


def _cumsum_(self: Tensor, dim: int, *, dtype=None) -> Tensor:
    return torch.cumsum(self, dim, dtype=dtype)


def _cumprod_(self: Tensor, dim: int, *, dtype=None) -> Tensor:
    return torch.cumprod(self, dim, dtype=dtype)


cumsum_ = _inplace(_cumsum_, "cumsum_")
cumprod_ = _inplace(_cumprod_, "cumprod_")
