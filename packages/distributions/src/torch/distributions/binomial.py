"""The binomial distribution."""

from __future__ import annotations

import torch

from . import _probs_logits, constraints
from ._probs_logits import ProbsOrLogitsParam
from .distribution import Distribution, _draw_elementwise, _expand_params

__all__ = ["Binomial"]


def _clamp_by_zero(x):
    """``max(x, 0)`` whose gradient at 0 is 1/2 (as the subgradient average)."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


def _homogeneous_count(total_count, what: str) -> int:
    count = int(total_count.max())
    if not total_count.min() == count:
        raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
    return count


class Binomial(ProbsOrLogitsParam, Distribution):
    """Successes in ``total_count`` Bernoulli(``probs``) trials. Give either ``probs`` or
    ``logits``.

    Args:
        total_count (int or Tensor): the number of trials. Default: 1.
        probs (Tensor, optional): the success probability.
        logits (Tensor, optional): its log-odds.
        validate_args (bool, optional): see :class:`Distribution`.

    Examples::

        >>> Binomial(10, torch.tensor([0.5, 0.2])).sample()
        tensor([7., 2.])
    """

    arg_constraints = {
        "total_count": constraints.nonnegative_integer,
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    has_enumerate_support = True

    logits = _probs_logits.logits
    probs = _probs_logits.probs

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None) -> None:
        batch_shape = self._set_count_and_probs_or_logits(total_count, probs, logits)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        names = ("total_count", "probs", "logits")
        return _expand_params(self, Binomial, batch_shape, _instance, names)

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
