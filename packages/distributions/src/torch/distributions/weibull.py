"""The Weibull distribution."""

from __future__ import annotations

import torch

from . import constraints
from ._declared import Arg, parameters
from .distribution import _expand_attributes
from .exponential import Exponential
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .utils import broadcast_all, euler_constant

__all__ = ["Weibull"]


@parameters(
    Arg("scale", constraints.positive, "the scale (positive)."),
    Arg("concentration", constraints.positive, "the shape (positive)."),
)
class Weibull(TransformedDistribution):
    """The two-parameter Weibull distribution: ``scale * E ** (1 / concentration)`` for
    ``E ~ Exponential(1)``.

    Examples::

        >>> Weibull(torch.tensor([1.0]), torch.tensor([1.0])).sample()
        tensor([3.5083])
    """

    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None) -> None:
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base = Exponential(torch.ones_like(self.scale), validate_args=validate_args)
        super().__init__(base, self._transforms(), validate_args=validate_args)

    def _transforms(self):
        return [
            PowerTransform(exponent=self.concentration_reciprocal),
            AffineTransform(loc=0, scale=self.scale),
        ]

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Weibull, _instance)
        _expand_attributes(self, new, batch_shape, ("scale", "concentration"))
        new.concentration_reciprocal = new.concentration.reciprocal()
        base = self.base_dist.expand(batch_shape)
        TransformedDistribution.__init__(new, base, new._transforms(), validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return self.scale * torch.exp(torch.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self):
        k = self.concentration
        return self.scale * ((k - 1) / k) ** k.reciprocal()

    @property
    def variance(self):
        inv = self.concentration_reciprocal
        return self.scale.pow(2) * (
            torch.exp(torch.lgamma(1 + 2 * inv)) - torch.exp(2 * torch.lgamma(1 + inv))
        )

    def entropy(self):
        inv = self.concentration_reciprocal
        return euler_constant * (1 - inv) + torch.log(self.scale * inv) + 1
