"""What HalfNormal and HalfCauchy share: ``|X|`` for a distribution ``X`` symmetric about
0 with a ``scale``, whose density, cdf and entropy follow from ``X``'s by folding."""

from __future__ import annotations

import math

import torch

from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform
from .utils import _forwarded

__all__ = ["FoldedAtZero"]


class FoldedAtZero(TransformedDistribution):
    """``|X|`` for ``X ~ _base_class(0, scale)``; a subclass names ``_base_class`` and
    declares ``scale`` (its ``arg_constraints``)."""

    _base_class: type
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None) -> None:
        base = self._base_class(0, scale, validate_args=False)
        super().__init__(base, AbsTransform(), validate_args=validate_args)

    scale = _forwarded("base_dist.scale")

    @property
    def mode(self):
        return torch.zeros_like(self.scale)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)
