"""The normal (Gaussian) distribution."""

from __future__ import annotations

import math
from numbers import Number

import torch

from ._declared import parameters
from ._location_scale import LocationScale, loc_and_scale
from .distribution import _draw_elementwise
from .exp_family import ExponentialFamily
from .utils import _standard_normal

__all__ = ["Normal"]


@parameters(
    *loc_and_scale("the mean.", "the standard deviation (positive)."),
    expand=True,
)
class Normal(LocationScale, ExponentialFamily):
    """The normal distribution of mean ``loc`` and standard deviation ``scale``.

    Examples::

        >>> Normal(torch.tensor([0.0]), torch.tensor([1.0])).sample()
        tensor([1.5410])
    """

    _mean_carrier_measure = 0

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def sample(self, sample_shape=torch.Size()):
        return _draw_elementwise(self, torch.normal, sample_shape, self.loc, self.scale)

    def _standard_draws(self, shape):
        return _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        variance = self.scale**2
        log_scale = math.log(self.scale) if isinstance(self.scale, Number) else self.scale.log()
        return (
            -((value - self.loc) ** 2) / (2 * variance)
            - log_scale
            - math.log(math.sqrt(2 * math.pi))
        )

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + torch.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * torch.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale)

    @property
    def _natural_params(self):
        return (self.loc / self.scale.pow(2), -0.5 * self.scale.pow(2).reciprocal())

    def _log_normalizer(self, x, y):
        return -0.25 * x.pow(2) / y + 0.5 * torch.log(-math.pi / y)
