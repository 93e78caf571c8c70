"""The Poisson distribution."""

from __future__ import annotations

import torch

from . import constraints
from ._declared import Arg, parameters
from .distribution import _draw_elementwise, _set_broadcast
from .exp_family import ExponentialFamily
from .utils import broadcast_all

__all__ = ["Poisson"]


@parameters(
    Arg("rate", constraints.nonnegative, "the rate (nonnegative)."),
    expand=True,
)
class Poisson(ExponentialFamily):
    """The Poisson distribution of rate ``rate``: counts of events.

    Examples::

        >>> Poisson(torch.tensor([4.0])).sample()
        tensor([7.])
    """

    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None) -> None:
        super().__init__(_set_broadcast(self, rate=rate), validate_args=validate_args)

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=torch.Size()):
        return _draw_elementwise(self, torch.poisson, sample_shape, self.rate)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self):
        return (torch.log(self.rate),)

    def _log_normalizer(self, x):
        return torch.exp(x)
