"""The relaxed Bernoulli (binary Concrete) distribution."""

from __future__ import annotations

import torch

from . import _probs_logits, constraints
from ._declared import Arg, parameters
from ._probs_logits import ProbsOrLogitsParam, probs_or_logits
from .distribution import Distribution
from .transformed_distribution import TransformedDistribution
from .transforms import SigmoidTransform
from .utils import _forwarded, broadcast_all, clamp_probs

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]


@parameters(
    Arg("temperature", None, "the relaxation temperature.", kind="Tensor"),
    *probs_or_logits("the probability of 1."),
    expand_keeps=("temperature",),
)
class LogitRelaxedBernoulli(ProbsOrLogitsParam, Distribution):
    """The logit of a :class:`RelaxedBernoulli` draw: ``(logistic noise + logits) /
    temperature`` (Maddison et al., 2017).
    """

    support = constraints.real

    logits = _probs_logits.logits
    probs = _probs_logits.probs

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        self.temperature = temperature
        batch_shape = self._set_probs_or_logits(probs, logits)
        super().__init__(batch_shape, validate_args=validate_args)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(torch.rand(shape, dtype=probs.dtype, device=probs.device))
        logistic = uniforms.log() - (-uniforms).log1p()
        return (logistic + probs.log() - (-probs).log1p()) / self.temperature

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


@parameters(
    Arg("temperature", None, "the relaxation temperature (towards 0: Bernoulli).", kind="Tensor"),
    *probs_or_logits("the probability of 1."),
)
class RelaxedBernoulli(TransformedDistribution):
    """A continuous relaxation of the Bernoulli distribution on (0, 1): the sigmoid of
    a :class:`LogitRelaxedBernoulli` draw; reparameterised.

    Examples::

        >>> RelaxedBernoulli(torch.tensor([2.2]), torch.tensor([0.1, 0.2, 0.3, 0.99])).sample()
        tensor([0.2679, 0.4786, 0.1907, 0.7743])
    """

    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        base = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base, SigmoidTransform(), validate_args=validate_args)

    temperature = _forwarded("base_dist.temperature")
    logits = _forwarded("base_dist.logits")
    probs = _forwarded("base_dist.probs")
