"""Distances between vectors, as PyTorch has them at the top level: ``cosine_similarity``,
``pairwise_distance`` and ``pdist``. Composites of core ops, so gradients follow from
their parts."""

from __future__ import annotations

import numpy as np

import torch

from .. import _dtype
from .._tensor import Tensor
from ._dispatch import defop

__all__ = ["cosine_similarity", "pairwise_distance", "pdist"]


@defop("cosine_similarity")
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` (broadcast) along ``dim``; the
    product of the squared norms is clamped below by ``eps ** 2``."""
    dot = (x1 * x2).sum(dim)
    squares = (x1 * x1).sum(dim) * (x2 * x2).sum(dim)
    return dot / torch.sqrt(torch.clamp(squares, min=eps * eps))


@defop("pairwise_distance")
def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """The ``p``-norm of ``x1 - x2 + eps`` over the last dim."""
    return torch.linalg.vector_norm(x1 - x2 + eps, p, -1, keepdim)


@defop("pdist")
def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """The ``p``-norm distances between every pair of rows ``i < j`` of a matrix, in
    row-major order of the pairs."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    n = input.shape[0]
    # the pairs i < j, in row-major order, made on the input's device
    positions = np.arange(n, like=input._np)
    above = positions[:, None] < positions[None, :]
    first = Tensor._from_array(np.broadcast_to(positions[:, None], (n, n))[above], _dtype.int64)
    second = Tensor._from_array(np.broadcast_to(positions[None, :], (n, n))[above], _dtype.int64)
    return torch.linalg.vector_norm(input[first] - input[second], p, -1)
