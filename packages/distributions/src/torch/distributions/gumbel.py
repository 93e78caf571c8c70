"""The Gumbel (type-I extreme value) distribution."""

from __future__ import annotations

import math
from numbers import Number

import torch

from . import constraints
from ._declared import parameters
from ._location_scale import loc_and_scale
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant

__all__ = ["Gumbel"]


@parameters(
    *loc_and_scale(),
)
class Gumbel(TransformedDistribution):
    """The Gumbel distribution of location ``loc`` and scale ``scale``: the law of
    ``loc - scale * log(-log U)`` for ``U`` uniform.

    Examples::

        >>> Gumbel(torch.tensor([0.0]), torch.tensor([1.0])).sample()
        tensor([0.3557])
    """

    support = constraints.real

    _expanded_attributes = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        info = torch.finfo(self.loc.dtype)
        # uniform on [tiny, 1 - eps): both logarithms below stay finite
        if isinstance(loc, Number) and isinstance(scale, Number):
            base = Uniform(info.tiny, 1 - info.eps, validate_args=validate_args)
        else:
            base = Uniform(
                torch.full_like(self.loc, info.tiny),
                torch.full_like(self.loc, 1 - info.eps),
                validate_args=validate_args,
            )
        transforms = [
            ExpTransform().inv,
            AffineTransform(loc=0, scale=-torch.ones_like(self.scale)),
            ExpTransform().inv,
            AffineTransform(loc=loc, scale=-self.scale),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return y - y.exp() - self.scale.log()

    @property
    def mean(self):
        return self.loc + self.scale * euler_constant

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return math.pi / math.sqrt(6) * self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def entropy(self):
        return self.scale.log() + (1 + euler_constant)
