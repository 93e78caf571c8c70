"""The LKJ distribution of Cholesky factors of correlation matrices."""

from __future__ import annotations

import math

import torch

from . import constraints
from ._declared import Arg, parameters
from .beta import Beta
from .distribution import Distribution, _init_expanded
from .utils import broadcast_all

__all__ = ["LKJCholesky"]


@parameters(
    Arg("dim", None, "the matrix size (at least 2).", kind="int"),
    Arg("concentration", constraints.positive, "the shape (positive). Default: 1.0."),
)
class LKJCholesky(Distribution):
    """The LKJ distribution (Lewandowski, Kurowicka and Joe, 2009) over lower Cholesky
    factors ``L`` of ``dim x dim`` correlation matrices, with density proportional to
    ``det(L L^T) ** (concentration - 1)``; sampled by the onion method (beta-distributed
    squared row norms, uniform directions).

    Examples::

        >>> LKJCholesky(2, 0.5).sample().shape
        torch.Size([2, 2])
    """

    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None) -> None:
        if dim < 2:
            raise ValueError(
                f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}."
            )
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        # the squared norm of row i's off-diagonal part is Beta(i / 2, marginal - (i-1)/2)
        marginal = self.concentration + 0.5 * (self.dim - 2)
        offset = torch.arange(self.dim - 1, dtype=self.concentration.dtype)
        offset = torch.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        super().__init__(self.concentration.size(), torch.Size((dim, dim)), validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = torch.Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))
        return _init_expanded(self, new, batch_shape)

    def sample(self, sample_shape=torch.Size()):
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        shape = self._extended_shape(sample_shape)
        normals = torch.randn(shape, dtype=y.dtype, device=y.device).tril(-1)
        directions = normals / normals.norm(dim=-1, keepdim=True)
        directions[..., 0, :].fill_(0.0)  # the first row is (1, 0, ..., 0)
        w = torch.sqrt(y) * directions
        tiny = torch.finfo(w.dtype).tiny
        diagonal = torch.clamp(1 - torch.sum(w**2, dim=-1), min=tiny).sqrt()
        w += torch.diag_embed(diagonal)
        return w

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diagonal = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = torch.arange(2, self.dim + 1)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalised = torch.sum(order * diagonal.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = torch.lgamma(alpha) * dm1
        numerator = torch.mvlgamma(alpha - 0.5, dm1)
        normaliser = 0.5 * dm1 * math.log(math.pi) + numerator - denominator
        return unnormalised - normaliser
