"""The Fisher-Snedecor (F) distribution."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from .distribution import Distribution, _set_broadcast
from .gamma import Gamma

__all__ = ["FisherSnedecor"]


@parameters(
    Arg("df1", constraints.positive, "the numerator's degrees of freedom (positive)."),
    Arg("df2", constraints.positive, "the denominator's degrees of freedom (positive)."),
    expand_also=("_gamma1", "_gamma2"),
)
class FisherSnedecor(Distribution):
    """The F distribution: the ratio of two scaled chi-squared variables of ``df1`` and
    ``df2`` degrees of freedom.

    Examples::

        >>> FisherSnedecor(torch.tensor([1.0]), torch.tensor([2.0])).sample()
        tensor([0.0133])
    """

    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None) -> None:
        batch_shape = _set_broadcast(self, df1=df1, df2=df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        df2 = self.df2.clone(memory_format=torch.contiguous_format)
        df2[df2 <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self):
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = math.nan
        return mode

    @property
    def variance(self):
        df2 = self.df2.clone(memory_format=torch.contiguous_format)
        df2[df2 <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape=torch.Size(())):
        shape = self._extended_shape(sample_shape)
        x1 = self._gamma1.rsample(sample_shape).view(shape)
        x2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = torch.finfo(x2.dtype).tiny
        x2.clamp_(min=tiny)
        ratio = x1 / x2
        ratio.clamp_(min=tiny)
        return ratio

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        half1, half2 = self.df1 * 0.5, self.df2 * 0.5
        ratio = self.df1 / self.df2
        t1 = (half1 + half2).lgamma() - half1.lgamma() - half2.lgamma()
        t2 = half1 * ratio.log() + (half1 - 1) * torch.log(value)
        t3 = (half1 + half2) * torch.log1p(ratio * value)
        return t1 + t2 - t3
