"""The gamma distribution."""

from __future__ import annotations

import torch
from torch._interface import ops

from . import constraints
from ._declared import Arg, parameters
from .distribution import _set_broadcast
from .exp_family import ExponentialFamily

__all__ = ["Gamma"]


@parameters(
    Arg("concentration", constraints.positive, "the shape (positive)."),
    Arg("rate", constraints.positive, "the rate, 1 / scale (positive)."),
    expand=True,
)
class Gamma(ExponentialFamily):
    """The gamma distribution of shape ``concentration`` and rate ``rate``. Its
    ``rsample`` is differentiable in both (the implicit reparameterisation gradient of
    core's ``_standard_gamma`` for the concentration).

    Examples::

        >>> Gamma(torch.tensor([1.0]), torch.tensor([1.0])).sample()
        tensor([2.8824])
    """

    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration, rate, validate_args=None) -> None:
        batch_shape = _set_broadcast(self, concentration=concentration, rate=rate)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        standard = ops["_standard_gamma"].function(self.concentration.expand(shape))
        value = standard / self.rate.expand(shape)
        # keep draws that underflowed off zero (in place on the data: no gradient change)
        value.detach().clamp_(min=torch.finfo(value.dtype).tiny)
        return value

    def log_prob(self, value):
        value = torch.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (
            torch.xlogy(self.concentration, self.rate)
            + torch.xlogy(self.concentration - 1, value)
            - self.rate * value
            - torch.lgamma(self.concentration)
        )

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return torch.special.gammainc(self.concentration, self.rate * value)

    def entropy(self):
        return (
            self.concentration
            - torch.log(self.rate)
            + torch.lgamma(self.concentration)
            + (1.0 - self.concentration) * torch.digamma(self.concentration)
        )

    @property
    def _natural_params(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return torch.lgamma(x + 1) + (x + 1) * torch.log(-y.reciprocal())
