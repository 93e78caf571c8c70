"""The generalised Pareto distribution."""

from __future__ import annotations

import math
from numbers import Real

import torch

from . import constraints
from ._declared import Arg, parameters
from ._location_scale import loc_and_scale
from .distribution import Distribution, _set_broadcast

__all__ = ["GeneralizedPareto"]


@parameters(
    *loc_and_scale(),
    Arg("concentration", constraints.real, "the shape."),
    expand=True,
)
class GeneralizedPareto(Distribution):
    """The generalised Pareto distribution of location ``loc``, scale ``scale`` and
    shape ``concentration`` (exponential at 0, bounded above when negative).

    Examples::

        >>> m = GeneralizedPareto(torch.tensor([0.0]), torch.tensor([1.0]), torch.tensor([0.5]))
        >>> m.sample()
        tensor([0.8179])
    """

    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        batch_shape = _set_broadcast(self, loc=loc, scale=scale, concentration=concentration)
        super().__init__(batch_shape, validate_args=validate_args)

    def _safe_concentration(self):
        """Whether the shape is (close to) 0, and the shape with those entries set to 1
        (so that the general formula stays finite where the exponential one is used)."""
        is_zero = torch.isclose(self.concentration, torch.tensor(0.0))
        return is_zero, torch.where(
            is_zero, torch.ones_like(self.concentration), self.concentration
        )

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        return self.icdf(torch.rand(shape, dtype=self.loc.dtype, device=self.loc.device))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        is_zero, safe = self._safe_concentration()
        y = 1 / safe + torch.ones_like(z)
        general = torch.where(y == 0, y, y * torch.log1p(safe * z))
        log_scale = math.log(self.scale) if isinstance(self.scale, Real) else self.scale.log()
        return -log_scale - torch.where(is_zero, z, general)

    def log_survival_function(self, value):
        """``log(1 - cdf(value))``."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        is_zero, safe = self._safe_concentration()
        return torch.where(is_zero, -z, -torch.log1p(safe * z) / safe)

    def log_cdf(self, value):
        """``log(cdf(value))``."""
        return torch.log1p(-torch.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return torch.exp(self.log_cdf(value))

    def icdf(self, value):
        concentration = self.concentration
        is_zero = torch.isclose(concentration, torch.zeros_like(concentration))
        safe = torch.where(is_zero, torch.ones_like(concentration), concentration)
        log_u = torch.log1p(-value)
        general = self.loc + self.scale / safe * torch.expm1(-safe * log_u)
        return torch.where(is_zero, self.loc - self.scale * log_u, general)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        finite = self.concentration < 1
        safe = torch.where(finite, self.concentration, 0.5)
        return torch.where(finite, self.loc + self.scale / (1 - safe), math.nan)

    @property
    def variance(self):
        finite = self.concentration < 0.5
        safe = torch.where(finite, self.concentration, 0.25)
        result = self.scale**2 / ((1 - safe) ** 2 * (1 - 2 * safe))
        return torch.where(finite, result, math.nan)

    def entropy(self):
        result = torch.log(self.scale) + self.concentration + 1
        return torch.broadcast_to(result, self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        lower = self.loc
        upper = torch.where(
            self.concentration < 0, lower - self.scale / self.concentration, math.inf
        )
        return constraints.interval(lower, upper)
