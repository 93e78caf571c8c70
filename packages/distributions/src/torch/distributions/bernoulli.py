"""The Bernoulli distribution."""

from __future__ import annotations

import math

import torch

from . import _probs_logits, constraints
from ._declared import parameters
from ._probs_logits import ProbsOrLogitsParam, probs_or_logits
from .distribution import _draw_elementwise
from .exp_family import ExponentialFamily
from .utils import broadcast_all

__all__ = ["Bernoulli"]


def _bce_with_logits(logits, target):
    return torch.binary_cross_entropy_with_logits(logits, target, reduction="none")


@parameters(*probs_or_logits("the probability of 1.", "the log-odds of 1."), expand=True)
class Bernoulli(ProbsOrLogitsParam, ExponentialFamily):
    """The Bernoulli distribution: 1 with probability ``probs``, else 0. Give either
    ``probs`` or ``logits`` (log-odds).

    Examples::

        >>> Bernoulli(torch.tensor([0.3, 0.7])).sample()
        tensor([0., 0.])
    """

    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    logits = _probs_logits.logits
    probs = _probs_logits.probs

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        batch_shape = self._set_probs_or_logits(probs, logits)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        return _draw_elementwise(self, torch.bernoulli, sample_shape, self.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -_bce_with_logits(logits, value)

    def entropy(self):
        return _bce_with_logits(self.logits, self.probs)

    def enumerate_support(self, expand=True):
        values = torch.arange(2, dtype=self._param.dtype, device=self._param.device)
        return self._support_along_batch(values, expand)

    @property
    def _natural_params(self):
        return (torch.logit(self.probs),)

    def _log_normalizer(self, x):
        return torch.log1p(torch.exp(x))
