"""NumPy/Python references of the native special functions (``torch._C.special``):
the test oracle, and the implementation when ``TORCH_NATIVE=0``."""

from __future__ import annotations

import math

import numpy as np


def _digamma(x: float) -> float:
    # psi(x) = d/dx lgamma(x), by the recurrence psi(x) = psi(x + 1) - 1/x up to a large
    # argument and Stirling's series there (a different arrangement from the native one)
    if math.isnan(x) or x == -math.inf:
        return math.nan
    if x == 0:
        return math.copysign(math.inf, -x)
    if x < 0:
        if x == math.floor(x):
            return math.nan
        return _digamma(1.0 - x) - math.pi / math.tan(math.pi * x)
    shift = 0.0
    while x < 10.0:
        shift -= 1.0 / x
        x += 1.0
    if x == 10.0:
        return shift + 2.25175258906672110764  # digamma(10)
    z = 1.0 / (x * x)
    tail = 0.0
    for c in (1 / 12, -691 / 32760, 1 / 132, -1 / 240, 1 / 252, -1 / 120, 1 / 12):
        tail = tail * z + c
    return shift + math.log(x) - 0.5 / x - z * tail


def _trigamma(x: float) -> float:
    if math.isnan(x):
        return x
    if x <= 0 and x == math.floor(x):
        return math.inf
    if x < 0:
        return -_trigamma(1.0 - x) + (math.pi / math.sin(math.pi * x)) ** 2
    shift = 0.0
    while x < 12.0:
        shift += 1.0 / (x * x)
        x += 1.0
    inv = 1.0 / x
    bernoulli = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6]
    tail = (
        inv
        + 0.5 * inv * inv
        + sum(b * inv ** (2 * k + 1) for k, b in enumerate(bernoulli, start=1))
    )
    return shift + tail


def _erfinv(y: float) -> float:
    if math.isnan(y) or abs(y) > 1:
        return math.nan
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    if y == 0:
        return y
    # bisection to machine precision: slow, independent, and exact enough for an oracle
    low, high = -6.0, 6.0
    for _ in range(200):
        mid = 0.5 * (low + high)
        if math.erf(mid) < y:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def _safe_lgamma(x: float) -> float:
    try:
        return math.lgamma(x)
    except ValueError:
        return math.inf


_FUNCTIONS = {
    "erf": math.erf,
    "erfc": math.erfc,
    "lgamma": _safe_lgamma,
    "log1p": math.log1p,
    "digamma": _digamma,
    "trigamma": _trigamma,
    "erfinv": _erfinv,
}


def special(name: str, input: np.ndarray) -> np.ndarray:
    if input.dtype not in (np.float32, np.float64):
        raise TypeError(f"special function {name}: input must be float32 or float64")
    fn = np.frompyfunc(_FUNCTIONS[name], 1, 1)
    return np.asarray(fn(input.astype(np.float64)), dtype=object).astype(input.dtype)
