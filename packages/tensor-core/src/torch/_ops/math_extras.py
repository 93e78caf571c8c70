"""Pointwise functions and reductions that complete the math API: ``frexp``, ``ldexp``,
``nextafter``, ``heaviside``, ``conj``, ``polar``, ``complex``, ``logcumsumexp``,
``nanmedian``, ``quantile``, ``nanquantile``, ``dist`` and the in-place ``cumsum_``,
``cumprod_``, ``logical_not_``.

NOTE: all but ``logcumsumexp``, ``nextafter`` and ``heaviside`` are composites of
differentiable ops, so only those three have derivative entries (``heaviside``'s raises,
as PyTorch's backward does: it records the op but has no derivative for it); ``conj``
and ``complex`` are recorded ops of the complex-view family (``complex_views.py``),
re-exported from this module.
"""

from __future__ import annotations

import numpy as np

import torch

from .. import _dtype, _return_types
from .._tensor import Tensor
from ._dispatch import defop, record, refuse_complex, register_op
from .complex_views import _complex_parts_check, complex, conj
from .gather_scatter import _inplace

__all__ = [
    "frexp",
    "ldexp",
    "nextafter",
    "heaviside",
    "conj",
    "polar",
    "complex",
    "logcumsumexp",
    "nanmedian",
    "quantile",
    "nanquantile",
    "dist",
]


def _legacy(d) -> str:
    return d._legacy[:-6]


# -------------------------------------------------------------------------- pointwise


@defop("frexp", method=True, out=True)
def frexp(input: Tensor):
    """``(mantissa, exponent)`` with ``input = mantissa * 2 ** exponent`` and
    ``0.5 <= |mantissa| < 1`` (``exponent`` is int32).

    Examples::

        >>> import torch
        >>> torch.frexp(torch.tensor([8.0, 0.3]))
        torch.return_types.frexp(
        mantissa=tensor([0.5000, 0.6000]),
        exponent=tensor([ 4, -1], dtype=torch.int32))
    """
    if not input._dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    _, exponent = np.frexp(input._np)
    exponent = np.asarray(exponent, dtype=np.int32)
    # NOTE: the mantissa as input * 2 ** -exponent, so its gradient is 2 ** -exponent
    scale = Tensor._from_array(np.ldexp(np.ones(exponent.shape), -exponent), _dtype.float64)
    mantissa = input * scale.to(input.dtype)
    return _return_types.frexp(mantissa, Tensor._from_array(exponent, _dtype.int32))


@defop("ldexp", method=True, inplace=True, out=True, torch_inplace=True)
def ldexp(input: Tensor, other: Tensor) -> Tensor:
    """``input * 2 ** other`` (a floating result)."""
    scale = torch.pow(2.0, other) if isinstance(other, Tensor) else 2.0**other
    if not input._dtype.is_floating_point and not input._dtype.is_complex:
        input = input.to(_dtype.get_default_dtype())
    return input * scale


def ldexp_(self: Tensor, other: Tensor) -> Tensor:
    """In-place :func:`ldexp`."""
    return self.mul_(torch.pow(2.0, other) if isinstance(other, Tensor) else 2.0**other)


def _same_float_check(name: str, input: Tensor, other: Tensor) -> None:
    if not input._dtype.is_floating_point:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_legacy(input._dtype)}'")


@defop("nextafter", method=True, inplace=True, out=True)
def nextafter(input: Tensor, other: Tensor) -> Tensor:
    """The next floating-point value after ``input`` towards ``other``."""
    _same_float_check("nextafter", input, other)
    a, b = np.broadcast_arrays(input._np, other._np.astype(input._dtype.np_dtype, copy=False))
    result = Tensor._from_array(np.nextafter(a, b), input._dtype)
    return record(NEXTAFTER, (input, other), result)


NEXTAFTER = register_op(
    "nextafter", nextafter, "nextafter(Tensor self, Tensor other) -> Tensor", "math_extras"
)


def _heaviside(input: Tensor, values: Tensor, op) -> Tensor:
    if input._dtype is not values._dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    a, b = np.broadcast_arrays(input._np, values._np)
    result = Tensor._from_array(np.heaviside(a, b).astype(input._dtype.np_dtype), input._dtype)
    return record(op, (input, values), result)


@defop(
    "heaviside",
    method=True,
    inplace=True,
    out=True,
    refuses_complex=(RuntimeError, "heaviside is not yet implemented for complex tensors."),
    complex_operands=2,
)
def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """The step function: 0 where ``input < 0``, ``values`` where it is 0, 1 above."""
    return _heaviside(input, values, HEAVISIDE)


def _heaviside_into(input: Tensor, values: Tensor) -> Tensor:
    return _heaviside(input, values, HEAVISIDE_INPLACE)


HEAVISIDE = register_op(
    "heaviside", heaviside, "heaviside(Tensor self, Tensor values) -> Tensor", "math_extras"
)
# recorded as itself by the in-place form, whose backward names it (as PyTorch's does)
HEAVISIDE_INPLACE = register_op(
    "heaviside_",
    _heaviside_into,
    "heaviside_(Tensor(a!) self, Tensor values) -> Tensor(a!)",
    "math_extras",
    inplace=True,
    out_of_place="heaviside",
)


@defop("polar", out=True)
def polar(abs: Tensor, angle: Tensor) -> Tensor:  # noqa: A002 - PyTorch's names
    """The complex numbers ``abs * (cos(angle) + i sin(angle))``."""
    _complex_parts_check(abs, angle)
    return complex(abs * torch.cos(angle), abs * torch.sin(angle))


# ---------------------------------------------------------- log-add-exp of complex numbers


def _complex_log1p(z: np.ndarray) -> np.ndarray:
    """c10's ``log1p`` of complex numbers on CPU (Kahan's: ``log(u) * z / (u - 1)`` with
    ``u = 1 + z``), part by part as c10 does it (adding 1 leaves the imaginary part's
    sign), so that results match PyTorch's, tiny-value overflows included."""
    z = np.asarray(z)
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
    result = Tensor._from_array(np.ascontiguousarray(_complex_log_add_exp(a, b)), dtype)
    return record(LOGADDEXP_COMPLEX, (input, other), result)


LOGADDEXP_COMPLEX = register_op(
    "_logaddexp_complex",
    _logaddexp_complex,
    "_logaddexp_complex(Tensor self, Tensor other) -> Tensor",
    "math_extras",
)


# ------------------------------------------------------------------------- reductions


@defop("logcumsumexp", method=True, out=True)
def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """``log(cumsum(exp(input)))`` along ``dim``, computed without overflow.

    Examples::

        >>> import torch
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
    out = Tensor._from_array(np.asarray(result, order="C"), input._dtype)
    return record(LOGCUMSUMEXP, (input,), out, (d,))


LOGCUMSUMEXP = register_op(
    "logcumsumexp",
    logcumsumexp,
    "logcumsumexp(Tensor self, int dim) -> Tensor",
    "math_extras",
    saved=("dim",),
)


@defop("nanmedian", method=True, out=True)
def nanmedian(input: Tensor, dim=None, keepdim: bool = False):
    """The median ignoring NaNs (the lower of the two middle values for an even count);
    with ``dim``, ``(values, indices)``. A slice of NaNs only gives NaN."""
    if input._dtype is _dtype.bool_:
        kernel = "median_cpu" if dim is None else "median_out"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    if input._dtype._category == 3:
        refuse_complex("median" if dim is None else "median.dim", input._dtype)
    if dim is None:
        flat = input.reshape(-1)
        if flat._np.size == 0:
            return torch.tensor(float("nan"), dtype=input.dtype)
        return nanmedian(flat, 0).values.reshape(())
    d = input._wrap_dim(dim) if input._np.ndim else 0
    work = input if input._np.ndim else input.reshape(1)
    order = torch.sort(work, d)
    count = (~torch.isnan(work)).sum(d, keepdim=True) if work.is_floating_point() else None
    size = work.shape[d]
    middle = (count - 1).clamp(min=0) // 2 if count is not None else None
    if middle is None:
        shape = list(work.shape)
        shape[d] = 1
        middle = torch.full(shape, (size - 1) // 2, dtype=_dtype.int64)
    values = order.values.gather(d, middle)
    indices = order.indices.gather(d, middle)
    if not keepdim or not input._np.ndim:
        values, indices = values.squeeze(d), indices.squeeze(d)
    return _return_types.nanmedian(values, indices)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _check_quantile(input: Tensor, q, interpolation: str):
    if input._dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if input._np.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, Tensor):
        if q._np.ndim > 1:
            raise RuntimeError("quantile() q must be a scalar or 1D tensor")
        if q._dtype is not input._dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        values = q._np.astype(np.float64).reshape(-1)
    else:
        values = np.array([float(q)])
    if values.size and (values.min() < 0 or values.max() > 1):
        bad = values.min() if values.min() < 0 else values.max()
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {bad:g}")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or "
            f"nearest, but got {interpolation}"
        )
    return values


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan) -> Tensor:
    levels = _check_quantile(input, q, interpolation)
    work = input.reshape(-1) if dim is None else input
    d = work._wrap_dim(dim) if dim is not None and work._np.ndim else 0
    if not work._np.ndim:
        work = work.reshape(1)
    ordered = torch.sort(work.movedim(d, -1), -1).values  # NaN last
    nan = np.isnan(ordered._np)
    count = (ordered._np.shape[-1] - nan.sum(-1, keepdims=True)) if ignore_nan else None
    if count is None:
        count = np.full(ordered._np.shape[:-1] + (1,), ordered._np.shape[-1])
    results = []
    for level in levels:
        # in the input's precision, as PyTorch computes it ("nearest" rounds half to even)
        dtype = input._dtype.np_dtype
        rank = (dtype.type(level) * np.maximum(count - 1, 0).astype(dtype)).astype(np.float64)
        if interpolation == "nearest":
            rank = np.round(rank)
        low = np.floor(rank).astype(np.int64)
        high = np.ceil(rank).astype(np.int64)
        v_low = ordered.gather(-1, Tensor._from_array(low, _dtype.int64))
        v_high = ordered.gather(-1, Tensor._from_array(high, _dtype.int64))
        if interpolation in ("lower", "nearest"):
            value = v_low
        elif interpolation == "higher":
            value = v_high
        elif interpolation == "midpoint":
            value = (v_low + v_high) / 2
        else:
            weight = Tensor._from_array((rank - low).astype(input._dtype.np_dtype), input._dtype)
            value = torch.lerp(v_low, v_high, weight)
        undefined = (count == 0) if ignore_nan else nan.any(-1, keepdims=True)
        if undefined.any():
            mask = Tensor._from_array(undefined, _dtype.bool_)
            value = torch.where(mask, torch.full_like(value, float("nan")), value)
        results.append(value.squeeze(-1))
    # (levels, reduced dims...), the levels' dim innermost in memory as in PyTorch
    out = torch.stack(results, -1).movedim(-1, 0)
    if keepdim:
        if dim is None:
            out = out.reshape((len(levels),) + (1,) * input._np.ndim)
        elif input._np.ndim:
            out = out.unsqueeze(d + 1)
    if not isinstance(q, Tensor) or q._np.ndim == 0:
        out = out.squeeze(0)
    return out


@defop(
    "quantile",
    method=True,
    out=True,
    refuses_complex=(RuntimeError, "quantile() input tensor must be either float or double dtype"),
)
def quantile(input: Tensor, q, dim=None, keepdim: bool = False, *, interpolation="linear"):
    """The ``q``-th quantiles (a number or a 1-D tensor of levels in [0, 1]) over ``dim``
    (the flattened input by default); a slice containing NaN gives NaN. Several levels
    add a leading dim to the result."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=False)


@defop(
    "nanquantile",
    method=True,
    out=True,
    refuses_complex=(RuntimeError, "quantile() input tensor must be either float or double dtype"),
)
def nanquantile(input: Tensor, q, dim=None, keepdim: bool = False, *, interpolation="linear"):
    """:func:`quantile` ignoring NaNs (a slice of NaNs only gives NaN)."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)


@defop("dist", method=True)
def dist(input: Tensor, other: Tensor, p=2) -> Tensor:
    """The p-norm of ``input - other`` (broadcast)."""
    if not (input._dtype.is_floating_point or input._dtype.is_complex):
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. Got "
            f"{_legacy(input._dtype)} instead."
        )
    return torch.linalg.vector_norm(input - other, p)


def _cumsum_(self: Tensor, dim: int, *, dtype=None) -> Tensor:
    return torch.cumsum(self, dim, dtype=dtype)


def _cumprod_(self: Tensor, dim: int, *, dtype=None) -> Tensor:
    return torch.cumprod(self, dim, dtype=dtype)


cumsum_ = _inplace(_cumsum_, "cumsum_")
cumprod_ = _inplace(_cumprod_, "cumprod_")
nextafter_ = _inplace(nextafter, "nextafter_")
heaviside_ = _inplace(_heaviside_into, "heaviside_")


@defop("logical_not_", method=True, public=False)
def logical_not_(self: Tensor) -> Tensor:
    """In-place logical not: 1 where ``self`` is 0, else 0 (in ``self``'s dtype)."""
    result = torch.logical_not(self)
    self._np[...] = result._np
    self._bump_version()
    return self
