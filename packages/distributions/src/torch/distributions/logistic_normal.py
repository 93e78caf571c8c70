"""The logistic-normal distribution."""

from __future__ import annotations

from . import constraints
from ._declared import parameters
from ._location_scale import loc_and_scale
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import StickBreakingTransform
from .utils import _forwarded

__all__ = ["LogisticNormal"]


@parameters(
    *loc_and_scale("the means of the normals.", "their standard deviations (positive)."),
)
class LogisticNormal(TransformedDistribution):
    """A distribution on the simplex: independent normals of length ``K - 1`` mapped by
    stick breaking to the ``K``-simplex.

    Examples::

        >>> LogisticNormal(torch.zeros(2), torch.ones(2)).sample()
        tensor([0.7001, 0.1281, 0.1718])
    """

    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        base = Normal(loc, scale, validate_args=validate_args)
        if not base.batch_shape:
            base = base.expand([1])
        super().__init__(base, StickBreakingTransform(), validate_args=validate_args)

    # the normal inside the Independent that TransformedDistribution wraps it in
    loc = _forwarded("base_dist.base_dist.loc")
    scale = _forwarded("base_dist.base_dist.scale")
