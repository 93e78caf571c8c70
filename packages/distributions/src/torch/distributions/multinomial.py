"""The multinomial distribution."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from ._over_categorical import OverCategorical
from ._probs_logits import category_probs_or_logits
from .binomial import Binomial
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Multinomial"]


@parameters(
    Arg("total_count", None, "the number of draws. Default: 1.", kind="int"),
    *category_probs_or_logits(),
)
class Multinomial(OverCategorical, Distribution):
    """Counts of each of ``K`` categories in ``total_count`` categorical draws.

    ``sample`` needs one ``total_count`` for the whole batch; ``log_prob`` accepts any
    counts.

    Examples::

        >>> Multinomial(10, torch.tensor([1.0, 1.0, 1.0, 1.0])).sample()
        tensor([1., 3., 3., 3.])
    """

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        batch_shape, event_shape = self._set_categorical(probs, logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Multinomial, _instance)
        new.total_count = self.total_count
        return self._expand_categorical(new, batch_shape)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        sample_shape = torch.Size(sample_shape)
        draws = self._categorical.sample(torch.Size((self.total_count,)) + sample_shape)
        # the draws' dim first, moved last, then counted per category
        order = list(range(1, draws.dim())) + [0]
        draws = draws.permute(*order)
        counts = draws.new(self._extended_shape(sample_shape)).zero_()
        counts.scatter_add_(-1, draws, torch.ones_like(draws))
        return counts.type_as(self.probs)

    def entropy(self):
        n = torch.tensor(self.total_count)
        term1 = n * self._categorical.entropy() - torch.lgamma(n + 1)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = torch.exp(self._binomial.log_prob(support))
        term2 = (binomial_probs * torch.lgamma(support + 1)).sum([0, -1])
        return term1 + term2

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone(memory_format=torch.contiguous_format)
        log_factorial_n = torch.lgamma(value.sum(-1) + 1)
        log_factorial_xs = torch.lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0  # 0 * -inf counts as 0
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)
