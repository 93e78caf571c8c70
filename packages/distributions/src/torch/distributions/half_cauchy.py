"""The half-Cauchy distribution."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from ._folded import FoldedAtZero
from .cauchy import Cauchy

__all__ = ["HalfCauchy"]


@parameters(
    Arg("scale", constraints.positive, "the scale of the Cauchy distribution (positive)."),
)
class HalfCauchy(FoldedAtZero):
    """``|X|`` for ``X ~ Cauchy(0, scale)``.

    Examples::

        >>> HalfCauchy(torch.tensor([1.0])).sample()
        tensor([10.5977])
    """

    _base_class = Cauchy

    @property
    def mean(self):
        return torch.full(self._extended_shape(), math.inf, dtype=self.scale.dtype)

    @property
    def variance(self):
        return self.base_dist.variance

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        # a Python number compares and broadcasts as a tensor of the scale's dtype
        return super().log_prob(torch.as_tensor(value, dtype=self.base_dist.scale.dtype))
