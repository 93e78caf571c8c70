"""The random family's rejection samplers: ``torch._standard_gamma``, ``torch.poisson``,
``torch.binomial`` and ``torch._sample_dirichlet``, and the reparameterisation gradients
``torch._standard_gamma_grad`` and ``torch._dirichlet_grad`` (torch.distributions builds
Gamma, Beta, Dirichlet, Poisson and Binomial on them).

Each sampler consumes PyTorch's CPU generator stream as PyTorch's serial CPU kernels do:
element after element in C order, with double-precision uniforms (53 bits of a 64-bit
draw) and the one-at-a-time Box-Muller normal whose spare value the generator keeps. The
algorithms are the published ones PyTorch uses (Marsaglia-Tsang for gamma, Hormann's
transformed rejection for Poisson with rate >= 10 and for binomial, inversion below), so
the same seed gives the same numbers. A rejection loop is sequential per element, so the
samplers visit elements in a Python loop: fine for the sizes distributions draw, slow
for millions of elements (a native kernel would be the fix).
"""

from __future__ import annotations

import math

import numpy as np

from . import _dtype
from ._ops._dispatch import defop, record, register_op
from ._random import _gen
from ._tensor import Tensor

__all__ = ["poisson", "binomial"]

_BLOCK = 256
_F32_THIRD = float(np.float32(1.0) / np.float32(3.0))
_F32_00331 = float(np.float32(0.0331))


class _Stream:
    """Uniform and normal draws from a generator, prefetched in blocks. ``close`` rewinds
    the generator to the start of the current block and replays the draws used of it, so
    the numbers fetched but not used are not lost."""

    def __init__(self, generator) -> None:
        self._gen = _gen(generator)
        self._engine = self._gen._engine
        self.cached_normal = self._engine.cached_normal
        self._refill()

    def _refill(self) -> None:
        self._block_state = self._engine.get_state()
        self._buffer = self._gen._uniform53(_BLOCK).tolist()
        self._next = 0

    def uniform(self) -> float:
        if self._next == _BLOCK:
            self._refill()
        value = self._buffer[self._next]
        self._next += 1
        return value

    def normal(self) -> float:
        """PyTorch's ``normal_distribution<double>``: the kept sine value, else a cosine
        value now and the sine kept."""
        if self.cached_normal is not None:
            value, self.cached_normal = self.cached_normal, None
            return value
        u1 = self.uniform()
        u2 = self.uniform()
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self.cached_normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def close(self) -> None:
        self._engine.set_state(*self._block_state)
        if self._next:
            self._gen._u64(self._next)
        self._engine.cached_normal = self.cached_normal


_stream = _Stream


def _refuse_dtype(kernel: str, dtype) -> None:
    if dtype not in (_dtype.float32, _dtype.float64):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dtype._legacy[:-6]}'")


# ---------------------------------------------------------------------------- gamma


def _gamma_one(alpha: float, single: bool, draws: _Stream) -> float:
    """One standard gamma draw (Marsaglia and Tsang's method, boosted below 1); constants
    and the arithmetic on ``alpha`` in single precision for float32, as PyTorch's kernel."""
    if not alpha > 0:  # 0, negative or NaN: PyTorch's kernel ends with the smallest normal
        return 0.0
    scale = 1.0
    if alpha < 1.0:
        exponent = float(np.float32(1.0) / np.float32(alpha)) if single else 1.0 / alpha
        scale *= math.pow(1.0 - draws.uniform(), exponent)
        alpha = float(np.float32(alpha) + np.float32(1.0)) if single else alpha + 1.0
    d = float(np.float32(alpha) - np.float32(_F32_THIRD)) if single else alpha - _F32_THIRD
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            x = draws.normal()
            y = 1.0 + c * x
            if y > 0:
                break
        v = y * y * y
        u = 1.0 - draws.uniform()
        xx = x * x
        if u < 1.0 - _F32_00331 * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def _gamma_array(alpha: np.ndarray, single: bool, generator) -> np.ndarray:
    draws = _stream(generator)
    try:
        values = [_gamma_one(a, single, draws) for a in alpha.reshape(-1).tolist()]
    finally:
        draws.close()
    return np.asarray(values, dtype=np.float64).reshape(alpha.shape)


def _standard_gamma(self: Tensor, generator=None) -> Tensor:
    """Draws of Gamma(``self``, 1), one per element; differentiable in ``self`` through
    the implicit reparameterisation gradient (:func:`_standard_gamma_grad`)."""
    _refuse_dtype("gamma_cpu", self.dtype)
    single = self.dtype is _dtype.float32
    values = _gamma_array(np.asarray(self._np, dtype=np.float64), single, generator)
    tiny = np.finfo(self.dtype.np_dtype).tiny
    result = Tensor._from_array(np.maximum(values.astype(self.dtype.np_dtype), tiny), self.dtype)
    return record(STANDARD_GAMMA, (self,), result)


STANDARD_GAMMA = register_op(
    "_standard_gamma",
    _standard_gamma,
    "_standard_gamma(Tensor self, Generator? generator=None) -> Tensor",
    "random",
)
defop("_standard_gamma", _standard_gamma)


# ------------------------------------------------------------------------- poisson


def _poisson_one(rate: float, draws: _Stream) -> float:
    if rate >= 10:  # transformed rejection (Hormann 1993)
        slam = math.sqrt(rate)
        loglam = math.log(rate)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = draws.uniform() - 0.5
            v = draws.uniform()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + rate + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            lhs = math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
            if lhs <= -rate + k * loglam - math.lgamma(k + 1.0):
                return k
    if rate == 0:
        return 0
    # inversion: multiply uniforms until the product drops below exp(-rate)
    limit = math.exp(-rate)
    count, product = 0, 1.0
    while True:
        product *= draws.uniform()
        if product > limit:
            count += 1
        else:
            return count


@defop("poisson")
def poisson(input: Tensor, generator=None) -> Tensor:
    """Poisson draws with the rates in ``input`` (same seed, same numbers as PyTorch).

    Examples::

        >>> torch.poisson(torch.tensor([1.0, 4.0, 20.0]))
        tensor([ 2.,  5., 17.])
    """
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"poisson_cpu\" not implemented for '{input.dtype._legacy[:-6]}'"
        )
    rates = np.asarray(input._np, dtype=np.float64)
    if not np.all(rates >= 0):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    draws = _stream(generator)
    try:
        values = [_poisson_one(r, draws) for r in rates.reshape(-1).tolist()]
    finally:
        draws.close()
    array = np.asarray(values, dtype=np.float64).reshape(rates.shape)
    return Tensor._from_array(array.astype(input.dtype.np_dtype), input.dtype)


# ------------------------------------------------------------------------ binomial

_STIRLING_TAIL = (
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
)


def _stirling_tail(k: float) -> float:
    """log(k!) minus its Stirling approximation: a table up to 9, the series beyond."""
    if k < len(_STIRLING_TAIL):
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _binomial_inversion(count: float, prob: float, draws: _Stream) -> float:
    """Count geometric waiting times until they pass ``count`` (small count * prob)."""
    total, successes = 0.0, 0.0
    log_q = math.log1p(-prob)
    while True:
        u = draws.uniform()
        total += math.ceil(math.log(u) / log_q) if u > 0 else math.inf
        if total > count:
            return successes
        successes += 1


def _btrs(count: float, prob: float, draws: _Stream) -> float:
    """Hormann's transformed rejection with squeeze (large count * prob)."""
    spq = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * spq
    m = math.floor((count + 1) * prob)
    while True:
        u = draws.uniform() - 0.5
        v = draws.uniform()
        us = 0.5 - abs(u)
        k = float(math.floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        bound = (
            (m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
            + (count + 1) * math.log((count - m + 1) / (count - k + 1))
            + (k + 0.5) * math.log(r * (count - k + 1) / (k + 1))
            + _stirling_tail(m)
            + _stirling_tail(count - m)
            - _stirling_tail(k)
            - _stirling_tail(count - k)
        )
        if v <= bound:
            return k


def _binomial_one(count: float, prob: float, draws: _Stream) -> float:
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        sampler = _btrs if count * prob >= 10.0 else _binomial_inversion
        return sampler(count, prob, draws)
    if prob > 0.5:  # sample the failures
        q = 1.0 - prob
        sampler = _btrs if count * q >= 10.0 else _binomial_inversion
        return count - sampler(count, q, draws)
    return math.nan


@defop("binomial")
def binomial(count: Tensor, prob: Tensor, generator=None) -> Tensor:
    """Binomial draws: successes in ``count`` trials of probability ``prob`` (tensors of
    one floating dtype, broadcast together).

    Examples::

        >>> torch.binomial(torch.tensor([10.0, 100.0]), torch.tensor([0.5, 0.2]))
        tensor([ 7., 21.])
    """
    if count.dtype is not prob.dtype:
        raise RuntimeError(
            f"Found dtype {prob.dtype._legacy[:-6]} but expected {count.dtype._legacy[:-6]}"
        )
    _refuse_dtype("binomial_cpu", count.dtype)
    counts, probs = np.broadcast_arrays(
        np.asarray(count._np, dtype=np.float64), np.asarray(prob._np, dtype=np.float64)
    )
    if count.dtype is _dtype.float32:  # the kernel's arithmetic on prob is single precision
        probs = probs.astype(np.float32).astype(np.float64)
    draws = _stream(generator)
    try:
        values = [
            _binomial_one(n, p, draws)
            for n, p in zip(counts.reshape(-1).tolist(), probs.reshape(-1).tolist())
        ]
    finally:
        draws.close()
    array = np.asarray(values, dtype=np.float64).reshape(counts.shape)
    return Tensor._from_array(array.astype(count.dtype.np_dtype), count.dtype)


# ----------------------------------------------------------------------- dirichlet


def _sample_dirichlet(self: Tensor, generator=None) -> Tensor:
    """Dirichlet draws with the concentrations in the last dim of ``self``: gamma draws
    in double precision, normalised, kept inside (0, 1) in ``self``'s dtype."""
    _refuse_dtype("dirichlet", self.dtype)
    gammas = _gamma_array(np.asarray(self._np, dtype=np.float64), False, generator)
    gammas = np.maximum(gammas, np.finfo(np.float64).tiny)
    ratios = (gammas / gammas.sum(-1, keepdims=True)).astype(self.dtype.np_dtype)
    info = np.finfo(self.dtype.np_dtype)
    below_one = np.nextafter(self.dtype.np_dtype.type(1), self.dtype.np_dtype.type(0))
    return Tensor._from_array(np.clip(ratios, info.tiny, below_one), self.dtype)


register_op(
    "_sample_dirichlet",
    _sample_dirichlet,
    "_sample_dirichlet(Tensor self, Generator? generator=None) -> Tensor",
    "random",
    differentiable=False,  # torch-distributions differentiates it with _dirichlet_grad
)
defop("_sample_dirichlet", _sample_dirichlet)


# ------------------------------------------------------ reparameterisation gradients

_DIGAMMA_ASYMPTOTIC = (
    8.33333333333333333333e-2,
    -2.10927960927960927961e-2,
    7.57575757575757575758e-3,
    -4.16666666666666666667e-3,
    3.96825396825396825397e-3,
    -8.33333333333333333333e-3,
    8.33333333333333333333e-2,
)


def _digamma(x: np.ndarray) -> np.ndarray:
    """Digamma for positive arguments: recurrence up to 10, then the asymptotic series."""
    x = np.array(x, dtype=np.float64)
    shift = np.zeros_like(x)
    small = x < 10
    while np.any(small):
        shift = np.where(small, shift - 1.0 / np.where(small, x, 1.0), shift)
        x = np.where(small, x + 1, x)
        small = x < 10
    z = 1.0 / (x * x)
    poly = np.zeros_like(x)
    for coefficient in _DIGAMMA_ASYMPTOTIC:
        poly = poly * z + coefficient
    return shift + np.log(x) - 0.5 / x - z * poly


_GAMMA_GRAD_COEF = np.array(
    [
        [
            0.16009398,
            -0.094634809,
            0.025146376,
            -0.0030648343,
            1,
            0.32668115,
            0.10406089,
            0.0014179084,
        ],  # fmt: skip
        [
            0.53487893,
            0.1298071,
            0.065735949,
            -0.0015649758,
            0.16639465,
            0.020070113,
            -0.0035938915,
            -0.00058392623,
        ],  # fmt: skip
        [
            0.040121004,
            -0.0065914022,
            -0.0026286047,
            -0.0013441777,
            0.017050642,
            -0.0021309326,
            0.00085092367,
            -1.5247877e-07,
        ],  # fmt: skip
    ]
)


def _gamma_grad_small_x(alpha, x):
    """Series in ``x`` of the gamma CDF and its derivative in ``alpha`` (x < 0.8)."""
    numer = np.ones_like(x)
    denom = alpha.copy()
    series1 = numer / denom
    series2 = numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x / i)
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    pow_x_alpha = x**alpha
    pdf = x ** (alpha - 1) * np.exp(-x)
    cdf = pow_x_alpha * series1
    cdf_alpha = (np.log(x) - _digamma(alpha)) * cdf - pow_x_alpha * series2
    result = -cdf_alpha / pdf
    return np.where(np.isnan(result), 0.0, result)


def _gamma_grad_large_alpha(alpha, x):
    """Rice saddle-point expansion (alpha > 8), with its own form near the mode."""
    near = (0.9 * alpha <= x) & (x <= 1.1 * alpha)
    numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
    numer_2 = (
        1440 * alpha * alpha + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
        + alpha * (107 + 3600 * x)
    )  # fmt: skip
    at_mode = numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
    denom = np.sqrt(8 * alpha)
    term2 = denom / (alpha - x)
    term3 = (x - alpha - alpha * np.log(x / alpha)) ** -1.5
    term23 = np.where(x < alpha, term2 - term3, term2 + term3)
    term1 = np.log(x / alpha) * term23 - np.sqrt(2 / alpha) * (alpha + x) / (alpha - x) ** 2
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    return np.where(near, at_mode, -stirling * x * term1 / denom)


def _gamma_grad_rational(alpha, x):
    """Bivariate rational approximation in log(x / alpha) and log(alpha)."""
    u = np.log(x / alpha)
    v = np.log(alpha)
    c = [_GAMMA_GRAD_COEF[0][i] + u * (_GAMMA_GRAD_COEF[1][i] + u * _GAMMA_GRAD_COEF[2][i])
         for i in range(8)]  # fmt: skip
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    return np.exp(p / q)


def _standard_gamma_grad_array(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    alpha, x = np.broadcast_arrays(np.asarray(alpha, np.float64), np.asarray(x, np.float64))
    with np.errstate(all="ignore"):
        return np.where(
            x < 0.8,
            _gamma_grad_small_x(alpha, x),
            np.where(
                alpha > 8.0, _gamma_grad_large_alpha(alpha, x), _gamma_grad_rational(alpha, x)
            ),
        )


def _standard_gamma_grad(self: Tensor, output: Tensor) -> Tensor:
    """d(sample)/d(alpha) of a standard gamma draw ``output`` at concentration ``self``,
    holding the draw's CDF fixed (the implicit reparameterisation gradient)."""
    grad = _standard_gamma_grad_array(self._np, output._np)
    return Tensor._from_array(grad.astype(self.dtype.np_dtype), self.dtype)


register_op(
    "_standard_gamma_grad",
    _standard_gamma_grad,
    "_standard_gamma_grad(Tensor self, Tensor output) -> Tensor",
    "random",
    differentiable=False,
)
defop("_standard_gamma_grad", _standard_gamma_grad)


def _beta_grad_alpha_small(x, alpha, beta):
    factor = _digamma(alpha) - _digamma(alpha + beta) - np.log(x)
    numer = np.ones_like(x)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer = numer * ((i - beta) * x / i)
        denom = alpha + i
        series = series + numer / denom * (factor + 1 / denom)
    result = x * (1 - x) ** -beta * series
    return np.where(np.isnan(result), 0.0, result)


def _beta_grad_beta_small(x, alpha, beta):
    factor = _digamma(alpha + beta) - _digamma(beta)
    numer, betas, dbetas = np.ones_like(x), np.ones_like(x), np.zeros_like(x)
    series = factor / alpha
    for i in range(1, 9):
        numer = numer * (-x / i)
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series = series + numer / (alpha + i) * (dbetas + factor * betas)
    result = -((1 - x) ** (1 - beta)) * series
    return np.where(np.isnan(result), 0.0, result)


def _beta_grad_alpha_mid(x, alpha, beta):
    total = alpha + beta
    mean = alpha / total
    std = np.sqrt(alpha * beta / (total + 1)) / total
    near = (mean - 0.1 * std <= x) & (x <= mean + 0.1 * std)
    b2 = beta * beta
    poly = 47 * x * b2 * b2 + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * b2 * beta
        + alpha * (
            3 * (59 + 180 * beta - 90 * x) * b2
            + alpha * ((453 + 1620 * beta * (1 - x) - 455 * x) * beta
                       + alpha * (8 * (1 - x) * (135 * beta - 11)))
        )
    )  # fmt: skip
    prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    prefactor_den = 12960 * alpha**3 * beta * beta * (1 + 12 * total)
    at_mean = prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / np.sqrt(2 * alpha * beta / total)
    stirling = (
        (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
        * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    )
    term1_num = 2 * alpha * alpha * (x - 1) + alpha * beta * (x - 1) - x * b2
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (np.sqrt(2 * alpha / beta) * total**1.5 * axbx * axbx)
    term2 = 0.5 * np.log(alpha / (total * x))
    term3 = np.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = beta * np.log(beta / (total * (1 - x))) + alpha * np.log(alpha / (total * x))
    term4 = term4_base**-1.5
    away = stirling * prefactor * (term1 + term2 * (term3 + np.where(x < mean, term4, -term4)))
    return np.where(near, at_mean, away)


# rational correction to the analytic Dirichlet gradient: [numerator/denominator][i][j][k]
_DIRICHLET_COEF = np.array(
    [
        [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
          [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
          [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
         [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
          [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
          [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
         [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
          [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
          [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
        [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
          [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
          [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
         [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
          [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
          [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
         [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
          [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
          [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]],
    ]
)  # fmt: skip


def _dirichlet_rational(x, alpha, total):
    u = np.log(x)
    a = np.log(alpha) - u
    b = np.log(total) - a
    powers_u = (np.ones_like(u), u, u * u)
    powers_a = (np.ones_like(a), a, a * a)
    p = np.zeros_like(x)
    q = np.zeros_like(x)
    for i in range(3):
        for j in range(3):
            ua = powers_u[i] * powers_a[j]
            cp, cq = _DIRICHLET_COEF[0][i][j], _DIRICHLET_COEF[1][i][j]
            p = p + ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q = q + ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = x * (_digamma(total) - _digamma(alpha)) / (total - alpha)
    return p / q * approx


def _dirichlet_grad_array(x, alpha, total) -> np.ndarray:
    x, alpha, total = (np.asarray(a, np.float64) for a in np.broadcast_arrays(x, alpha, total))
    beta = total - alpha
    boundary = total * x * (1 - x)
    with np.errstate(all="ignore"):
        return np.select(
            [
                (x <= 0.5) & (boundary < 2.5),
                (x >= 0.5) & (boundary < 0.75),
                (alpha > 6) & (beta > 6),
            ],
            [
                _beta_grad_alpha_small(x, alpha, beta),
                -_beta_grad_beta_small(1 - x, beta, alpha),
                _beta_grad_alpha_mid(x, alpha, beta),
            ],
            _dirichlet_rational(x, alpha, total),
        )


def _dirichlet_grad(x: Tensor, alpha: Tensor, total: Tensor) -> Tensor:
    """d(x)/d(alpha) of a Beta(alpha, total - alpha) draw ``x`` divided by ``1 - x``: the
    piece Dirichlet's reparameterisation gradient is built from."""
    if x.shape != alpha.shape or x.shape != total.shape:
        raise RuntimeError(
            "_dirichlet_grad expects x, alpha and total to have the same shape, got "
            f"{list(x.shape)}, {list(alpha.shape)} and {list(total.shape)}"
        )
    grad = _dirichlet_grad_array(x._np, alpha._np, total._np)
    return Tensor._from_array(grad.astype(x.dtype.np_dtype), x.dtype)


register_op(
    "_dirichlet_grad",
    _dirichlet_grad,
    "_dirichlet_grad(Tensor x, Tensor alpha, Tensor total) -> Tensor",
    "random",
    differentiable=False,
)
defop("_dirichlet_grad", _dirichlet_grad)
