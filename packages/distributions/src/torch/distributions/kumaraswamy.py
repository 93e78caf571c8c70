"""The Kumaraswamy distribution."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant

__all__ = ["Kumaraswamy"]


def _moments(a, b, n):
    """The ``n``-th raw moment ``b * B(1 + n / a, b)``."""
    arg1 = 1 + n / a
    log_value = torch.lgamma(arg1) + torch.lgamma(b) - torch.lgamma(arg1 + b)
    return b * torch.exp(log_value)


@parameters(
    Arg("concentration1", constraints.positive, "a (positive)."),
    Arg("concentration0", constraints.positive, "b (positive)."),
)
class Kumaraswamy(TransformedDistribution):
    """The Kumaraswamy distribution on [0, 1] (a beta look-alike with a closed-form
    CDF): ``(1 - U ** (1 / concentration0)) ** (1 / concentration1)``.

    Examples::

        >>> Kumaraswamy(torch.tensor([1.0]), torch.tensor([1.0])).sample()
        tensor([0.5037])
    """

    support = constraints.unit_interval
    has_rsample = True

    _expanded_attributes = ("concentration1", "concentration0")

    def __init__(self, concentration1, concentration0, validate_args=None) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base = Uniform(
            torch.full_like(self.concentration0, 0),
            torch.full_like(self.concentration0, 1),
            validate_args=validate_args,
        )
        transforms = [
            PowerTransform(exponent=self.concentration0.reciprocal()),
            AffineTransform(loc=1.0, scale=-1.0),
            PowerTransform(exponent=self.concentration1.reciprocal()),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    @property
    def mean(self):
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        a, b = self.concentration1, self.concentration0
        log_mode = b.reciprocal() * (-b).log1p() - (-b * a).log1p()
        log_mode[(b < 1) | (a < 1)] = math.nan
        return log_mode.exp()

    @property
    def variance(self):
        return _moments(self.concentration1, self.concentration0, 2) - torch.pow(self.mean, 2)

    def entropy(self):
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        harmonic = torch.digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * harmonic - torch.log(self.concentration1) - torch.log(self.concentration0)
