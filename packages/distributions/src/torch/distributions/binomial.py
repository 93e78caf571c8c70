"""The binomial distribution."""

from __future__ import annotations

import torch

from . import _probs_logits, constraints
from ._declared import Arg, parameters
from ._probs_logits import ProbsOrLogitsParam, probs_or_logits
from .distribution import Distribution, _draw_elementwise

__all__ = ["Binomial"]


def _clamp_by_zero(x):
    """``max(x, 0)`` whose gradient at 0 is 1/2 (as the subgradient average)."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


def _homogeneous_count(total_count, what: str) -> int:
    count = int(total_count.max())
    if not total_count.min() == count:
        raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
    return count


@parameters(
    Arg(
        "total_count",
        constraints.nonnegative_integer,
        "the number of trials. Default: 1.",
        kind="int or Tensor",
    ),
    *probs_or_logits("the success probability.", kind="Tensor"),
    expand=True,
)
class Binomial(ProbsOrLogitsParam, Distribution):
    """Successes in ``total_count`` Bernoulli(``probs``) trials. Give either ``probs`` or
    ``logits``.

    Examples::

        >>> Binomial(10, torch.tensor([0.5, 0.2])).sample()
        tensor([7., 2.])
    """

    has_enumerate_support = True

    logits = _probs_logits.logits
    probs = _probs_logits.probs

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None) -> None:
        batch_shape = self._set_count_and_probs_or_logits(total_count, probs, logits)
        super().__init__(batch_shape, validate_args=validate_args)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        return _draw_elementwise(self, torch.binomial, sample_shape, self.total_count, self.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n = self.total_count
        log_choose = torch.lgamma(n + 1) - torch.lgamma(value + 1) - torch.lgamma(n - value + 1)
        # n * log(1 + exp(logits)), stably
        log_normaliser = n * _clamp_by_zero(self.logits) + n * torch.log1p(
            torch.exp(-torch.abs(self.logits))
        )
        return value * self.logits + log_choose - log_normaliser

    def entropy(self):
        _homogeneous_count(self.total_count, "entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(torch.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        count = _homogeneous_count(self.total_count, "enumerate_support")
        values = torch.arange(1 + count, dtype=self._param.dtype, device=self._param.device)
        return self._support_along_batch(values, expand)
