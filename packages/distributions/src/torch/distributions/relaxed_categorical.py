"""The relaxed one-hot categorical (Concrete, Gumbel-softmax) distribution."""

from __future__ import annotations

import torch

from . import constraints
from ._declared import Arg, parameters
from ._over_categorical import OverCategorical
from ._probs_logits import category_probs_or_logits
from .distribution import Distribution
from .transformed_distribution import TransformedDistribution
from .transforms import ExpTransform
from .utils import _forwarded, broadcast_all, clamp_probs

__all__ = ["ExpRelaxedCategorical", "RelaxedOneHotCategorical"]


@parameters(
    Arg("temperature", None, "the relaxation temperature.", kind="Tensor"),
    *category_probs_or_logits(),
)
class ExpRelaxedCategorical(OverCategorical, Distribution):
    """The log of a :class:`RelaxedOneHotCategorical` draw: the log-softmax of
    ``(logits + Gumbel noise) / temperature`` (Maddison et al., 2017).
    """

    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        batch_shape, event_shape = self._set_categorical(probs, logits)
        self.temperature = temperature
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ExpRelaxedCategorical, _instance)
        new.temperature = self.temperature
        return self._expand_categorical(new, batch_shape)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        uniforms = clamp_probs(torch.rand(shape, dtype=self.logits.dtype))
        gumbels = -(-uniforms.log()).log()
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value):
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_scale = torch.full_like(
            self.temperature, float(k)
        ).lgamma() - self.temperature.log().mul(-(k - 1))
        score = logits - value.mul(self.temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


@parameters(
    Arg("temperature", None, "the relaxation temperature (towards 0: one-hot).", kind="Tensor"),
    *category_probs_or_logits(),
)
class RelaxedOneHotCategorical(TransformedDistribution):
    """A continuous relaxation of :class:`OneHotCategorical` on the simplex (the
    Gumbel-softmax): the exponential of an :class:`ExpRelaxedCategorical` draw.

    Examples::

        >>> m = RelaxedOneHotCategorical(torch.tensor([2.2]), torch.tensor([0.1, 0.2, 0.3, 0.4]))
        >>> m.sample()
        tensor([0.1911, 0.4083, 0.1791, 0.2215])
    """

    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        base = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base, ExpTransform(), validate_args=validate_args)

    temperature = _forwarded("base_dist.temperature")
    logits = _forwarded("base_dist.logits")
    probs = _forwarded("base_dist.probs")
