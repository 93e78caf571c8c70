"""Norms under their own names: ``frobenius_norm``, ``nuclear_norm``, ``rms_norm``.

NOTE: composites of ``torch.linalg``'s norms and pointwise ops (gradients follow from them).
"""

from __future__ import annotations

import torch

from .._tensor import Tensor
from ._dispatch import defop
from .gather_scatter import _inplace
from .pointwise import _legacy_name as _legacy

__all__ = ["frobenius_norm", "nuclear_norm", "rms_norm", "dist", "renorm"]


@defop("frobenius_norm")
def frobenius_norm(input: Tensor, dim, keepdim: bool = False) -> Tensor:
    """The 2-norm of the elements over ``dim``."""
    return torch.linalg.vector_norm(input, 2, tuple(dim), keepdim)


@defop("nuclear_norm")
def nuclear_norm(input: Tensor, dim=(-2, -1), keepdim: bool = False) -> Tensor:
    """The sum of singular values of the matrices over ``dim``."""
    if isinstance(dim, bool):  # nuclear_norm(input, keepdim)
        dim, keepdim = (-2, -1), dim
    return torch.linalg.matrix_norm(input, "nuc", tuple(dim), keepdim)


@defop("rms_norm")
def rms_norm(input: Tensor, normalized_shape, weight=None, eps=None) -> Tensor:
    """``input / sqrt(mean(input ** 2) + eps)`` over the trailing ``normalized_shape`` dims,
    times ``weight``; ``eps`` defaults to the dtype's machine epsilon."""
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    out = input * torch.rsqrt((input * input).mean(dims, keepdim=True) + eps)
    return out * weight if weight is not None else out


@defop("dist", method=True)
def dist(input: Tensor, other: Tensor, p=2) -> Tensor:
    """The p-norm of ``input - other`` (broadcast)."""
    if not (input._dtype.is_floating_point or input._dtype.is_complex):
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. Got "
            f"{_legacy(input._dtype)} instead."
        )
    return torch.linalg.vector_norm(input - other, p)


@defop("renorm", method=True, inplace=True, out=True)
def renorm(input: Tensor, p, dim: int, maxnorm) -> Tensor:
    """``input`` with each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm``
    scaled down to norm ``maxnorm``."""
    d = input._wrap_dim(dim)
    others = tuple(i for i in range(input.dim()) if i != d)
    norms = torch.linalg.vector_norm(input, p, others, keepdim=True)
    # NOTE: 1e-7 keeps the division finite, as PyTorch's kernel does
    factor = torch.where(norms > maxnorm, maxnorm / (norms + 1e-7), torch.ones_like(norms))
    return input * factor


renorm_ = _inplace(renorm, "renorm_")
