"""The continuous Bernoulli distribution."""

from __future__ import annotations

import math

import torch

from . import _probs_logits, constraints
from ._declared import Arg, parameters
from ._probs_logits import ProbsOrLogitsParam, probs_or_logits
from .exp_family import ExponentialFamily
from .utils import broadcast_all, clamp_probs, lazy_property, logits_to_probs

__all__ = ["ContinuousBernoulli"]


@parameters(
    *probs_or_logits("the parameter, in [0, 1]."),
    Arg("lims", None, "the unstable region. Default: ``(0.499, 0.501)``.", kind="tuple of float"),
    expand_keeps=("_lims",),
)
class ContinuousBernoulli(ProbsOrLogitsParam, ExponentialFamily):
    """The continuous Bernoulli distribution on [0, 1] (Loaiza-Ganem and Cunningham,
    2019): density proportional to ``probs ** x * (1 - probs) ** (1 - x)``. Near
    ``probs = 0.5`` (within ``lims``) Taylor expansions replace the unstable formulas.

    Examples::

        >>> ContinuousBernoulli(torch.tensor([0.3])).sample()
        tensor([0.3936])
    """

    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    logits = _probs_logits.logits

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        batch_shape = self._set_probs_or_logits(probs, logits)
        if probs is not None:
            if validate_args is not None:
                if not self.arg_constraints["probs"].check(self.probs).all():
                    raise ValueError("The parameter probs has invalid values")
            self.probs = clamp_probs(self.probs)
            self._param = self.probs
        self._lims = lims
        super().__init__(batch_shape, validate_args=validate_args)

    def _outside_unstable_region(self):
        return torch.max(torch.le(self.probs, self._lims[0]), torch.gt(self.probs, self._lims[1]))

    def _cut_probs(self):
        """``probs``, with the unstable region replaced by its lower limit (its results
        there are discarded for the Taylor expansions)."""
        return torch.where(
            self._outside_unstable_region(),
            self.probs,
            self._lims[0] * torch.ones_like(self.probs),
        )

    def _cont_bern_log_norm(self):
        """The log of the normalising constant."""
        cut = self._cut_probs()
        below_half = torch.where(torch.le(cut, 0.5), cut, torch.zeros_like(cut))
        above_half = torch.where(torch.ge(cut, 0.5), cut, torch.ones_like(cut))
        log_norm = torch.log(torch.abs(torch.log1p(-cut) - torch.log(cut))) - torch.where(
            torch.le(cut, 0.5),
            torch.log1p(-2.0 * below_half),
            torch.log(2.0 * above_half - 1.0),
        )
        x = torch.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return torch.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        cut = self._cut_probs()
        mus = cut / (2.0 * cut - 1.0) + 1.0 / (torch.log1p(-cut) - torch.log(cut))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * torch.pow(x, 2)) * x
        return torch.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        return torch.sqrt(self.variance)

    @property
    def variance(self):
        cut = self._cut_probs()
        variances = cut * (cut - 1.0) / torch.pow(1.0 - 2.0 * cut, 2) + 1.0 / torch.pow(
            torch.log1p(-cut) - torch.log(cut), 2
        )
        x = torch.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return torch.where(self._outside_unstable_region(), variances, taylor)

    @lazy_property
    def probs(self):
        # clamped: the normaliser's logarithms stay finite
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        u = torch.rand(shape, dtype=self.probs.dtype, device=self.probs.device)
        with torch.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        u = torch.rand(shape, dtype=self.probs.dtype, device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        bce = torch.binary_cross_entropy_with_logits(logits, value, reduction="none")
        return -bce + self._cont_bern_log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        cut = self._cut_probs()
        cdfs = (torch.pow(cut, value) * torch.pow(1.0 - cut, 1.0 - value) + cut - 1.0) / (
            2.0 * cut - 1.0
        )
        unbounded = torch.where(self._outside_unstable_region(), cdfs, value)
        return torch.where(
            torch.le(value, 0.0),
            torch.zeros_like(value),
            torch.where(torch.ge(value, 1.0), torch.ones_like(value), unbounded),
        )

    def icdf(self, value):
        cut = self._cut_probs()
        general = (torch.log1p(-cut + value * (2.0 * cut - 1.0)) - torch.log1p(-cut)) / (
            torch.log(cut) - torch.log1p(-cut)
        )
        return torch.where(self._outside_unstable_region(), general, value)

    def entropy(self):
        log_probs0 = torch.log1p(-self.probs)
        log_probs1 = torch.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        outside = torch.max(torch.le(x, self._lims[0] - 0.5), torch.gt(x, self._lims[1] - 0.5))
        cut = torch.where(outside, x, (self._lims[0] - 0.5) * torch.ones_like(x))
        log_norm = torch.log(torch.abs(torch.special.expm1(cut))) - torch.log(torch.abs(cut))
        taylor = 0.5 * x + torch.pow(x, 2) / 24.0 - torch.pow(x, 4) / 2880.0
        return torch.where(outside, log_norm, taylor)
