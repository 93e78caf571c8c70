"""The one-hot categorical distribution."""

from __future__ import annotations

import torch

from . import constraints
from ._declared import parameters
from ._over_categorical import OverCategorical
from ._probs_logits import category_probs_or_logits
from .distribution import Distribution
from .utils import _forwarded, _one_hot

__all__ = ["OneHotCategorical", "OneHotCategoricalStraightThrough"]


@parameters(*category_probs_or_logits("event probabilities (normalised along the last dim)."))
class OneHotCategorical(OverCategorical, Distribution):
    """A categorical draw written as a one-hot vector of length ``K``.

    Examples::

        >>> OneHotCategorical(torch.tensor([0.25, 0.25, 0.25, 0.25])).sample()
        tensor([0., 0., 1., 0.])
    """

    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        batch_shape, event_shape = self._set_categorical(probs, logits)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(OneHotCategorical, _instance)
        return self._expand_categorical(new, batch_shape)

    _param = _forwarded("_categorical._param")
    mean = _forwarded("_categorical.probs")

    @property
    def mode(self):
        probs = self._categorical.probs
        return _one_hot(probs.argmax(dim=-1), probs.shape[-1]).to(probs)

    @property
    def variance(self):
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape=torch.Size()):
        indices = self._categorical.sample(torch.Size(sample_shape))
        return _one_hot(indices, self._categorical._num_events).to(self._categorical.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self.event_shape[0]
        values = torch.eye(n, dtype=self._param.dtype, device=self._param.device)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        return values.expand((n,) + self.batch_shape + (n,)) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """:class:`OneHotCategorical` whose ``rsample`` passes gradients straight through:
    the draw's value, with the gradient of the probabilities (Bengio et al., 2013)."""

    has_rsample = True

    def rsample(self, sample_shape=torch.Size()):
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
