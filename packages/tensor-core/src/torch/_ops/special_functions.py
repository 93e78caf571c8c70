"""Special functions of ``torch.special`` that need kernels of their own: the modified
Bessel functions ``i0``, ``i1`` and their exponentially scaled forms ``i0e``, ``i1e``;
``polygamma``, the Hurwitz ``zeta``, the regularised incomplete gamma functions and the
orthogonal polynomials. The rest of ``torch.special`` is composites (torch/special).

The Bessel kernels sum the power series up to |x| = 30 and the large-argument asymptotic
series beyond (both converge to double precision there); zeta uses Euler-Maclaurin
summation; the incomplete gamma functions a power series or a continued fraction.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype, _grad_mode
from .._interface import OpDef, ops
from .._tensor import Tensor
from ._dispatch import (
    adopt_history,
    as_array,
    check_inplace,
    defop,
    kernel_refusal,
    record,
    refuse_complex,
    register_op,
)
from .pointwise import INPLACE, _floating_result, _snapshot, _unary

__all__ = ["i0", "polygamma", "mvlgamma", "igamma", "igammac"]

_FAMILY = "special"


# --------------------------------------------------------------------------- Bessel


def _scaled_bessel(x: np.ndarray, order: int) -> np.ndarray:
    """``exp(-|x|) * I_order(|x|)`` for order 0 or 1, in float64."""
    a = np.abs(as_array(x, np.float64))
    result = np.empty_like(a)
    small = a <= 30
    if small.any():
        s = a[small]
        quarter = (s / 2) ** 2
        term = (s / 2) ** order / math.factorial(order)
        total = term.copy()
        for k in range(1, 120):
            term = term * quarter / (k * (k + order))
            total += term
        result[small] = total * np.exp(-s)
    large = ~small
    if large.any():
        s = a[large]
        mu = 4.0 * order * order
        term = np.ones_like(s)
        total = term.copy()
        for k in range(1, 60):
            term = term * -(mu - (2 * k - 1) ** 2) / (k * 8.0 * s)
            total += term
        result[large] = total / np.sqrt(2 * np.pi * s)
    result[np.isnan(a)] = np.nan
    return result


def _bessel_kernel(order: int, scaled: bool):
    def kernel(array: np.ndarray) -> np.ndarray:
        value = _scaled_bessel(array, order)
        if not scaled:
            with np.errstate(over="ignore", invalid="ignore"):
                value = np.where(np.isinf(array), np.inf, value * np.exp(np.abs(array)))
        if order == 1:
            value = np.sign(array) * value
        return value.astype(array.dtype)

    return kernel


def _special_unary(name: str, kernel, doc: str, method: bool = True, refuses_complex=None):
    function = _unary(
        name,
        kernel,
        doc,
        True,
        check=_floating_result,
        family=_FAMILY,
        refuses_complex=refuses_complex,
    )
    if not method:  # torch.special-only functions have no in-place Tensor method
        INPLACE.pop(name + "_", None)
        public = "torch.special." + name[len("special_") :]
        ops[name].extra["binding"] = public
        ops[name + "_"].extra["binding"] = public
    return function


def _modified_bessel(name, order, scaled, doc, refusing_kernel, method=False):
    """``I0``/``I1`` (``scaled``: times ``exp(-|x|)``) as an op; complex inputs are refused
    with the error of PyTorch's ``refusing_kernel``."""
    refusal = kernel_refusal(refusing_kernel)
    kernel = _bessel_kernel(order, scaled)
    return _special_unary(name, kernel, doc, method=method, refuses_complex=refusal)


i0 = _modified_bessel(
    "i0",
    0,
    False,
    """The modified Bessel function of the first kind of order 0.

Examples::

    >>> torch.i0(torch.tensor([0.0, 1.0]))
    tensor([1.0000, 1.2661])
""",
    "i0_vml_cpu",
    method=True,
)
defop("i0", i0, method=True, inplace=True, torch_inplace=True)
special_i0e = _modified_bessel("special_i0e", 0, True, "``exp(-|x|) * i0(x)``.", "i0e_cpu")
special_i1 = _modified_bessel(
    "special_i1", 1, False, "The modified Bessel function of the first kind of order 1.", "i1_cpu"
)
special_i1e = _modified_bessel("special_i1e", 1, True, "``exp(-|x|) * i1(x)``.", "i1e_cpu")


# ----------------------------------------------------------------- zeta, polygamma

# B_2k / (2k)! for k = 1..12 (Bernoulli numbers over factorials), for Euler-Maclaurin
_BERNOULLI_OVER_FACTORIAL = [
    1 / 12,
    -1 / 720,
    1 / 30240,
    -1 / 1209600,
    1 / 47900160,
    -691 / 1307674368000,
    1 / 74724249600,
    -3617 / 10670622842880000,
    43867 / 5109094217170944000,
    -174611 / 802857662698291200000,
    77683 / 14101100039391805440000,
    -236364091 / 1693824136731743669452800000,
]


def _hurwitz_zeta(s: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``sum over k >= 0 of (k + q) ** -s`` for s > 1 (inf at s = 1, NaN below), by
    Euler-Maclaurin summation after N direct terms."""
    q = as_array(q, np.float64)
    if not hasattr(s, "shape"):  # a number: an array where q lives (its device)
        s = np.full(q.shape, s, dtype=np.float64, like=q)
    s, q = np.broadcast_arrays(as_array(s, np.float64), q)
    with np.errstate(all="ignore"):
        n = 12
        total = np.zeros(s.shape, like=s)  # on the device of s
        for k in range(n):
            total += (q + k) ** -s
        a = q + n
        total += a ** (1 - s) / (s - 1) + 0.5 * a**-s
        rising = s.copy()  # s (s + 1) ... (s + 2j - 2)
        power = a ** (-s - 1)
        for j, coefficient in enumerate(_BERNOULLI_OVER_FACTORIAL, start=1):
            total += coefficient * rising * power
            rising = rising * (s + 2 * j - 1) * (s + 2 * j)
            power = power / (a * a)
        total = np.where(s == 1, np.inf, total)
        total = np.where(s < 1, np.nan, total)
        # q a non-positive integer: a pole
        total = np.where((q <= 0) & (q == np.floor(q)), np.inf, total)
    return total


@defop(
    "special_zeta", public=False, refuses_complex={"": kernel_refusal("zeta_cpu")}
)  # special.zeta
def special_zeta(input, other) -> Tensor:
    """The Hurwitz zeta function ``zeta(x, q)`` (no gradient, as in PyTorch)."""
    from ._dispatch import result_type

    _check_overload("special_zeta", input, other)
    dtype = result_type(input, other)
    refuse_complex("special_zeta", dtype)
    dtype = _floating_result(dtype)
    x = input._np if isinstance(input, Tensor) else as_array(input)
    q = other._np if isinstance(other, Tensor) else as_array(other)
    value = _hurwitz_zeta(x, q).astype(dtype.np_dtype)
    return Tensor._from_array(as_array(value, None, "C"), dtype)


ops.lookup("special_zeta").extra["binding"] = "torch.special.zeta"


def _polygamma_array(n: int, x: np.ndarray) -> np.ndarray:
    from .._native import special_of

    if n == 0:
        return special_of("digamma", x.astype(np.float64))
    if n == 1:
        return special_of("trigamma", x.astype(np.float64))
    sign = -1.0 if n % 2 == 0 else 1.0
    return sign * math.factorial(n) * _hurwitz_zeta(n + 1, x)


def polygamma(n: int, input: Tensor) -> Tensor:
    """The ``n``-th derivative of the digamma function."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if input._dtype._category == 3:
        refuse_complex(("digamma", "polygamma.1")[n] if n < 2 else "polygamma", input._dtype)
    dtype = _floating_result(input._dtype)
    with np.errstate(all="ignore"):
        value = _polygamma_array(int(n), input._np).astype(dtype.np_dtype)
    result = Tensor._from_array(as_array(value, None, "C"), dtype)
    return record(POLYGAMMA, (input,), result, (int(n),))


POLYGAMMA = register_op(
    "polygamma", polygamma, "polygamma(int n, Tensor self) -> Tensor", _FAMILY, saved=("n",)
)


def _polygamma_method(self: Tensor, n: int) -> Tensor:
    return polygamma(n, self)


defop(
    "polygamma",
    polygamma,
    method=_polygamma_method,
    inplace=True,
    out=True,
    refuses_complex={"": kernel_refusal("polygamma"), "1": kernel_refusal("trigamma")},
)


@defop("mvlgamma", method=True, inplace=True, out=True)
def mvlgamma(input: Tensor, p: int) -> Tensor:
    """The log of the multivariate gamma function of dimension ``p``."""
    from .reduction import sum as reduce_sum
    from .unary_math import lgamma

    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = input if input._dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    offsets = np.arange(p, dtype=x._np.dtype, like=x._np) / -2  # on the device of x
    offsets = Tensor._from_array(offsets, x._dtype)
    terms = lgamma(x.unsqueeze(-1) + offsets)
    return reduce_sum(terms, -1) + p * (p - 1) / 4 * math.log(math.pi)


def multigammaln(input: Tensor, p: int) -> Tensor:
    """``torch.special``'s :func:`mvlgamma` (no argument check, as in PyTorch)."""
    from .reduction import sum as reduce_sum
    from .unary_math import lgamma

    x = input if input._dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    offsets = Tensor._from_array(np.arange(p, dtype=x._np.dtype) / -2, x._dtype)
    return reduce_sum(lgamma(x.unsqueeze(-1) + offsets), -1) + p * (p - 1) / 4 * math.log(math.pi)


# ---------------------------------------------------------- incomplete gamma


def _regularized_gamma(a: np.ndarray, x: np.ndarray, upper: bool) -> np.ndarray:
    """P(a, x) (or Q = 1 - P with ``upper``): a series where x < a + 1, else a
    continued fraction for Q (evaluated by the modified Lentz method)."""
    a, x = np.broadcast_arrays(as_array(a, np.float64), as_array(x, np.float64))
    out = np.full(a.shape, np.nan)
    with np.errstate(all="ignore"):
        log_prefix = (
            a * np.log(x) - x - np.vectorize(math.lgamma, otypes=[float])(np.where(a > 0, a, 1.0))
        )
        series = (x < a + 1) & (a > 0) & (x >= 0)
        if series.any():
            aa, xx = a[series], x[series]
            term = 1.0 / aa
            total = term.copy()
            for k in range(1, 500):
                term = term * xx / (aa + k)
                total += term
            p = np.exp(log_prefix[series]) * total
            out[series] = 1 - p if upper else p
        fraction = (x >= a + 1) & (a > 0)
        if fraction.any():
            aa, xx = a[fraction], x[fraction]
            tiny = 1e-300
            b = xx + 1 - aa
            c = np.full_like(b, 1 / tiny)
            d = 1 / b
            h = d.copy()
            for i in range(1, 500):
                an = -i * (i - aa)
                b = b + 2
                d = an * d + b
                d = np.where(np.abs(d) < tiny, tiny, d)
                c = b + an / c
                c = np.where(np.abs(c) < tiny, tiny, c)
                d = 1 / d
                h = h * d * c
            q = np.exp(log_prefix[fraction]) * h
            out[fraction] = q if upper else 1 - q
        out = np.where((x == 0) & (a > 0), 1.0 if upper else 0.0, out)
        out = np.where(np.isinf(x) & (x > 0) & (a > 0), 0.0 if upper else 1.0, out)
    return out


def _check_overload(name: str, input, other) -> None:
    """PyTorch's TypeError for a binary special function given no tensor (two numbers)."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got "
            f"({type(input).__name__}, {type(other).__name__}), but expected one of:\n"
            " * (Tensor input, Tensor other, *, Tensor out = None)\n"
            " * (Number self, Tensor other, *, Tensor out = None)\n"
            " * (Tensor input, Number other, *, Tensor out = None)\n"
        )


def _check_tensors(name: str, first: int, **operands) -> None:
    """PyTorch's TypeError for an operand that is not a tensor (a Python number): the
    incomplete gamma functions have no Scalar overloads. ``first`` is the position of the
    first operand (1 for the functions, 0 for the methods, whose self is not counted)."""
    for position, (argument, value) in enumerate(operands.items(), start=first):
        if position and not isinstance(value, Tensor):
            raise TypeError(
                f"{name}(): argument '{argument}' (position {position}) must be Tensor, "
                f"not {type(value).__name__}"
            )


def _incomplete_dtype(input: Tensor, other: Tensor, upper: bool):
    """The dtype of ``igamma``/``igammac`` of two tensors: their common dtype, which the
    kernel (floating types only) must support."""
    from ._dispatch import result_type

    name = "igammac" if upper else "igamma"
    dtype = result_type(input, other)
    refuse_complex(name, dtype)
    if dtype._category < 2:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dtype._legacy[:-6]}'")
    return dtype


def _incomplete(input, other, upper: bool) -> Tensor:
    dtype = _incomplete_dtype(input, other, upper)
    value = _regularized_gamma(input._np, other._np, upper).astype(dtype.np_dtype)
    result = Tensor._from_array(as_array(value, None, "C"), dtype)
    # differentiable in ``other`` only, as in PyTorch (the backward for ``input`` raises)
    return record(IGAMMAC if upper else IGAMMA, (input, other), result)


# NOTE: not in the op registry (no op-database entries): recorded for autograd only
IGAMMA = OpDef(
    name="igamma",
    signature="igamma(Tensor self, Tensor other) -> Tensor",
    kernels={},
    family=_FAMILY,
)
IGAMMAC = OpDef(
    name="igammac",
    signature="igammac(Tensor self, Tensor other) -> Tensor",
    kernels={},
    family=_FAMILY,
)


def igamma(input: Tensor, other: Tensor) -> Tensor:
    """The regularised lower incomplete gamma function ``P(input, other)`` (no gradient
    here)."""
    _check_tensors("igamma", 1, input=input, other=other)
    return _incomplete(input, other, upper=False)


def igammac(input: Tensor, other: Tensor) -> Tensor:
    """The regularised upper incomplete gamma function ``Q(input, other)`` (no gradient
    here)."""
    _check_tensors("igammac", 1, input=input, other=other)
    return _incomplete(input, other, upper=True)


def gammainc(input: Tensor, other: Tensor) -> Tensor:
    """``torch.special.gammainc``: :func:`igamma`."""
    _check_tensors("special_gammainc", 1, input=input, other=other)
    return _incomplete(input, other, upper=False)


def gammaincc(input: Tensor, other: Tensor) -> Tensor:
    """``torch.special.gammaincc``: :func:`igammac`."""
    _check_tensors("special_gammaincc", 1, input=input, other=other)
    return _incomplete(input, other, upper=True)


def _incomplete_method(upper: bool):
    name = "igammac" if upper else "igamma"

    def method(self: Tensor, other: Tensor) -> Tensor:
        _check_tensors(name, 0, self=self, other=other)
        return _incomplete(self, other, upper)

    method.__name__ = name
    return method


def _incomplete_inplace(upper: bool):
    from ._dispatch import result_type
    from .pointwise import _cast_error, can_cast

    name = ("igammac" if upper else "igamma") + "_"
    write = _inplace_binary(_incomplete_method(upper), name)

    def method(self: Tensor, other: Tensor) -> Tensor:
        _check_tensors(name, 0, self=self, other=other)
        # the common dtype must fit self before the kernel runs (as TensorIterator checks)
        dtype = result_type(self, other)
        if not can_cast(dtype, self._dtype):
            raise _cast_error(dtype, self)
        return write(self, other)

    method.__name__ = name
    return method


# ------------------------------------------------------------ orthogonal polynomials


def _polynomial(recurrence, first):
    """A polynomial family ``P_n(x)`` from ``P_0 = 1``, ``P_1 = first(x)`` and
    ``P_{k+1} = recurrence(k, x, P_k, P_{k-1})``; negative n gives 0."""

    def function(input, n) -> Tensor:
        from ._dispatch import result_type

        dtype = _floating_result(result_type(input, n))
        x = as_array(input._np if isinstance(input, Tensor) else input, np.float64)
        orders = as_array(n._np if isinstance(n, Tensor) else n).astype(np.int64)
        x, orders = np.broadcast_arrays(x, orders)
        top = int(orders.max()) if orders.size else 0
        previous, current = np.ones(x.shape), first(x)
        result = np.where(orders == 0, previous, 0.0)
        result = np.where(orders == 1, current, result)
        for k in range(1, top):
            previous, current = current, recurrence(k, x, current, previous)
            result = np.where(orders == k + 1, current, result)
        result = np.where(orders < 0, 0.0, result)
        return Tensor._from_array(as_array(result, dtype.np_dtype, "C"), dtype)

    return function


chebyshev_polynomial_t = _polynomial(lambda k, x, p, q: 2 * x * p - q, lambda x: x)
chebyshev_polynomial_u = _polynomial(lambda k, x, p, q: 2 * x * p - q, lambda x: 2 * x)
chebyshev_polynomial_v = _polynomial(lambda k, x, p, q: 2 * x * p - q, lambda x: 2 * x - 1)
chebyshev_polynomial_w = _polynomial(lambda k, x, p, q: 2 * x * p - q, lambda x: 2 * x + 1)
hermite_polynomial_h = _polynomial(lambda k, x, p, q: 2 * x * p - 2 * k * q, lambda x: 2 * x)
hermite_polynomial_he = _polynomial(lambda k, x, p, q: x * p - k * q, lambda x: x)
legendre_polynomial_p = _polynomial(
    lambda k, x, p, q: ((2 * k + 1) * x * p - k * q) / (k + 1), lambda x: x
)
laguerre_polynomial_l = _polynomial(
    lambda k, x, p, q: ((2 * k + 1 - x) * p - k * q) / (k + 1), lambda x: 1 - x
)


def _shifted(polynomial):
    """The shifted polynomial ``P*(x) = P(2x - 1)`` (orthogonal on [0, 1])."""

    def function(input, n) -> Tensor:
        x = input if isinstance(input, Tensor) else Tensor._from_array(as_array(input))
        return polynomial(x * 2 - 1, n)

    return function


shifted_chebyshev_polynomial_t = _shifted(chebyshev_polynomial_t)
shifted_chebyshev_polynomial_u = _shifted(chebyshev_polynomial_u)
shifted_chebyshev_polynomial_v = _shifted(chebyshev_polynomial_v)
shifted_chebyshev_polynomial_w = _shifted(chebyshev_polynomial_w)


def modified_bessel_i0(input: Tensor) -> Tensor:
    """``i0`` (without a gradient, as PyTorch's ``special.modified_bessel_i0``)."""
    return i0(input).detach()


def modified_bessel_i1(input: Tensor) -> Tensor:
    """``special.i1`` (without a gradient, as PyTorch's ``special.modified_bessel_i1``)."""
    return special_i1(input).detach()


def _inplace_binary(function, name):
    def method(self: Tensor, other) -> Tensor:
        recording = check_inplace(self, other)
        with _grad_mode.no_grad():
            result = function(self, other)
        snapshot = _snapshot(self) if recording else None
        self._np[...] = result._np
        self._bump_version()
        if recording:  # the write's history: the op redone on the old values
            with _grad_mode.enable_grad():
                redo = function(snapshot, snapshot if other is self else other)
            adopt_history(self, redo)
        return self

    method.__name__ = name
    return method


# the methods and in-place forms of the family (bound by its declarations)
polygamma_ = _inplace_binary(_polygamma_method, "polygamma_")
mvlgamma_ = _inplace_binary(mvlgamma, "mvlgamma_")
igamma_ = _incomplete_inplace(upper=False)
igammac_ = _incomplete_inplace(upper=True)


def _declare_incomplete_gamma(name, function, upper: bool) -> None:
    refusal = {"": kernel_refusal(f"{name}_cpu")}
    method = _incomplete_method(upper=upper)
    defop(name, function, method=method, inplace=True, out=True, refuses_complex=refusal)


_declare_incomplete_gamma("igamma", igamma, upper=False)
_declare_incomplete_gamma("igammac", igammac, upper=True)
