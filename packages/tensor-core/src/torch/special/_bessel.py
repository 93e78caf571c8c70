"""The Bessel functions of ``torch.special`` without kernels elsewhere: ``bessel_j0``,
``bessel_j1``, ``bessel_y0``, ``bessel_y1`` (first and second kind), ``modified_bessel_k0``,
``modified_bessel_k1``, their exponentially scaled forms ``scaled_modified_bessel_k0``/
``k1``, and the Airy function ``airy_ai``.

Computed in float64 and rounded to the input's dtype, by methods of our own choice:
J and Y by their power series up to |x| = 12 and Hankel's asymptotic expansion beyond
(both accurate to about 1e-12 there); K (and Ai for x > 0, through K_{1/3}) by the
trapezoidal rule on ``K_v(x) = int_0^inf exp(-x cosh t) cosh(v t) dt``, which converges
exponentially fast for this integrand; Ai for x <= 0 by its Maclaurin series down to
-8 and its oscillatory asymptotic expansion below. As in PyTorch these functions have
no derivative, and float16/bfloat16/complex inputs are refused."""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from .._tensor import Tensor

__all__ = [
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "airy_ai",
]

_EULER = 0.5772156649015329
_SERIES_LIMIT = 12.0  # |x| up to which J and Y use their power series


# ------------------------------------------------------------------ J and Y


def _j_series(x: np.ndarray, n: int) -> np.ndarray:
    """J_n(x) = sum_k (-1)^k (x/2)^(2k+n) / (k! (k+n)!)."""
    half = x / 2
    term = half**n / math.factorial(n)
    total = term.copy()
    for k in range(1, 60):
        term = term * -(half * half) / (k * (k + n))
        total = total + term
    return total


def _y_series(x: np.ndarray, n: int) -> np.ndarray:
    """Y_0 and Y_1 from their series in J_n, log(x/2) and harmonic numbers (x > 0)."""
    half = x / 2
    quarter = half * half
    if n == 0:
        total, term, harmonic = np.zeros_like(x), np.ones_like(x), 0.0
        for k in range(1, 60):
            term = term * -quarter / (k * k)
            harmonic += 1.0 / k
            total = total - term * harmonic
        return (2 / np.pi) * ((np.log(half) + _EULER) * _j_series(x, 0) + total)
    # psi(k + 1) + psi(k + 2) = -2 gamma + H_k + H_(k+1)
    term, harmonic, total = half.copy(), 0.0, np.zeros_like(x)
    for k in range(60):
        digammas = -2 * _EULER + 2 * harmonic + 1.0 / (k + 1)
        total = total + term * digammas
        harmonic += 1.0 / (k + 1)
        term = term * -quarter / ((k + 1) * (k + 2))
    return (2 / np.pi) * np.log(half) * _j_series(x, 1) - 2 / (np.pi * x) - total / np.pi


def _hankel(x: np.ndarray, n: int):
    """Hankel's asymptotic P and Q of order n, summed while their terms decrease."""
    mu = 4.0 * n * n
    p, q = np.ones_like(x), np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(1, 40):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8 * x)
        if k % 2:
            q = q + (-1) ** (k // 2) * term
        else:
            p = p + (-1) ** (k // 2) * term
    return p, q


def _hankel_jy(x: np.ndarray, n: int):
    p, q = _hankel(x, n)
    chi = x - (n / 2 + 0.25) * np.pi
    scale = np.sqrt(2 / (np.pi * x))
    cos, sin = np.cos(chi), np.sin(chi)
    return scale * (p * cos - q * sin), scale * (p * sin + q * cos)


def _j(x: np.ndarray, n: int) -> np.ndarray:
    a = np.abs(x)
    small = a <= _SERIES_LIMIT
    result = np.full_like(a, np.nan)
    result[small] = _j_series(a[small], n)
    large = ~small & np.isfinite(a)
    result[large] = _hankel_jy(a[large], n)[0]
    if n == 1:  # J1 is odd (and J1(-0) is -0)
        return np.where(np.signbit(x), -result, result)
    return result


def _y(x: np.ndarray, n: int) -> np.ndarray:
    result = np.full_like(x, np.nan)
    small = (x > 0) & (x <= _SERIES_LIMIT)
    result[small] = _y_series(x[small], n)
    large = (x > _SERIES_LIMIT) & np.isfinite(x)
    result[large] = _hankel_jy(x[large], n)[1]
    result[x == 0] = -np.inf
    return result


# ------------------------------------------------------------------------- K


def _k_integral(x: np.ndarray, order: float, scaled: bool) -> np.ndarray:
    """K_order(x) (times exp(x) when ``scaled``) for finite x > 0 by the trapezoidal
    rule up to where the integrand is below exp(-750) of its start. The integrand's
    peak at t = 0 has width about 1/sqrt(x): the step is the smaller of 1/4 and a
    sixth of that width, which keeps the rule's error below double precision."""
    result = np.empty(x.size)
    flat = x.reshape(-1)
    for start in range(0, flat.size, 2048):  # the (values, nodes) grid stays small
        chunk = flat[start : start + 2048]
        h = np.minimum(0.25, 0.4 / np.sqrt(chunk))
        top = np.arccosh(1 + 750 / chunk)
        nodes = int(np.ceil((top / h).max())) + 1 if chunk.size else 1
        t = h[:, None] * np.arange(nodes)
        exponent = -chunk[:, None] * (np.cosh(t) - 1.0)
        if not scaled:
            exponent = exponent - chunk[:, None]
        values = np.exp(exponent) * np.cosh(order * t)
        values[:, 0] /= 2  # the trapezoid's end weight
        result[start : start + 2048] = values.sum(axis=1) * h
    return result.reshape(x.shape)


def _k(x: np.ndarray, order: int, scaled: bool) -> np.ndarray:
    result = np.full_like(x, np.nan)
    inside = (x > 0) & np.isfinite(x)
    result[inside] = _k_integral(x[inside], order, scaled)
    result[x == 0] = np.inf
    result[x == np.inf] = 0.0
    return result


# ------------------------------------------------------------------------ Ai

_AI0 = 1 / (3 ** (2 / 3) * math.gamma(2 / 3))  # Ai(0)
_AI0_SLOPE = 1 / (3 ** (1 / 3) * math.gamma(1 / 3))  # -Ai'(0)
_AIRY_SERIES_LIMIT = 8.0


def _airy_series(x: np.ndarray) -> np.ndarray:
    """Ai(x) = Ai(0) f(x) + Ai'(0) g(x), f and g its two Maclaurin series."""
    cube = x**3
    f_term, g_term = np.ones_like(x), x.copy()
    f, g = f_term.copy(), g_term.copy()
    for k in range(1, 80):
        f_term = f_term * cube / ((3 * k - 1) * (3 * k))
        g_term = g_term * cube / ((3 * k) * (3 * k + 1))
        f, g = f + f_term, g + g_term
    return _AI0 * f - _AI0_SLOPE * g


def _airy_oscillating(z: np.ndarray) -> np.ndarray:
    """Ai(-z) for large z > 0 by its asymptotic expansion."""
    zeta = 2 / 3 * z**1.5
    even, odd = np.ones_like(z), np.zeros_like(z)
    u = 1.0
    power = np.ones_like(z)
    for k in range(1, 30):
        u = u * (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216 * k)
        power = power / zeta
        if k % 2:
            odd = odd + (-1) ** (k // 2) * u * power
        else:
            even = even + (-1) ** (k // 2) * u * power
    phase = zeta - np.pi / 4
    return (np.cos(phase) * even + np.sin(phase) * odd) / (np.sqrt(np.pi) * z**0.25)


def _airy(x: np.ndarray) -> np.ndarray:
    result = np.full_like(x, np.nan)  # Ai(+-inf) is NaN in PyTorch 2.13
    positive = (x > 0) & np.isfinite(x)
    p = x[positive]
    zeta = 2 / 3 * p**1.5
    k_third = _k_integral(zeta, 1 / 3, scaled=True) * np.exp(-zeta)
    result[positive] = np.sqrt(p / 3) / np.pi * k_third
    near = (x <= 0) & (x >= -_AIRY_SERIES_LIMIT)
    result[near] = _airy_series(x[near])
    far = (x < -_AIRY_SERIES_LIMIT) & np.isfinite(x)
    result[far] = _airy_oscillating(-x[far])
    return result


# ----------------------------------------------------------------- the ops


def _unary(name: str, kernel, summary: str, example: str):
    def function(input: Tensor, *, out=None) -> Tensor:
        dtype = input._dtype if isinstance(input, Tensor) else _dtype.get_default_dtype()
        if not dtype.is_floating_point and not dtype.is_complex:
            dtype = _dtype.get_default_dtype()  # integers and bools compute in the default
        if dtype not in (_dtype.float32, _dtype.float64):
            kind = dtype._legacy[:-6]
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{kind}'")
        x = np.asarray(input._np if isinstance(input, Tensor) else input, dtype=np.float64)
        with np.errstate(all="ignore"):
            values = kernel(x.reshape(-1)).reshape(x.shape)
        result = Tensor._from_array(np.asarray(values, dtype=dtype.np_dtype, order="C"), dtype)
        if out is not None:
            out.copy_(result)
            return out
        return result

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"""{summary}

    Examples::

        {example}
    """
    return function


def _orders_0_and_1(family: str, kernel, summary: str, example_input: str, results):
    """``<family>0`` and ``<family>1``: ``kernel(x, order)`` for each order, the
    ``{order}`` in ``summary`` filled in, and one example input with each order's result."""
    return tuple(
        _unary(
            f"{family}{order}",
            lambda x, order=order: kernel(x, order),
            summary.format(order=order),
            f">>> torch.special.{family}{order}(torch.tensor({example_input}))\n"
            f"        tensor({result})",
        )
        for order, result in enumerate(results)
    )


bessel_j0, bessel_j1 = _orders_0_and_1(
    "bessel_j",
    _j,
    "The Bessel function of the first kind of order {order}, elementwise.",
    "[0.0, 1.0]",
    ("[1.0000, 0.7652]", "[0.0000, 0.4401]"),
)
bessel_y0, bessel_y1 = _orders_0_and_1(
    "bessel_y",
    _y,
    "The Bessel function of the second kind of order {order} (NaN for x < 0, -inf at 0).",
    "[1.0, 2.0]",
    ("[0.0883, 0.5104]", "[-0.7812, -0.1070]"),
)
modified_bessel_k0, modified_bessel_k1 = _orders_0_and_1(
    "modified_bessel_k",
    lambda x, order: _k(x, order, scaled=False),
    "The modified Bessel function of the second kind of order {order} (NaN for x < 0).",
    "[1.0, 2.0]",
    ("[0.4210, 0.1139]", "[0.6019, 0.1399]"),
)
scaled_modified_bessel_k0, scaled_modified_bessel_k1 = _orders_0_and_1(
    "scaled_modified_bessel_k",
    lambda x, order: _k(x, order, scaled=True),
    "``exp(x) * modified_bessel_k{order}(x)``, without overflow or underflow for large x.",
    "[1.0, 100.0]",
    ("[1.1445, 0.1252]", "[1.6362, 0.1258]"),
)
airy_ai = _unary(
    "airy_ai",
    _airy,
    "The Airy function Ai, elementwise (NaN at +-inf, as PyTorch 2.13).",
    ">>> torch.special.airy_ai(torch.tensor([0.0, 1.0, -2.0]))\n"
    "        tensor([0.3550, 0.1353, 0.2274])",
)
