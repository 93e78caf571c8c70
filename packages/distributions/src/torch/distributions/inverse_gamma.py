"""The inverse gamma distribution."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from .gamma import Gamma
from .transformed_distribution import TransformedDistribution
from .transforms import PowerTransform
from .utils import _forwarded

__all__ = ["InverseGamma"]


@parameters(
    Arg("concentration", constraints.positive, "the shape (positive)."),
    Arg("rate", constraints.positive, "the scale of the inverse (positive)."),
)
class InverseGamma(TransformedDistribution):
    """``1 / X`` for ``X ~ Gamma(concentration, rate)``.

    Examples::

        >>> InverseGamma(torch.tensor([2.0]), torch.tensor([3.0])).sample()
        tensor([0.6590])
    """

    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None) -> None:
        base = Gamma(concentration, rate, validate_args=validate_args)
        minus_one = -base.rate.new_ones(())
        super().__init__(base, PowerTransform(minus_one), validate_args=validate_args)

    concentration = _forwarded("base_dist.concentration")
    rate = _forwarded("base_dist.rate")

    @property
    def mean(self):
        result = self.rate / (self.concentration - 1)
        return torch.where(self.concentration > 1, result, math.inf)

    @property
    def mode(self):
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        a = self.concentration
        result = self.rate.square() / ((a - 1).square() * (a - 2))
        return torch.where(a > 2, result, math.inf)

    def entropy(self):
        a = self.concentration
        return a + self.rate.log() + a.lgamma() - (1 + a) * a.digamma()
