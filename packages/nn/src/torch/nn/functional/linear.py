"""Affine maps, embeddings and distances with PyTorch's signatures."""

from __future__ import annotations

import math

import numpy as np

import torch

from . import _sparse_grad
from ._common import core, fused_op

__all__ = [
    "linear", "bilinear", "embedding", "embedding_bag", "one_hot", "pairwise_distance",
    "cosine_similarity", "pdist", "normalize",
]  # fmt: skip

_LINEAR = fused_op("_linear")


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``.

    Args:
        input: (*, in_features).
        weight: (out_features, in_features).
        bias: (out_features,) or None.

    Examples::

        >>> F.linear(torch.ones(1, 2), torch.ones(3, 2), torch.zeros(3))
        tensor([[2., 2., 2.]])
    """
    result = _LINEAR.function(input, weight, bias)  # one node; None: not fusable
    if result is not None:
        return result
    if input.dim() == 0 or weight.dim() not in (1, 2):
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({list(input.shape)} and "
            f"{list(weight.shape)[::-1]})"
        )
    if input.shape[-1] != weight.shape[-1]:
        rows = input.reshape(-1, input.shape[-1]).shape[0] if input.dim() > 1 else 1
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{input.shape[-1]} and "
            f"{weight.shape[-1]}x{weight.shape[0] if weight.dim() == 2 else 1})"
        )
    out = input @ (weight.t() if weight.dim() == 2 else weight)
    return out if bias is None else out + bias


def bilinear(input1, input2, weight, bias=None):
    """``y_k = x1^T A_k x2 + b_k`` for ``weight`` A of shape (out, in1, in2)."""
    if input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError(
            "bilinear(): input batch dimensions do not match: got "
            f"{list(input1.shape[:-1])} and {list(input2.shape[:-1])}"
        )
    out_features, in1, in2 = weight.shape
    lead = tuple(input1.shape[:-1])
    # NOTE: one matmul contracts in1 for every output at once: (B, in1) @ (in1, out * in2)
    left = input1.reshape(-1, in1) @ weight.permute(1, 0, 2).reshape(in1, out_features * in2)
    left = left.reshape(-1, out_features, in2)
    out = (left * input2.reshape(-1, 1, in2)).sum(-1).reshape(lead + (out_features,))
    return out if bias is None else out + bias


def _renorm_rows(weight, indices, max_norm: float, norm_type: float) -> None:
    """Rescale (in place, without gradient) the rows at ``indices`` whose norm exceeds
    ``max_norm``."""
    with torch.no_grad():
        rows = indices.reshape(-1).unique()
        picked = weight[rows]
        norms = picked.abs().pow(norm_type).sum(-1).pow(1.0 / norm_type)
        scale = torch.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight[rows] = picked * scale.unsqueeze(-1)


def _padding_index(weight, padding_idx):
    if padding_idx is None:
        return -1
    rows = weight.shape[0]
    if not -rows <= padding_idx < rows:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return padding_idx % rows


def embedding(
    input,
    weight,
    padding_idx=None,
    max_norm=None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
):
    """Rows of ``weight`` at the integer ``input`` indices.

    Args:
        padding_idx (int, optional): that row gets no gradient.
        max_norm (float, optional): renormalise looked-up rows to at most this norm
            (changes ``weight`` in place).
        norm_type (float): the p of the norm for ``max_norm``. Default: 2.
        scale_grad_by_freq (bool): divide each row's gradient by how often its index
            occurs in ``input`` (not with ``sparse``). Default: ``False``.
        sparse (bool): make ``weight``'s gradient a sparse COO tensor holding only the
            looked-up rows (uncoalesced, one entry per index). Default: ``False``.

    Examples::

        >>> F.embedding(torch.tensor([1]), torch.arange(6.0).reshape(3, 2))
        tensor([[2., 3.]])
        >>> w = torch.zeros(3, 2, requires_grad=True)
        >>> F.embedding(torch.tensor([1, 1]), w, sparse=True).sum().backward()
        >>> w.grad._indices(), w.grad.is_sparse
        (tensor([[1, 1]]), True)
    """
    if weight.dim() != 2:
        raise RuntimeError(f"'weight' must be 2-D, but got a weight of size {list(weight.shape)}")
    padding_idx = _padding_index(weight, padding_idx)
    if input.numel() and input.dtype in (torch.int64, torch.int32):
        if int(input.max()) >= weight.shape[0] or int(input.min()) < 0:
            raise IndexError("index out of range in self")
    if max_norm is not None:
        _renorm_rows(weight, input, max_norm, norm_type)
    if sparse and weight.requires_grad and torch.is_grad_enabled():
        padding = None if padding_idx < 0 else padding_idx
        return _sparse_grad.embedding(weight, input, padding, scale_grad_by_freq)
    rows = core("embedding")(weight, input, padding_idx, scale_grad_by_freq, sparse)
    if scale_grad_by_freq and rows.requires_grad:
        rows = _scale_grad_by_frequency(rows, input)
    return rows


def _scale_grad_by_frequency(rows, indices):
    """The same values; each row's gradient divided by how often its index occurs.

    NOTE: ``r.detach() + (r - r.detach()) * s`` has the value of ``r`` and the gradient
    of ``r * s``.
    """
    flat = indices.reshape(-1).numpy()
    counts = np.bincount(flat - flat.min()) if flat.size else np.zeros(0)
    scale = 1.0 / counts[flat - flat.min()] if flat.size else np.zeros(0)
    scale = torch.from_numpy(scale.astype(np.float64)).to(rows.dtype).reshape(indices.shape)
    fixed = rows.detach()
    return fixed + (rows - fixed) * scale.unsqueeze(-1)


_TENSOR_TYPE = "<class 'torch.Tensor'>"  # how PyTorch's message prints the type


def embedding_bag(
    input,
    weight,
    offsets=None,
    max_norm=None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights=None,
    include_last_offset: bool = False,
    padding_idx=None,
):
    """Sums, means or maxima of bags of embedding rows (see :class:`EmbeddingBag`)."""
    if weight.dim() != 2:
        raise ValueError(
            f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}"
        )
    if input.dim() == 1 and offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if input.dim() == 2 and offsets is not None:
        raise ValueError(
            "if input is 2D, then offsets has to be None, as input is treated is a "
            "mini-batch of fixed length sequences. However, found offsets of type "
            f"{_TENSOR_TYPE if isinstance(offsets, torch.Tensor) else type(offsets)}"
        )
    if max_norm is not None:
        _renorm_rows(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(
            f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
            f"then it must have the same shape as the input ({input.shape})"
        )
    input, offsets, per_sample_weights = _flat_bags(
        input, offsets, per_sample_weights, include_last_offset
    )
    if mode not in _BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if sparse and mode == "max":
        raise ValueError("max mode does not support sparse weights")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. "
            "per_sample_weights is only supported for mode='sum' "
            f"(got mode='{mode}'). Please open a feature request "
            "on GitHub."
        )
    if sparse and weight.requires_grad and torch.is_grad_enabled():
        return _sparse_grad.embedding_bag(
            weight, input, offsets, mode, per_sample_weights, include_last_offset, padding_idx,
            scale_grad_by_freq,
        )  # fmt: skip
    # core's kernel checks padding_idx (RuntimeError, as PyTorch's) and gives the last
    # offset PyTorch's meaning
    return torch.embedding_bag(
        weight, input, offsets, False, _BAG_MODES[mode], False, per_sample_weights,
        include_last_offset, padding_idx,
    )[0]  # fmt: skip


_BAG_MODES = {"sum": 0, "mean": 1, "max": 2}


def _flat_bags(input, offsets, per_sample_weights, include_last_offset: bool):
    """``(indices, offsets, per_sample_weights)`` of 1-D bags: a 2-D ``input`` holds one
    bag per row (with ``include_last_offset`` the end of the last row closes it)."""
    if input.dim() == 2:
        step = input.shape[1]
        offsets = torch.arange(0, input.numel() + (step if include_last_offset else 0), step)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
        return input.reshape(-1), offsets, per_sample_weights
    if input.dim() != 1:
        raise ValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}"
        )
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if offsets.dim() != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    if offsets.dtype != input.dtype:  # PyTorch brings both to their promoted type
        common = torch.promote_types(input.dtype, offsets.dtype)
        input, offsets = input.to(common), offsets.to(common)
    return input, offsets, per_sample_weights


def one_hot(tensor, num_classes: int = -1):
    """(*) integer classes -> (*, num_classes) int64 one-hot rows.

    Examples::

        >>> F.one_hot(torch.tensor([0, 2]))
        tensor([[1, 0, 0],
                [0, 0, 1]])
    """
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() and tensor.min().item() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not tensor.numel():
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(tensor.max().item()) + 1
    if tensor.numel() and (tensor.min().item() < 0 or tensor.max().item() >= num_classes):
        raise RuntimeError("Class values must be smaller than num_classes.")
    return (tensor.unsqueeze(-1) == torch.arange(num_classes)).to(torch.int64)


def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
    """``||x1 - x2 + eps||_p`` along the last dim."""
    diff = x1 - x2 + eps
    if p == 0:
        return (diff != 0).to(diff.dtype).sum(-1, keepdim=keepdim)
    return diff.abs().pow(p).sum(-1, keepdim=keepdim).pow(1.0 / p)


def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8):
    """``x1 . x2 / max(||x1|| ||x2||, eps)`` along ``dim``."""
    dot = (x1 * x2).sum(dim)
    n1 = (x1 * x1).sum(dim)
    n2 = (x2 * x2).sum(dim)
    return dot / torch.sqrt(torch.clamp(n1 * n2, min=eps * eps))


def pdist(input, p: float = 2.0):
    """The p-norm distances between all pairs of rows of a 2-D ``input``, as the
    condensed upper triangle (i < j)."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if p < 0:
        raise RuntimeError(f"pdist only supports non-negative p values, got {p}")
    rows, cols = np.triu_indices(input.shape[0], 1)
    diff = input[torch.from_numpy(rows)] - input[torch.from_numpy(cols)]
    return _p_norm(diff, p, -1, keepdim=False)


def _p_norm(x, p: float, dim: int, keepdim: bool):
    """The ``p``-norm along ``dim``: 0 counts the nonzeros and the infinities take the
    largest or smallest magnitude (``torch.linalg.vector_norm``); other orders by
    ``sum(|x| ** p) ** (1 / p)``."""
    if p == 0 or math.isinf(p):
        return torch.linalg.vector_norm(x, p, dim, keepdim)
    return x.abs().pow(p).sum(dim, keepdim=keepdim).pow(1.0 / p)


def normalize(input, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None):
    """``input / max(||input||_p, eps)`` along ``dim``."""
    norm = _p_norm(input, p, dim, keepdim=True)
    result = input / torch.clamp(norm, min=eps)
    if out is not None:
        return out.copy_(result)
    return result
