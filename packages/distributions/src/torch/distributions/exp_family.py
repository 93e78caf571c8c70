"""``ExponentialFamily``: distributions of the form
``p(x; theta) = exp(<t(x), theta> - F(theta) + k(x))``, whose entropy (and KL divergence
between members of one family) follow from the log-normaliser ``F`` by autograd."""

from __future__ import annotations

import torch

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Base class of exponential-family distributions.

    Subclasses give ``_natural_params`` (the tensors ``theta``), ``_log_normalizer(*theta)``
    (``F``) and ``_mean_carrier_measure`` (the expectation of ``k(x)``); the entropy is then
    the Bregman divergence ``F(theta) - <theta, grad F(theta)> - E[k(x)]``.
    """

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """The entropy, from the log-normaliser and its gradient."""
        result = -self._mean_carrier_measure
        params = [p.detach().requires_grad_() for p in self._natural_params]
        log_normalizer = self._log_normalizer(*params)
        gradients = torch.autograd.grad(log_normalizer.sum(), params, create_graph=True)
        result = result + log_normalizer
        for param, gradient in zip(params, gradients):
            result = result - (param * gradient).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
