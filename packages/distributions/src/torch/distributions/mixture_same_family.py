"""``MixtureSameFamily``: a finite mixture of distributions of one family."""

from __future__ import annotations

import torch

from . import constraints
from ._declared import Arg, parameters
from .categorical import Categorical
from .distribution import Distribution, _init_expanded
from .utils import _forwarded

__all__ = ["MixtureSameFamily"]


@parameters(
    Arg("mixture_distribution", None, "the component weights.", kind="Categorical"),
    Arg(
        "component_distribution",
        None,
        "the components, batched along the\nrightmost batch dim.",
        kind="Distribution",
    ),
)
class MixtureSameFamily(Distribution):
    """A mixture whose components are the rightmost batch dim of
    ``component_distribution`` and whose weights are ``mixture_distribution``.

    Examples::

        >>> mix = Categorical(torch.ones(3))
        >>> comp = Normal(torch.tensor([-1.0, 0.0, 1.0]), torch.ones(3))
        >>> gmm = MixtureSameFamily(mix, comp)
        >>> gmm.batch_shape, gmm.event_shape
        (torch.Size([]), torch.Size([]))
    """

    def __init__(self, mixture_distribution, component_distribution, validate_args=None):
        self._mixture_distribution = mixture_distribution
        self._component_distribution = component_distribution
        if not isinstance(mixture_distribution, Categorical):
            raise ValueError(
                " The Mixture distribution needs to be an  instance of "
                "torch.distributions.Categorical"
            )
        if not isinstance(component_distribution, Distribution):
            raise ValueError(
                "The Component distribution needs to be an instance of "
                "torch.distributions.Distribution"
            )
        mixture_batch = mixture_distribution.batch_shape
        component_batch = component_distribution.batch_shape[:-1]
        for size1, size2 in zip(reversed(mixture_batch), reversed(component_batch)):
            if size1 != 1 and size2 != 1 and size1 != size2:
                raise ValueError(
                    f"`mixture_distribution.batch_shape` ({mixture_batch}) is not compatible "
                    f"with `component_distribution.batch_shape`({component_batch})"
                )
        km = mixture_distribution.logits.shape[-1]
        kc = component_distribution.batch_shape[-1]
        if km != kc:
            raise ValueError(
                f"`mixture_distribution component` ({km}) does not equal "
                f"`component_distribution.batch_shape[-1]` ({kc})"
            )
        self._num_component = km
        event_shape = component_distribution.event_shape
        self._event_ndims = len(event_shape)
        super().__init__(
            batch_shape=component_batch, event_shape=event_shape, validate_args=validate_args
        )

    def expand(self, batch_shape, _instance=None):
        batch_shape = torch.Size(batch_shape)
        new = self._get_checked_instance(MixtureSameFamily, _instance)
        new._component_distribution = self._component_distribution.expand(
            batch_shape + (self._num_component,)
        )
        new._mixture_distribution = self._mixture_distribution.expand(batch_shape)
        new._num_component = self._num_component
        new._event_ndims = self._event_ndims
        event_shape = new._component_distribution.event_shape
        return _init_expanded(self, new, batch_shape, event_shape)

    @constraints.dependent_property
    def support(self):
        return constraints.MixtureSameFamilyConstraint(self._component_distribution.support)

    mixture_distribution = _forwarded("_mixture_distribution")
    component_distribution = _forwarded("_component_distribution")

    @property
    def mean(self):
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        return torch.sum(probs * self.component_distribution.mean, dim=-1 - self._event_ndims)

    @property
    def variance(self):
        # the law of total variance
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        dim = -1 - self._event_ndims
        mean_of_variances = torch.sum(probs * self.component_distribution.variance, dim=dim)
        spread = (self.component_distribution.mean - self._pad(self.mean)).pow(2.0)
        return mean_of_variances + torch.sum(probs * spread, dim=dim)

    def cdf(self, x):
        cdf_x = self.component_distribution.cdf(self._pad(x))
        return torch.sum(cdf_x * self.mixture_distribution.probs, dim=-1)

    def log_prob(self, x):
        if self._validate_args:
            self._validate_sample(x)
        log_prob_x = self.component_distribution.log_prob(self._pad(x))
        log_mix_prob = torch.log_softmax(self.mixture_distribution.logits, dim=-1)
        return torch.logsumexp(log_prob_x + log_mix_prob, dim=-1)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            gather_dim = len(sample_shape) + len(self.batch_shape)
            event_shape = self.event_shape
            choice = self.mixture_distribution.sample(sample_shape)
            components = self.component_distribution.sample(sample_shape)
            index = choice.reshape(choice.shape + torch.Size([1] * (len(event_shape) + 1)))
            index = index.repeat(
                torch.Size([1] * len(choice.shape)) + torch.Size([1]) + event_shape
            )
            return torch.gather(components, gather_dim, index).squeeze(gather_dim)

    def _pad(self, x):
        return x.unsqueeze(-1 - self._event_ndims)

    def _pad_mixture_dimensions(self, x):
        dist_batch_ndims = len(self.batch_shape)
        cat_batch_ndims = len(self.mixture_distribution.batch_shape)
        pad_ndims = 0 if cat_batch_ndims == 1 else dist_batch_ndims - cat_batch_ndims
        shape = x.shape
        return x.reshape(
            shape[:-1]
            + torch.Size(pad_ndims * [1])
            + shape[-1:]
            + torch.Size(self._event_ndims * [1])
        )

    def __repr__(self):
        return (
            f"MixtureSameFamily(\n  {self.mixture_distribution},\n  {self.component_distribution})"
        )
