"""The log-normal distribution."""

from __future__ import annotations

from . import constraints
from ._declared import parameters
from ._location_scale import loc_and_scale
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import ExpTransform
from .utils import _forwarded

__all__ = ["LogNormal"]


@parameters(
    *loc_and_scale(
        "the mean of the logarithm.", "the standard deviation of the logarithm (positive)."
    ),
)
class LogNormal(TransformedDistribution):
    """``exp(X)`` for ``X ~ Normal(loc, scale)``.

    Examples::

        >>> LogNormal(torch.tensor([0.0]), torch.tensor([1.0])).sample()
        tensor([4.6692])
    """

    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        base = Normal(loc, scale, validate_args=validate_args)
        super().__init__(base, ExpTransform(), validate_args=validate_args)

    loc = _forwarded("base_dist.loc")
    scale = _forwarded("base_dist.scale")

    @property
    def mean(self):
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self):
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self):
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc
