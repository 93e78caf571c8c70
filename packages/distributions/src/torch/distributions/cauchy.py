"""The Cauchy (Lorentz) distribution."""

from __future__ import annotations

import math

import torch

from ._declared import parameters
from ._location_scale import LocationScale, loc_and_scale
from .distribution import Distribution

__all__ = ["Cauchy"]


@parameters(
    *loc_and_scale("the median.", "the half width at half maximum (positive)."),
    expand=True,
)
class Cauchy(LocationScale, Distribution):
    """The Cauchy distribution of median ``loc`` and half width ``scale`` (no mean, no
    variance: they are NaN and inf).

    Examples::

        >>> Cauchy(torch.tensor([0.0]), torch.tensor([1.0])).sample()
        tensor([10.5977])
    """

    @property
    def mean(self):
        return torch.full(self._extended_shape(), math.nan, dtype=self.loc.dtype)

    @property
    def variance(self):
        return torch.full(self._extended_shape(), math.inf, dtype=self.loc.dtype)

    def _standard_draws(self, shape):
        return self.loc.new(shape).cauchy_()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        return -math.log(math.pi) - self.scale.log() - (z**2).log1p()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return torch.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value):
        return torch.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()
