"""``Independent``: batch dims of a distribution reinterpreted as event dims."""

from __future__ import annotations

from typing import Generic, TypeVar

import torch

from . import constraints
from ._declared import Arg, parameters
from .distribution import Distribution, _init_expanded
from .utils import _forwarded, _sum_rightmost

__all__ = ["Independent"]

D = TypeVar("D", bound=Distribution)  # the type of the wrapped distribution


@parameters(
    Arg("base_distribution", None, "the distribution to wrap.", kind="Distribution"),
    Arg("reinterpreted_batch_ndims", None, "how many batch dims become event dims.", kind="int"),
)
class Independent(Distribution, Generic[D]):
    """``base_distribution`` with its ``reinterpreted_batch_ndims`` rightmost batch dims
    made event dims: ``log_prob`` sums over them (a diagonal multivariate normal from a
    batch of normals).

    Examples::

        >>> d = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
        >>> d.batch_shape, d.event_shape
        (torch.Size([]), torch.Size([3]))
    """

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        if reinterpreted_batch_ndims > len(base_distribution.batch_shape):
            raise ValueError(
                "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                f"actual {reinterpreted_batch_ndims} vs {len(base_distribution.batch_shape)}"
            )
        shape = base_distribution.batch_shape + base_distribution.event_shape
        event_dim = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        cut = len(shape) - event_dim
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(shape[:cut], shape[cut:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Independent, _instance)
        batch_shape = torch.Size(batch_shape)
        reinterpreted = self.event_shape[: self.reinterpreted_batch_ndims]
        new.base_dist = self.base_dist.expand(batch_shape + reinterpreted)
        new.reinterpreted_batch_ndims = self.reinterpreted_batch_ndims
        return _init_expanded(self, new, batch_shape)

    has_rsample = _forwarded("base_dist.has_rsample")

    @property
    def has_enumerate_support(self):
        if self.reinterpreted_batch_ndims > 0:
            return False
        return self.base_dist.has_enumerate_support

    @constraints.dependent_property
    def support(self):
        result = self.base_dist.support
        if self.reinterpreted_batch_ndims:
            result = constraints.independent(result, self.reinterpreted_batch_ndims)
        return result

    mean = _forwarded("base_dist.mean")
    mode = _forwarded("base_dist.mode")
    variance = _forwarded("base_dist.variance")

    def sample(self, sample_shape=torch.Size()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value):
        return _sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self):
        return _sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def enumerate_support(self, expand=True):
        if self.reinterpreted_batch_ndims > 0:
            raise NotImplementedError("Enumeration over cartesian product is not implemented")
        return self.base_dist.enumerate_support(expand=expand)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_dist}, {self.reinterpreted_batch_ndims})"
