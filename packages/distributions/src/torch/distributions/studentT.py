"""Student's t distribution."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from .chi2 import Chi2
from .distribution import Distribution, _set_broadcast
from .utils import _standard_normal

__all__ = ["StudentT"]


@parameters(
    Arg("df", constraints.positive, "the degrees of freedom (positive)."),
    Arg("loc", constraints.real, "the location. Default: 0.0."),
    Arg("scale", constraints.positive, "the scale (positive). Default: 1.0."),
    expand_also=("_chi2",),
)
class StudentT(Distribution):
    """Student's t distribution with ``df`` degrees of freedom, location ``loc`` and
    scale ``scale``: ``loc + scale * X / sqrt(Z / df)`` with ``X`` standard normal and
    ``Z ~ Chi2(df)``.

    Examples::

        >>> StudentT(torch.tensor([2.0])).sample()
        tensor([2.2854])
    """

    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None) -> None:
        batch_shape = _set_broadcast(self, df=df, loc=loc, scale=scale)
        self._chi2 = Chi2(self.df)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        mean = self.loc.clone(memory_format=torch.contiguous_format)
        mean[self.df <= 1] = math.nan
        return mean

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        df = self.df
        result = df.clone(memory_format=torch.contiguous_format)
        finite = df > 2
        result[finite] = self.scale[finite].pow(2) * df[finite] / (df[finite] - 2)
        result[(df <= 2) & (df > 1)] = math.inf
        result[df <= 1] = math.nan
        return result

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        x = _standard_normal(shape, dtype=self.df.dtype, device=self.df.device)
        z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (x * torch.rsqrt(z / self.df))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        log_normaliser = (
            self.scale.log()
            + 0.5 * self.df.log()
            + 0.5 * math.log(math.pi)
            + torch.lgamma(0.5 * self.df)
            - torch.lgamma(0.5 * (self.df + 1.0))
        )
        return -0.5 * (self.df + 1.0) * torch.log1p(y**2.0 / self.df) - log_normaliser

    def entropy(self):
        half_df = 0.5 * self.df
        half_df1 = 0.5 * (self.df + 1)
        lbeta = torch.lgamma(half_df) + math.lgamma(0.5) - torch.lgamma(half_df1)
        return (
            self.scale.log()
            + half_df1 * (torch.digamma(half_df1) - torch.digamma(half_df))
            + 0.5 * self.df.log()
            + lbeta
        )
