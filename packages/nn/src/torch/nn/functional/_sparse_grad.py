"""Embedding lookups whose weight gradient is a sparse COO tensor (``sparse=True`` of
:func:`~torch.nn.functional.embedding` and :func:`~torch.nn.functional.embedding_bag`).

The gradient holds one entry per looked-up index, in lookup order and uncoalesced
(repeated rows stay repeated), with the rows at ``padding_idx`` left out, exactly as
PyTorch's ``embedding_sparse_backward`` leaves it; ``optim.SparseAdam``, ``SGD`` and
``Adagrad`` consume it, and autograd adds such gradients by concatenating entries.

NOTE: each lookup is one autograd Function whose forward is the dense computation (so
values equal the dense path's) and whose backward builds the sparse tensor; its node is
named as PyTorch's (``EmbeddingBackward0``, ``EmbeddingBagBackward0``).
"""

from __future__ import annotations

import numpy as np

import torch

__all__ = ["embedding", "embedding_bag"]

_FUNCTIONS: dict = {}


def embedding(weight, indices, padding_idx, scale_grad_by_freq: bool):
    """``weight[indices]`` with a sparse gradient for ``weight``."""
    return _function("embedding").apply(weight, indices, padding_idx, scale_grad_by_freq)


def embedding_bag(
    weight, indices, offsets, mode: str, per_sample_weights, last, padding_idx, scale_grad_by_freq
):
    """PyTorch's ``embedding_bag`` output (1-D ``indices`` split at ``offsets``) with a
    sparse gradient for ``weight`` (and a dense one for ``per_sample_weights``)."""
    options = (mode, last, padding_idx, scale_grad_by_freq)
    return _function("embedding_bag").apply(weight, per_sample_weights, indices, offsets, options)


def _function(kind: str):
    if not _FUNCTIONS:
        _FUNCTIONS["embedding"] = _named(_make_embedding(), "EmbeddingBackward0")
        _FUNCTIONS["embedding_bag"] = _named(_make_embedding_bag(), "EmbeddingBagBackward0")
    return _FUNCTIONS[kind]


def _named(function, node_name: str):
    function._backward_cls.__name__ = function._backward_cls.__qualname__ = node_name
    return function


def _check_frequency_scaling(scale_grad_by_freq: bool) -> None:
    if scale_grad_by_freq:  # raised in backward, as in PyTorch
        raise RuntimeError(
            "embedding_backward: scale_grad_by_freq not supported with sparse gradients"
        )


def _sparse_rows(flat_indices, values, keep, shape):
    """The sparse COO gradient: row ``flat_indices[i]`` gets ``values[i]`` where ``keep``."""
    if keep is not None:
        flat_indices, values = flat_indices[keep], values[keep]
    rows = torch.from_numpy(np.ascontiguousarray(flat_indices, dtype=np.int64)).unsqueeze(0)
    return torch.sparse_coo_tensor(rows, values, shape)


def _make_embedding():
    class Embedding(torch.autograd.Function):
        @staticmethod
        def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq):
            ctx.flat = indices.reshape(-1).numpy().astype(np.int64)
            ctx.shape = tuple(weight.shape)
            ctx.padding_idx = padding_idx
            ctx.scale_grad_by_freq = scale_grad_by_freq
            return weight[indices]

        @staticmethod
        def backward(ctx, grad):
            _check_frequency_scaling(ctx.scale_grad_by_freq)
            values = grad.reshape(-1, ctx.shape[1])
            keep = None if ctx.padding_idx is None else ctx.flat != ctx.padding_idx
            return _sparse_rows(ctx.flat, values, keep, ctx.shape), None, None, None

    return Embedding


def _bag_of_each_index(n: int, starts: np.ndarray, last: bool) -> np.ndarray:
    """The bag every position of the flat indices falls in (bags start at ``starts``;
    with ``last`` the final offset only closes the list)."""
    bag_starts = starts[:-1] if last else starts
    return np.searchsorted(bag_starts, np.arange(n), side="right") - 1


def _make_embedding_bag():
    class EmbeddingBag(torch.autograd.Function):
        @staticmethod
        def forward(ctx, weight, per_sample_weights, indices, offsets, options):
            mode, last, padding_idx, ctx.scale_grad_by_freq = options
            output, _, bag_size, _ = torch.embedding_bag(
                weight, indices, offsets, False, _MODES[mode], False, per_sample_weights,
                last, padding_idx,
            )  # fmt: skip
            flat = indices.numpy().astype(np.int64)
            starts = offsets.numpy().astype(np.int64)
            ctx.flat, ctx.mode, ctx.shape = flat, mode, tuple(weight.shape)
            ctx.bag_of = _bag_of_each_index(flat.size, starts, last)
            ctx.beyond_last = last and mode == "sum" and starts.size and flat.size > starts[-1]
            ctx.padding_idx = None if padding_idx is None else padding_idx % weight.shape[0]
            ctx.bag_size = bag_size.numpy()
            ctx.save_for_backward(weight, per_sample_weights)
            return output

        @staticmethod
        def backward(ctx, grad):
            weight, per_sample_weights = ctx.saved_tensors
            _check_frequency_scaling(ctx.scale_grad_by_freq)
            if ctx.beyond_last:  # PyTorch's sparse backward indexes past the last bag
                raise IndexError("index out of range in self")
            bag_of = torch.from_numpy(ctx.bag_of)
            per_index = grad[bag_of]  # each index's share: its bag's gradient ...
            if ctx.mode == "mean":  # ... over the bag's size
                sizes = np.maximum(ctx.bag_size[ctx.bag_of], 1).astype(np.float64)
                per_index = per_index / torch.from_numpy(sizes).to(grad.dtype).unsqueeze(1)
            keep = None if ctx.padding_idx is None else ctx.flat != ctx.padding_idx
            weight_grad = None
            if ctx.needs_input_grad[0]:
                scaled = per_index
                if per_sample_weights is not None:
                    scaled = per_index * per_sample_weights.unsqueeze(1)
                weight_grad = _sparse_rows(ctx.flat, scaled, keep, ctx.shape)
            weights_grad = None
            if per_sample_weights is not None and ctx.needs_input_grad[1]:
                rows = weight.detach()[torch.from_numpy(ctx.flat)]
                weights_grad = (per_index * rows).sum(1)
                if keep is not None:
                    weights_grad = weights_grad * torch.from_numpy(keep).to(grad.dtype)
            return weight_grad, weights_grad, None, None, None

    return EmbeddingBag


_MODES = {"sum": 0, "mean": 1, "max": 2}
