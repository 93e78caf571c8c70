"""The Laplace (double exponential) distribution."""

from __future__ import annotations

import torch

from ._declared import parameters
from ._location_scale import LocationScale, loc_and_scale
from .distribution import Distribution

__all__ = ["Laplace"]


@parameters(
    *loc_and_scale("the mean."),
    expand=True,
)
class Laplace(LocationScale, Distribution):
    """The Laplace distribution of location ``loc`` and scale ``scale``.

    Examples::

        >>> Laplace(torch.tensor([0.0]), torch.tensor([1.0])).sample()
        tensor([-0.0075])
    """

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return 2**0.5 * self.scale

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = torch.finfo(self.loc.dtype).eps
        # uniform on (-1, 1), kept off -1 so that the logarithm stays finite
        u = self.loc.new(shape).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * torch.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -torch.log(2 * self.scale) - torch.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        centred = value - self.loc
        return 0.5 - 0.5 * centred.sign() * torch.expm1(-centred.abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * torch.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + torch.log(2 * self.scale)
