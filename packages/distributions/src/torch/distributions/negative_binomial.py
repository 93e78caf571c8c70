"""The negative binomial distribution."""

from __future__ import annotations

import torch

from . import _probs_logits, constraints
from ._declared import Arg, parameters
from ._probs_logits import ProbsOrLogitsParam, probs_or_logits
from .distribution import Distribution
from .gamma import Gamma
from .utils import _logsigmoid, lazy_property

__all__ = ["NegativeBinomial"]


@parameters(
    Arg("total_count", constraints.greater_than_eq(0), "the number of failures (nonnegative)."),
    *probs_or_logits(
        "the success probability, in [0, 1).",
        kind="Tensor",
        probs_in=constraints.half_open_interval(0.0, 1.0),
    ),
    expand=True,
)
class NegativeBinomial(ProbsOrLogitsParam, Distribution):
    """Successes before ``total_count`` failures of Bernoulli(``probs``) trials (a
    gamma-Poisson mixture, so ``total_count`` may be any nonnegative real).

    Examples::

        >>> NegativeBinomial(5.0, torch.tensor([0.5])).sample()
        tensor([9.])
    """

    support = constraints.nonnegative_integer

    logits = _probs_logits.logits
    probs = _probs_logits.probs

    def __init__(self, total_count, probs=None, logits=None, validate_args=None) -> None:
        batch_shape = self._set_count_and_probs_or_logits(total_count, probs, logits)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.total_count * torch.exp(self.logits)

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / torch.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self):
        # the Poisson rate's mixing distribution
        rate = torch.exp(-self.logits)
        return Gamma(concentration=self.total_count, rate=rate, validate_args=False)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return torch.poisson(self._gamma.sample(sample_shape=sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_unnormalised = self.total_count * _logsigmoid(-self.logits) + value * _logsigmoid(
            self.logits
        )
        log_normalisation = (
            -torch.lgamma(self.total_count + value)
            + torch.lgamma(1.0 + value)
            + torch.lgamma(self.total_count)
        )
        log_normalisation = log_normalisation.masked_fill(self.total_count + value == 0.0, 0.0)
        return log_unnormalised - log_normalisation
