"""torch.special: special functions (the gamma, error and Bessel families, logistic and
normal-distribution helpers, orthogonal polynomials).

Most are names of core ops or composites of them, so gradients follow; the Bessel
functions, ``polygamma``, ``zeta`` and the incomplete gamma functions have kernels in
``torch._ops.special_functions``.
"""

from __future__ import annotations

import math

from .. import _ops
from .._ops._dispatch import defop, kernel_refusal, refuse_complex
from .._ops.pointwise_composites import exp2, sinc, xlogy
from .._ops.scans import logcumsumexp as _logcumsumexp  # noqa: F401
from .._ops.special_functions import (
    _check_overload,
    chebyshev_polynomial_t,
    chebyshev_polynomial_u,
    chebyshev_polynomial_v,
    chebyshev_polynomial_w,
    gammainc,
    gammaincc,
    hermite_polynomial_h,
    hermite_polynomial_he,
    i0,
    laguerre_polynomial_l,
    legendre_polynomial_p,
    modified_bessel_i0,
    modified_bessel_i1,
    multigammaln,
    polygamma,
    shifted_chebyshev_polynomial_t,
    shifted_chebyshev_polynomial_u,
    shifted_chebyshev_polynomial_v,
    shifted_chebyshev_polynomial_w,
)
from .._ops.special_functions import special_i0e as i0e
from .._ops.special_functions import special_i1 as i1
from .._ops.special_functions import special_i1e as i1e
from .._ops.special_functions import special_zeta as zeta
from .._ops.unary_math import digamma, erf, erfc, erfinv, expm1, log1p, logit, round
from .._ops.unary_math import digamma as psi
from .._ops.unary_math import lgamma as gammaln
from .._ops.unary_math import sigmoid as expit
from .._tensor import Tensor
from ._bessel import (
    airy_ai,
    bessel_j0,
    bessel_j1,
    bessel_y0,
    bessel_y1,
    modified_bessel_k0,
    modified_bessel_k1,
    scaled_modified_bessel_k0,
    scaled_modified_bessel_k1,
)

__all__ = [
    "airy_ai",
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammainc",
    "gammaincc",
    "gammaln",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "round",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "sinc",
    "softmax",
    "spherical_bessel_j0",
    "xlog1py",
    "xlogy",
    "zeta",
]

_SQRT_HALF = math.sqrt(0.5)
_SQRT_PI = math.sqrt(math.pi)


def _torch():
    import torch

    return torch


def _float(input: Tensor) -> Tensor:
    torch = _torch()
    if input.is_floating_point() or input.is_complex():
        return input
    return input.to(torch.get_default_dtype())


def ndtr(input: Tensor) -> Tensor:
    """The standard normal cumulative distribution function.

    Examples::

        >>> torch.special.ndtr(torch.tensor([0.0, 1.0]))
        tensor([0.5000, 0.8413])
    """
    # NOTE: through erfc so that the far left tail keeps its precision
    return 0.5 * erfc(-_float(input) * _SQRT_HALF)


def ndtri(input: Tensor) -> Tensor:
    """The inverse of :func:`ndtr` (the standard normal quantile function)."""
    return math.sqrt(2.0) * erfinv(2 * _float(input) - 1)


@defop("special_erfcx", public=False, refuses_complex={"": kernel_refusal("erfcx_cpu")})
def erfcx(input: Tensor) -> Tensor:
    """The scaled complementary error function ``exp(x ** 2) * erfc(x)``.

    NOTE: for x > 26 (where erfc underflows) an asymptotic series of 7 terms; both
    branches are differentiable composites."""
    torch = _torch()
    refuse_complex("special_erfcx", input._dtype)
    given = _float(input)
    # NOTE: in float64 throughout: exp(x ** 2) overflows float32 from x = 9.4 (its product
    # with the tiny erfc, and its gradient, would be inf * 0)
    x = given.to(torch.float64) if given.dtype is not torch.float64 else given
    large = x > 26
    near = torch.where(large, torch.zeros_like(x), x)
    direct = torch.exp(near * near) * erfc(near)
    far = torch.where(large, x, torch.full_like(x, 30.0))
    inverse_square = 1 / (2 * far * far)
    series = torch.ones_like(far)
    term = torch.ones_like(far)
    for k in range(1, 8):
        term = -term * (2 * k - 1) * inverse_square
        series = series + term
    result = torch.where(large, series / (far * _SQRT_PI), direct)
    return result.to(given.dtype) if result.dtype is not given.dtype else result


def log_ndtr(input: Tensor) -> Tensor:
    """``log(ndtr(x))``, accurate in both tails."""
    torch = _torch()
    x = _float(input)
    negative = x < 0
    left_x = torch.where(negative, x, torch.zeros_like(x))
    left = torch.log(erfcx(-left_x * _SQRT_HALF) / 2) - left_x * left_x / 2
    right_x = torch.where(negative, torch.zeros_like(x), x)
    right = torch.log1p(-0.5 * erfc(right_x * _SQRT_HALF))
    return torch.where(negative, left, right)


def entr(input: Tensor) -> Tensor:
    """The elementwise entropy ``-x * log(x)``: 0 at 0 and -inf below."""
    torch = _torch()
    x = _float(input)
    positive = x > 0
    safe = torch.where(positive, x, torch.ones_like(x))
    value = torch.where(positive, -safe * torch.log(safe), torch.zeros_like(x))
    value = torch.where(x < 0, torch.full_like(x, -math.inf), value)
    return torch.where(torch.isnan(x), x, value)


@defop("special_xlog1py", public=False, refuses_complex={"": kernel_refusal("xlog1py_cpu")})
def xlog1py(input, other) -> Tensor:
    """``x * log1p(y)``, 0 where x is 0 (unless y is NaN)."""
    torch = _torch()
    _check_overload("special_xlog1py", input, other)
    refuse_complex("special_xlog1py", torch.result_type(input, other))
    x = input if isinstance(input, Tensor) else torch.tensor(input)
    y = other if isinstance(other, Tensor) else torch.tensor(other)
    x, y = torch.broadcast_tensors(_float(x), _float(y))
    zero = (x == 0) & ~torch.isnan(y)
    safe_y = torch.where(zero, torch.zeros_like(y), y)
    return torch.where(zero, torch.zeros_like(x), x * torch.log1p(safe_y))


def spherical_bessel_j0(input: Tensor) -> Tensor:
    """The spherical Bessel function of the first kind of order 0: ``sin(x) / x``."""
    torch = _torch()
    x = _float(input)
    zero = x == 0
    safe = torch.where(zero, torch.ones_like(x), x)
    return torch.where(zero, torch.ones_like(x), torch.sin(safe) / safe)


def softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """:func:`torch.softmax`."""
    return _ops.nn_kernels.softmax(input, dim, dtype)


def log_softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """:func:`torch.log_softmax`."""
    return _ops.nn_kernels.log_softmax(input, dim, dtype)


def logsumexp(input: Tensor, dim, keepdim: bool = False) -> Tensor:
    """:func:`torch.logsumexp`."""
    return _ops.reduction.logsumexp(input, dim, keepdim)
