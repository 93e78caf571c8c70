"""The geometric distribution."""

from __future__ import annotations

import torch

from . import _probs_logits, constraints
from ._declared import parameters
from ._probs_logits import ProbsOrLogits, probs_or_logits
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Geometric"]


@parameters(*probs_or_logits("the success probability, in (0, 1]."), expand=True)
class Geometric(ProbsOrLogits, Distribution):
    """The number of failures before the first success of Bernoulli(``probs``) trials
    (0, 1, 2, ...). Give either ``probs`` or ``logits``.

    Examples::

        >>> Geometric(torch.tensor([0.3])).sample()
        tensor([1.])
    """

    support = constraints.nonnegative_integer

    logits = _probs_logits.logits
    probs = _probs_logits.probs

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        batch_shape = self._set_probs_or_logits(probs, logits)
        super().__init__(batch_shape, validate_args=validate_args)
        if self._validate_args and probs is not None:
            value = self.probs
            positive = value > 0
            if not positive.all():
                raise ValueError(
                    f"Expected parameter probs ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to be positive but found "
                    f"invalid values:\n{value.data[~positive]}"
                )

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return torch.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        tiny = torch.finfo(self.probs.dtype).tiny
        with torch.no_grad():
            u = self.probs.new(shape).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone(memory_format=torch.contiguous_format)
        probs[(probs == 1) & (value == 0)] = 0  # 0 * log(0) is 0 here
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        bce = torch.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")
        return bce / self.probs
