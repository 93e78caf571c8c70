"""The von Mises distribution on the circle."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from ._location_scale import SymmetricAboutLoc
from .distribution import Distribution, _set_broadcast
from .utils import lazy_property

__all__ = ["VonMises"]


def _eval_poly(y, coefficients):
    """The polynomial with ``coefficients`` (lowest order first) at ``y`` (Horner)."""
    result = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        result = c + y * result
    return result


# Abramowitz & Stegun 9.8.1-9.8.4: I0 and I1 below 3.75, scaled versions above
_I0_SMALL = [1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813]
_I0_LARGE = [0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281, -0.02057706,
             0.02635537, -0.01647633, 0.00392377]  # fmt: skip
_I1_SMALL = [0.5, 0.87890594, 0.51498869, 0.15084934, 0.02658733, 0.00301532, 0.00032411]
_I1_LARGE = [0.39894228, -0.03988024, -0.00362018, 0.00163801, -0.01031555, 0.02282967,
             -0.02895312, 0.01787654, -0.00420059]  # fmt: skip


def _log_modified_bessel_fn(x, order=0):
    """``log I_order(x)`` for ``x > 0`` and order 0 or 1 (polynomial approximations)."""
    if order not in (0, 1):
        raise AssertionError(f"order must be 0 or 1, got {order}")
    small_coef, large_coef = (_I0_SMALL, _I0_LARGE) if order == 0 else (_I1_SMALL, _I1_LARGE)
    y = (x / 3.75) ** 2
    small = _eval_poly(y, small_coef)
    if order == 1:
        small = x.abs() * small
    small = small.log()
    large = x - 0.5 * x.log() + _eval_poly(3.75 / x, large_coef).log()
    return torch.where(x < 3.75, small, large)


def _rejection_sample(loc, concentration, proposal_r, x):
    """Best and Fisher's (1979) wrapped-Cauchy rejection sampler, all elements in step:
    each round draws three uniforms per element and keeps the first acceptance."""
    done = torch.zeros(x.shape, dtype=torch.bool)
    while not done.all():
        u1, u2, u3 = torch.rand((3,) + x.shape, dtype=loc.dtype).unbind()
        z = torch.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = (c * (2 - c) - u2 > 0) | ((c / u2).log() + 1 - c >= 0)
        if accept.any():
            x = torch.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


@parameters(
    Arg("loc", constraints.real, "the mean direction, in radians.", kind="Tensor"),
    Arg("concentration", constraints.positive, "the concentration (positive).", kind="Tensor"),
)
class VonMises(SymmetricAboutLoc, Distribution):
    """The von Mises (circular normal) distribution of mean direction ``loc`` and
    concentration ``concentration``, on angles in [-pi, pi). Sampling runs in double
    precision (no ``rsample``).

    Examples::

        >>> VonMises(torch.tensor([1.0]), torch.tensor([1.0])).sample()
        tensor([1.2782])
    """

    support = constraints.real

    def __init__(self, loc, concentration, validate_args=None) -> None:
        batch_shape = _set_broadcast(self, loc=loc, concentration=concentration)
        super().__init__(batch_shape, validate_args=validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * torch.cos(value - self.loc)
        return (
            log_prob - math.log(2 * math.pi) - _log_modified_bessel_fn(self.concentration, order=0)
        )

    @lazy_property
    def _loc(self):
        return self.loc.to(torch.double)

    @lazy_property
    def _concentration(self):
        return self.concentration.to(torch.double)

    @lazy_property
    def _proposal_r(self):
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa**2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        proposal_r = (1 + rho**2) / (2 * rho)
        # for tiny kappa the formula loses all precision: its Taylor expansion instead
        return torch.where(kappa < 1e-5, 1 / kappa + kappa, proposal_r)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            shape = self._extended_shape(sample_shape)
            x = torch.empty(shape, dtype=self._loc.dtype)
            draws = _rejection_sample(self._loc, self._concentration, self._proposal_r, x)
            return draws.to(self.loc.dtype)

    def expand(self, batch_shape, _instance=None):
        try:
            return super().expand(batch_shape)
        except NotImplementedError:
            validate_args = self.__dict__.get("_validate_args")
            loc = self.loc.expand(batch_shape)
            concentration = self.concentration.expand(batch_shape)
            return type(self)(loc, concentration, validate_args=validate_args)

    @lazy_property
    def variance(self):
        log_ratio = _log_modified_bessel_fn(self.concentration, order=1) - _log_modified_bessel_fn(
            self.concentration, order=0
        )
        return 1 - log_ratio.exp()
