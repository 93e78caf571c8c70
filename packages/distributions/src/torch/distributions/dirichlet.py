"""The Dirichlet distribution."""

from __future__ import annotations

import torch
from torch._interface import ops
from torch.autograd import Function
from torch.autograd.function import once_differentiable

from . import constraints
from ._declared import Arg, parameters
from .exp_family import ExponentialFamily
from .utils import _one_hot

__all__ = ["Dirichlet"]


def _dirichlet_backward(x, concentration, grad_output):
    """The reparameterisation gradient of Dirichlet draws ``x``: Beta marginal gradients
    (core's ``_dirichlet_grad``) combined through the simplex constraint."""
    total = concentration.sum(-1, True).expand_as(concentration)
    grad = ops["_dirichlet_grad"].function(x, concentration, total)
    return grad * (grad_output - (x * grad_output).sum(-1, True))


class _Dirichlet(Function):
    """Dirichlet draws as a function of the concentration, with the implicit gradient."""

    @staticmethod
    def forward(ctx, concentration):
        x = ops["_sample_dirichlet"].function(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        return _dirichlet_backward(x, concentration, grad_output)


@parameters(
    Arg(
        "concentration",
        constraints.independent(constraints.positive, 1),
        "the concentrations (positive), at least one-dimensional.",
        kind="Tensor",
    ),
    expand=True,
)
class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution on the simplex, of concentrations ``concentration``
    (the last dim is the event).

    Examples::

        >>> Dirichlet(torch.tensor([0.5, 0.5])).sample()
        tensor([0.0176, 0.9824])
    """

    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        batch_shape, event_shape = concentration.shape[:-1], concentration.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return _Dirichlet.apply(self.concentration.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (
            torch.xlogy(self.concentration - 1.0, value).sum(-1)
            + torch.lgamma(self.concentration.sum(-1))
            - torch.lgamma(self.concentration).sum(-1)
        )

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        above_one = (self.concentration - 1).clamp(min=0.0)
        mode = above_one / above_one.sum(-1, True)
        # every concentration below one: the mass piles on a vertex
        corner = (self.concentration < 1).all(dim=-1)
        mode[corner] = _one_hot(mode[corner].argmax(dim=-1), above_one.shape[-1]).to(mode)
        return mode

    @property
    def variance(self):
        total = self.concentration.sum(-1, True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def entropy(self):
        k = self.concentration.size(-1)
        total = self.concentration.sum(-1)
        return (
            torch.lgamma(self.concentration).sum(-1)
            - torch.lgamma(total)
            - (k - total) * torch.digamma(total)
            - ((self.concentration - 1.0) * torch.digamma(self.concentration)).sum(-1)
        )

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - torch.lgamma(x.sum(-1))
