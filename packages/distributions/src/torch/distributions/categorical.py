"""The categorical distribution."""

from __future__ import annotations

import math

import torch

from . import _probs_logits, constraints
from ._declared import parameters
from ._probs_logits import ProbsOrLogitsParam, _given_probs_or_logits, category_probs_or_logits
from .distribution import Distribution

__all__ = ["Categorical"]


@parameters(
    *category_probs_or_logits("nonnegative, finite, nonzero-sum weights.", "log-weights."),
    expand_keeps=("_num_events",),
)
class Categorical(ProbsOrLogitsParam, Distribution):
    """A draw of one of ``K`` categories (an index in ``0 .. K-1``), with probabilities
    ``probs`` (normalised along the last dim) or unnormalised log-probabilities
    ``logits``.

    Examples::

        >>> Categorical(torch.tensor([0.25, 0.25, 0.25, 0.25])).sample((3,))
        tensor([3, 2, 1])
    """

    has_enumerate_support = True
    _is_binary = False

    logits = _probs_logits.logits
    probs = _probs_logits.probs

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        _given_probs_or_logits(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
            self._param = self.probs
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            self._param = self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.ndimension() > 1 else torch.Size()
        super().__init__(batch_shape, validate_args=validate_args)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def mean(self):
        return torch.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return torch.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    def sample(self, sample_shape=torch.Size()):
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        rows = self.probs.reshape(-1, self._num_events)
        draws = torch.multinomial(rows, sample_shape.numel(), True).T
        return draws.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = torch.broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        # -inf logits (zero probabilities) clamped so that 0 * log 0 counts as 0
        logits = torch.clamp(self.logits, min=torch.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        values = torch.arange(self._num_events, dtype=torch.long, device=self._param.device)
        return self._support_along_batch(values, expand)
