"""Products of vectors and matrices beyond ``matmul``: ``vdot``, ``inner``, ``addr``,
``ger``, ``chain_matmul``, ``torch.linalg.multi_dot`` and ``torch.linalg.vecdot``.

NOTE: composites of ``matmul``, ``mm`` and pointwise ops (gradients follow from them).
"""

from __future__ import annotations

import warnings

import torch

from .._tensor import Tensor
from ._dispatch import defop
from .gather_scatter import _inplace
from .linalg import _check_dot_operands, _combine, addbmm, addmm, addmv, baddbmm

__all__ = [
    "vdot",
    "inner",
    "addr",
    "ger",
    "chain_matmul",
]


# ------------------------------------------------------------------------- products


@defop("vdot", method=True, out=True)
def vdot(input: Tensor, other: Tensor) -> Tensor:
    """The dot product of two 1-D tensors, conjugating the first."""
    _check_dot_operands(input, other)
    return torch.dot(torch.conj(input), other)


@defop("inner", method=True, out=True)
def inner(input: Tensor, other: Tensor) -> Tensor:
    """Sums of products over the last dims (a scalar operand multiplies)."""
    if input._np.ndim == 0 or other._np.ndim == 0:
        return input * other
    if input._np.shape[-1] != other._np.shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"{list(input._np.shape)} and {list(other._np.shape)}"
        )
    size = input._np.shape[-1]
    rows = torch.matmul(input.reshape(-1, size), other.reshape(-1, size).t())
    return rows.reshape(tuple(input._np.shape[:-1]) + tuple(other._np.shape[:-1]))


@defop("addr", method=True, inplace=True, out=True)
def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``."""
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v._np.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v._np.ndim}-D")
    return _combine(input, torch.outer(vec1, vec2), beta, alpha)


@defop("ger", method=True, out=True)
def ger(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product (an old name of :func:`torch.outer`)."""
    return torch.outer(input, vec2)


def multi_dot(tensors) -> Tensor:
    """The product of a chain of matrices (the first may be a row vector, the last a
    column vector: they are squeezed back out of the result)."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first_vector, last_vector = tensors[0].dim() == 1, tensors[-1].dim() == 1
    if first_vector:
        tensors[0] = tensors[0].unsqueeze(0)
    if last_vector:
        tensors[-1] = tensors[-1].unsqueeze(-1)
    for i, t in enumerate(tensors):
        if t.dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    result = tensors[0]
    for t in tensors[1:]:
        result = torch.mm(result, t)
    if first_vector:
        result = result.squeeze(0)
    if last_vector:
        result = result.squeeze(-1)
    return result


@defop("chain_matmul")
def chain_matmul(*matrices, out=None) -> Tensor:
    """The product of 2-D matrices (deprecated: ``torch.linalg.multi_dot``)."""
    warnings.warn(
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
        "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors "
        "rather than multiple parameters.",
        UserWarning,
        stacklevel=2,
    )
    if len(matrices) == 1:
        result = matrices[0].clone()
    else:
        result = multi_dot(matrices)
    if out is not None:
        from .out_variants import copy_into_out

        return copy_into_out(result, out, "chain_matmul")
    return result


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """Sums of ``conj(x) * y`` along ``dim`` (broadcast)."""
    return (torch.conj(x) * y).sum(dim)


# the in-place forms of the products (those of linalg's resolved here by name)
addmm_ = _inplace(addmm, "addmm_")
addmv_ = _inplace(addmv, "addmv_")
addbmm_ = _inplace(addbmm, "addbmm_")
baddbmm_ = _inplace(baddbmm, "baddbmm_")
addr_ = _inplace(addr, "addr_")
