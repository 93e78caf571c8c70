"""The half-normal distribution."""

from __future__ import annotations

import math

from . import constraints
from ._declared import Arg, parameters
from ._folded import FoldedAtZero
from .normal import Normal

__all__ = ["HalfNormal"]


@parameters(
    Arg("scale", constraints.positive, "the scale of the normal (positive)."),
)
class HalfNormal(FoldedAtZero):
    """``|X|`` for ``X ~ Normal(0, scale)``.

    Examples::

        >>> HalfNormal(torch.tensor([1.0])).sample()
        tensor([1.5410])
    """

    _base_class = Normal

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)
