"""The continuous uniform distribution."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from .distribution import Distribution, _set_broadcast

__all__ = ["Uniform"]


# the bounds constrain each other: arg_constraints is computed below
@parameters(
    Arg("low", None, "the lower bound (inclusive)."),
    Arg("high", None, "the upper bound (exclusive)."),
    expand_also=("low", "high"),
)
class Uniform(Distribution):
    """Uniform on the half-open interval ``[low, high)``.

    Examples::

        >>> Uniform(torch.tensor([0.0]), torch.tensor([5.0])).sample()
        tensor([2.4813])
    """

    has_rsample = True

    def __init__(self, low, high, validate_args=None) -> None:
        super().__init__(_set_broadcast(self, low=low, high=high), validate_args=validate_args)

    @property
    def arg_constraints(self):
        return {
            "low": constraints.less_than(self.high),
            "high": constraints.greater_than(self.low),
        }

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.interval(self.low, self.high)

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def mode(self):
        return math.nan * self.high

    @property
    def stddev(self):
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        rand = torch.rand(shape, dtype=self.low.dtype, device=self.low.device)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        inside = self.low.le(value).type_as(self.low).mul(self.high.gt(value).type_as(self.low))
        return torch.log(inside) - torch.log(self.high - self.low)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return torch.log(self.high - self.low)
