"""Pointwise functions written once on top of primitive ops (their gradients come from
the parts): ``clamp_min``/``clamp_max``, ``sgn``, ``exp2``, ``deg2rad``/``rad2deg``,
``xlogy``, ``logaddexp``/``logaddexp2``, ``copysign``, ``float_power``, ``angle``, and
the tests ``signbit``, ``isreal``, ``isclose``, ``allclose``, ``equal``. Each has PyTorch's
``out=`` and in-place form where PyTorch has them."""

from __future__ import annotations

import math

import numpy as np

import torch

from .. import _dtype
from .._tensor import Tensor
from ._dispatch import as_array, check_tensor, contiguous, defop, kernel_refusal, result_type
from .gather_scatter import _inplace as _write_inplace
from .pointwise import INPLACE, abs, exp, log, mul, pow, sign, sub
from .pointwise import _legacy_name as _legacy
from .ternary import _inplace, clamp, where
from .unary_math import log1p

__all__ = [
    "clamp_min",
    "clamp_max",
    "sgn",
    "exp2",
    "deg2rad",
    "rad2deg",
    "xlogy",
    "logaddexp",
    "logaddexp2",
    "copysign",
    "float_power",
    "angle",
    "signbit",
    "isreal",
    "isclose",
    "allclose",
    "equal",
    "rsub",
    "sinc",
    "gcd",
    "lcm",
]


def _composite(function, inplace=True, out=True, torch_inplace=False, refuses_complex=None):
    """Declare ``function`` as a composite op (gradient from its parts) with a method,
    ``out=`` and an in-place method ``<name>_``."""
    name = function.__name__
    function = defop(
        name,
        function,
        method=True,
        inplace=inplace,
        out=out,
        torch_inplace=torch_inplace,
        refuses_complex=refuses_complex,
        complex_operands=2,
        family="composites",
        registered=True,
    )
    if inplace is True:
        _inplace(name, function, differentiable=False)
    return function


def _floating(x: Tensor) -> Tensor:
    """``x`` itself when floating or complex, else in the default float dtype."""
    if x._dtype.is_floating_point or x._dtype.is_complex:
        return x
    return x.to(_dtype.get_default_dtype())


def _as_tensor(x, like: Tensor) -> Tensor:
    if isinstance(x, Tensor):
        return x
    return Tensor._from_array(as_array(x, result_type(x, like).np_dtype))


# ------------------------------------------------------------------------ clamps


def clamp_min(input: Tensor, min) -> Tensor:  # noqa: A002
    """``input`` with every element below ``min`` raised to it.

    Examples::

        >>> torch.clamp_min(torch.tensor([1.0, 5.0]), 2)
        tensor([2., 5.])
    """
    return clamp(input, min=min)


def clamp_max(input: Tensor, max) -> Tensor:  # noqa: A002
    """``input`` with every element above ``max`` lowered to it.

    Examples::

        >>> torch.clamp_max(torch.tensor([1.0, 5.0]), 2)
        tensor([1., 2.])
    """
    return clamp(input, max=max)


# ------------------------------------------------------------------- unary maths


def sgn(input: Tensor) -> Tensor:
    """``sign`` for real tensors; ``z / |z|`` (0 at 0) for complex ones.

    Examples::

        >>> torch.sgn(torch.tensor([-2.0, 0.0, 3.0])), torch.sgn(torch.tensor([3 + 4j]))
        (tensor([-1.,  0.,  1.]), tensor([0.6000+0.8000j]))
    """
    check_tensor(input, "sgn")
    if not input._dtype.is_complex:
        return sign(input)
    # NOTE: |z| through the recorded abs, so the gradient sees the division by it; the
    # where keeps 0 / 0 (and its gradient) out at z = 0
    magnitude = abs(input)
    safe = where(magnitude == 0, 1.0, magnitude)
    return where(magnitude == 0, 0.0, input / safe)


def exp2(input: Tensor) -> Tensor:
    """``2 ** input`` elementwise (integers give the default float dtype).

    Examples::

        >>> torch.exp2(torch.tensor([1, 3]))
        tensor([2., 8.])
    """
    check_tensor(input, "exp2")
    return pow(2.0, _floating(input))


def deg2rad(input: Tensor) -> Tensor:
    """Degrees to radians.

    Examples::

        >>> torch.deg2rad(torch.tensor([180.0, -90.0]))
        tensor([ 3.1416, -1.5708])
    """
    check_tensor(input, "deg2rad")
    return mul(_floating(input), math.pi / 180.0)


def rad2deg(input: Tensor) -> Tensor:
    """Radians to degrees.

    Examples::

        >>> torch.rad2deg(torch.tensor([3.141592653589793 / 2]))
        tensor([90.])
    """
    check_tensor(input, "rad2deg")
    return mul(_floating(input), 180.0 / math.pi)


def angle(input: Tensor) -> Tensor:
    """The argument of each complex element; for real ones pi where negative, else 0
    (NaN stays NaN).

    Examples::

        >>> torch.angle(torch.tensor([-1.0, 2.0]))
        tensor([3.1416, 0.0000])
    """
    check_tensor(input, "angle")
    if input._dtype.is_complex:
        from .binary_math import atan2
        from .complex_views import imag, real

        return atan2(imag(input), real(input))
    x = _floating(input)
    return where(x < 0, math.pi, where(x != x, x, 0.0 * x))


# ------------------------------------------------------------------ binary maths


def xlogy(input, other) -> Tensor:
    """``input * log(other)``, defined as 0 where ``input`` is 0 (unless ``other`` is NaN).

    Examples::

        >>> torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0]))
        tensor([0.0000, 2.1972])
    """
    if not isinstance(input, Tensor):
        input = _as_tensor(input, other)
    x, y = _floating(input), other if not isinstance(other, Tensor) else _floating(other)
    y = _as_tensor(y, x)
    at_zero = (x == 0) & ~(y != y)  # the result is 0 there (NaN ``other`` stays NaN)
    # NOTE: PyTorch's gradient in ``input`` at input 0 is log(other) (0 where other <= 0),
    # so those entries keep a product whose value is cancelled but whose gradient is not;
    # other <= 0 and inf are replaced by 1 there, keeping that product finite
    unbounded = at_zero & ((y <= 0) | (y == math.inf))
    product = mul(x, log(where(unbounded, 1.0, y)))
    return where(at_zero, sub(product, product.detach()), product)


def _check_tensor_operands(name: str, input, other) -> None:
    """PyTorch's TypeError for a Python number given to an op without Scalar overloads."""
    for position, (argument, value) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(value, Tensor):
            raise TypeError(
                f"{name}(): argument '{argument}' (position {position}) must be Tensor, "
                f"not {type(value).__name__}"
            )


def _check_floating(name: str, *tensors) -> None:
    for t in tensors:
        if isinstance(t, Tensor) and not t._dtype.is_floating_point:
            raise NotImplementedError(
                f"\"{name}_cpu\" not implemented for '{t._dtype._legacy[:-6]}'"
            )


def logaddexp(input: Tensor, other: Tensor) -> Tensor:
    """``log(exp(input) + exp(other))`` without overflow.

    Examples::

        >>> torch.logaddexp(torch.tensor([1.0, -1e30]), torch.tensor([2.0, -1e30]))
        tensor([ 2.3133e+00, -1.0000e+30])
    """
    _check_tensor_operands("logaddexp", input, other)
    if input._dtype._category == 3 or other._dtype._category == 3:
        from .scans import _logaddexp_complex

        return _logaddexp_complex(input, other)
    _check_floating("logaddexp", input, other)
    # NOTE: max + log1p(exp(-|a - b|)) keeps exp's argument <= 0; where both are -inf the
    # difference is NaN, so equal inputs take the direct branch
    big = where(input > other, input, other)
    spread = -abs(sub(input, other))
    return where(input == other, input + math.log(2.0), big + log1p(exp(spread)))


def logaddexp2(input: Tensor, other: Tensor) -> Tensor:
    """``log2(2**input + 2**other)`` without overflow.

    Examples::

        >>> torch.logaddexp2(torch.tensor([1.0]), torch.tensor([1.0]))
        tensor([2.])
    """
    _check_tensor_operands("logaddexp2", input, other)
    _check_floating("logaddexp2", input, other)
    scale = math.log(2.0)
    return logaddexp(input * scale, other * scale) / scale


def copysign(input, other) -> Tensor:
    """The magnitudes of ``input`` with the signs of ``other`` (-0.0 counts as negative).

    Examples::

        >>> torch.copysign(torch.tensor([1.0, 2.0]), torch.tensor([-0.0, 1.0]))
        tensor([-1.,  2.])
    """
    x = _floating(input if isinstance(input, Tensor) else _as_tensor(input, other))
    negative = signbit(_floating(_as_tensor(other, x)))
    magnitude = abs(x)
    return where(negative, -magnitude, magnitude)


def float_power(input, exponent) -> Tensor:
    """``input ** exponent`` computed in double precision (complex128 for complex
    operands).

    Examples::

        >>> torch.float_power(torch.tensor([2]), 2)
        tensor([4.], dtype=torch.float64)
    """
    operands = [x for x in (input, exponent) if isinstance(x, Tensor)]
    complex_ = any(t._dtype.is_complex for t in operands) or isinstance(input, complex)
    complex_ = complex_ or isinstance(exponent, complex)
    target = _dtype.complex128 if complex_ else _dtype.float64
    base = input.to(target) if isinstance(input, Tensor) else input
    power = exponent.to(target) if isinstance(exponent, Tensor) else exponent
    return pow(base if isinstance(base, Tensor) else _as_tensor(base, power).to(target), power)


def _float_power_(self: Tensor, exponent) -> Tensor:
    target = (
        _dtype.complex128
        if self._dtype.is_complex or isinstance(exponent, complex)
        else _dtype.float64
    )
    if self._dtype is not target:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {self._dtype._legacy[:-6]} but the "
            f"operation's result requires dtype {target._legacy[:-6]}"
        )
    return INPLACE["pow_"](self, exponent.to(target) if isinstance(exponent, Tensor) else exponent)


# ------------------------------------------------------------------------- tests


def signbit(input: Tensor) -> Tensor:
    """Whether each element's sign bit is set (true for -0.0).

    Examples::

        >>> torch.signbit(torch.tensor([-0.0, 1.0, -2.0]))
        tensor([ True, False,  True])
    """
    check_tensor(input, "signbit")
    return Tensor._from_array(np.signbit(input._np), _dtype.bool_)


def isreal(input: Tensor) -> Tensor:
    """Whether each element is real (a zero imaginary part; always for real dtypes).

    Examples::

        >>> torch.isreal(torch.tensor([1 + 0j, 1j]))
        tensor([ True, False])
    """
    check_tensor(input, "isreal")
    if not input._dtype.is_complex:
        return Tensor._from_array(
            np.ones(input._np.shape, dtype=bool, like=input._np), _dtype.bool_
        )
    return Tensor._from_array(input._np.imag == 0, _dtype.bool_)


def _close(input: Tensor, other: Tensor, rtol, atol, equal_nan) -> np.ndarray:
    check_tensor(input, "isclose")
    check_tensor(other, "isclose", "other")
    if input._dtype is not other._dtype:
        raise RuntimeError(f"{input._dtype._legacy[:-6]} did not match {other._dtype._legacy[:-6]}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
    a, b = input._np, other._np
    if a.dtype.kind in "biu":
        a, b = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(all="ignore"):
        return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def isclose(
    input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan=False
) -> Tensor:
    """Whether ``|input - other| <= atol + rtol * |other|`` elementwise (equal infinities
    are close; NaNs only with ``equal_nan``).

    Examples::

        >>> torch.isclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0 + 1e-7, 2.1]))
        tensor([ True, False])
    """
    return Tensor._from_array(as_array(_close(input, other, rtol, atol, equal_nan)), _dtype.bool_)


def allclose(
    input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan=False
) -> bool:
    """Whether every element of ``input`` is close to ``other`` (see :func:`isclose`).

    Examples::

        >>> torch.allclose(torch.ones(2), torch.ones(2) + 1e-6)
        True
    """
    return bool(np.all(_close(input, other, rtol, atol, equal_nan)))


def equal(input: Tensor, other: Tensor) -> bool:
    """Whether ``input`` and ``other`` have the same shape and equal elements.

    Examples::

        >>> torch.equal(torch.ones(2), torch.ones(2, dtype=torch.int64))
        True
        >>> torch.equal(torch.ones(2), torch.ones(3))
        False
    """
    check_tensor(input, "equal")
    check_tensor(other, "equal", "other")
    if input._np.shape != other._np.shape:
        return False
    return bool(np.array_equal(input._np, other._np))


clamp_min = _composite(clamp_min, torch_inplace=True)
clamp_max = _composite(clamp_max, torch_inplace=True)
sgn = _composite(sgn)
exp2 = _composite(exp2, torch_inplace=True)
deg2rad = _composite(
    deg2rad,
    torch_inplace=True,
    refuses_complex=(RuntimeError, "deg2rad is not supported for complex tensors."),
)
rad2deg = _composite(
    rad2deg,
    torch_inplace=True,
    refuses_complex=(RuntimeError, "rad2deg is not supported for complex tensors."),
)
angle = _composite(angle, inplace=False)
xlogy = _composite(xlogy, torch_inplace=True, refuses_complex=kernel_refusal("xlogy_cpu"))
logaddexp = _composite(logaddexp, inplace=False)
logaddexp2 = _composite(logaddexp2, inplace=False, refuses_complex=kernel_refusal("logaddexp2_cpu"))
copysign = _composite(copysign, refuses_complex=kernel_refusal("copysign_cpu"))
float_power = _composite(float_power, inplace="float_power_")
INPLACE["float_power_"] = _float_power_
signbit = _composite(
    signbit,
    inplace=False,
    refuses_complex=(NotImplementedError, "signbit is not implemented for complex tensors."),
)
isreal = _composite(isreal, inplace=False, out=False)
isclose = _composite(isclose, inplace=False, out=False)
allclose = _composite(allclose, inplace=False, out=False)
equal = _composite(equal, inplace=False, out=False)


@defop("rsub")
def rsub(input: Tensor, other, *, alpha=1) -> Tensor:
    """``other - alpha * input``."""
    return (
        sub(other, input, alpha=alpha)
        if isinstance(other, Tensor)
        else (other - input * alpha if alpha != 1 else other - input)
    )


@defop("sinc", method=True, inplace=True, out=True, torch_inplace=True)
def sinc(input: Tensor) -> Tensor:
    """``sin(pi x) / (pi x)``, 1 at 0."""
    x = _as_float(input)
    zero = x == 0
    # NOTE: the division runs on a safe input so its gradient at 0 is not NaN
    safe = torch.where(zero, torch.ones_like(x), x) * math.pi
    return torch.where(zero, torch.ones_like(x), torch.sin(safe) / safe)


def _as_float(t: Tensor) -> Tensor:
    if t._dtype.is_floating_point or t._dtype.is_complex:
        return t
    return t.to(_dtype.get_default_dtype())


def _integer_pair(name: str, input: Tensor, other: Tensor, kernel) -> Tensor:
    if input._dtype.is_floating_point or input._dtype.is_complex:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_legacy(input._dtype)}'")
    dtype = _dtype.promote_types(input._dtype, other._dtype)
    result = kernel(input._np, other._np).astype(dtype.np_dtype)
    return Tensor._from_array(contiguous(result), dtype)


@defop("gcd", method=True, inplace=True, out=True, torch_inplace=True)
def gcd(input: Tensor, other: Tensor) -> Tensor:
    """The greatest common divisor elementwise (non-negative) of integer tensors."""
    return _integer_pair("gcd", input, other, np.gcd)


@defop("lcm", method=True, inplace=True, out=True, torch_inplace=True)
def lcm(input: Tensor, other: Tensor) -> Tensor:
    """The least common multiple elementwise (non-negative) of integer tensors."""
    return _integer_pair("lcm", input, other, np.lcm)


gcd_ = _write_inplace(gcd, "gcd_")
lcm_ = _write_inplace(lcm, "lcm_")
sinc_ = _write_inplace(sinc, "sinc_")


@defop("logical_not_", method=True, public=False)
def logical_not_(self: Tensor) -> Tensor:
    """In-place logical not: 1 where ``self`` is 0, else 0 (in ``self``'s dtype)."""
    result = torch.logical_not(self)
    self._np[...] = result._np
    self._bump_version()
    return self
