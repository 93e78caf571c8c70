"""Attention: ``scaled_dot_product_attention`` and the multi-head attention forward
pass that :class:`~torch.nn.MultiheadAttention` runs."""

from __future__ import annotations

import math

import numpy as np

import torch

from ._common import core

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]


def _linear(input, weight, bias):
    """``F.linear`` looked up at call time, so autocast and the profiler see the call."""
    return torch.nn.functional.linear(input, weight, bias)


def _as_additive(mask, dtype):
    """A boolean mask (True = may attend) or a float mask (added) as a float mask."""
    if mask is None:
        return None
    if mask.dtype == torch.bool:
        return torch.where(mask, 0.0, float("-inf")).to(dtype)
    return mask


def scaled_dot_product_attention(
    query, key, value, attn_mask=None, dropout_p: float = 0.0, is_causal: bool = False,
    scale=None, enable_gqa: bool = False,
):  # fmt: skip
    """``softmax(Q K^T * scale + mask) V`` over the last two dims.

    Args:
        query: (..., L, E); key: (..., S, E); value: (..., S, Ev).
        attn_mask (Tensor, optional): boolean (True = may attend) or additive, broadcast
            to (..., L, S).
        dropout_p (float): dropout on the attention weights. Default: 0.
        is_causal (bool): mask out the upper triangle (future positions).
        scale (float, optional): Default: ``1 / sqrt(E)``.
        enable_gqa (bool): let key/value have fewer heads (dim -3) than query.

    Examples::

        >>> q = k = v = torch.ones(1, 2, 4)
        >>> F.scaled_dot_product_attention(q, k, v)
        tensor([[[1., 1., 1., 1.],
                 [1., 1., 1., 1.]]])
    """
    length, source = query.shape[-2], key.shape[-2]
    factor = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    if enable_gqa and key.dim() >= 3 and key.shape[-3] != query.shape[-3]:
        # each key/value head serves query.shape[-3] // key.shape[-3] query heads
        groups = np.repeat(np.arange(key.shape[-3]), query.shape[-3] // key.shape[-3])
        index = torch.from_numpy(groups)
        key, value = key.index_select(-3, index), value.index_select(-3, index)
    scores = (query @ key.transpose(-2, -1)) * factor
    if is_causal:
        allowed = torch.ones(length, source, dtype=torch.bool).tril()
        scores = scores + _as_additive(allowed, scores.dtype)
    if attn_mask is not None:
        scores = scores + _as_additive(attn_mask, scores.dtype)
    weights = torch.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = core("dropout")(weights, dropout_p, True)
    return weights @ value


def _in_projection(query, key, value, weights, biases):
    w_q, w_k, w_v = weights
    b_q, b_k, b_v = biases if biases is not None else (None, None, None)

    def project(x, w, b):
        return _linear(x, w, b)  # one op, so autocast casts the bias with the product

    return project(query, w_q, b_q), project(key, w_k, b_k), project(value, w_v, b_v)


def _merge_masks(attn_mask, key_padding_mask, batch, heads, length, source, dtype):
    """One additive mask (batch * heads, L, S) (or None) from the two optional masks."""
    merged = _as_additive(attn_mask, dtype)
    if merged is not None and merged.dim() == 2:
        merged = merged.unsqueeze(0)
    if key_padding_mask is not None:
        padding = key_padding_mask
        if padding.dtype == torch.bool:
            padding = torch.where(padding, float("-inf"), 0.0).to(dtype)
        padding = padding.reshape(batch, 1, 1, source).expand(batch, heads, 1, source)
        padding = padding.reshape(batch * heads, 1, source)
        merged = padding if merged is None else merged + padding
    return merged


def _append_column(mask, value=0.0):
    if mask is None:
        return None
    fill = torch.full(tuple(mask.shape[:-1]) + (1,), value, dtype=mask.dtype)
    return torch.cat([mask, fill], -1)


def multi_head_attention_forward(
    query, key, value, embed_dim_to_check: int, num_heads: int, in_proj_weight,
    in_proj_bias, bias_k, bias_v, add_zero_attn: bool, dropout_p: float, out_proj_weight,
    out_proj_bias, training: bool = True, key_padding_mask=None, need_weights: bool = True,
    attn_mask=None, use_separate_proj_weight: bool = False, q_proj_weight=None,
    k_proj_weight=None, v_proj_weight=None, static_k=None, static_v=None,
    average_attn_weights: bool = True, is_causal: bool = False,
):  # fmt: skip
    """Multi-head attention over sequence-first inputs (L, N, E) (or unbatched (L, E));
    returns ``(output, weights)`` with weights (N, L, S) averaged over heads (or
    (N, heads, L, S)), or None when ``need_weights`` is False."""
    unbatched = query.dim() == 2
    if unbatched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    length, batch, embed = query.shape
    if embed != embed_dim_to_check:
        raise AssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed}"
        )
    head_dim = embed // num_heads
    if not use_separate_proj_weight and query is key and key is value:
        # self-attention: one product with the packed weight, split into q, k, v after
        q, k, v = _linear(query, in_proj_weight, in_proj_bias).chunk(3, -1)
    else:
        if use_separate_proj_weight:
            weights = (q_proj_weight, k_proj_weight, v_proj_weight)
        else:
            weights = in_proj_weight.chunk(3)
        biases = None if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, weights, biases)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint")
    # here (unlike scaled_dot_product_attention) a boolean mask marks what is masked out;
    # is_causal is only a hint that attn_mask is the causal mask
    attn_mask = None if attn_mask is None else _blocked_to_additive(attn_mask, q.dtype)
    if bias_k is not None:
        k = torch.cat([k, bias_k.expand(1, batch, embed)])
        v = torch.cat([v, bias_v.expand(1, batch, embed)])
        attn_mask = _append_column(attn_mask)
        key_padding_mask = _append_column(key_padding_mask, False)
    q = _split_heads(q, batch * num_heads, head_dim)
    k = static_k if static_k is not None else _split_heads(k, batch * num_heads, head_dim)
    v = static_v if static_v is not None else _split_heads(v, batch * num_heads, head_dim)
    if add_zero_attn:
        zeros = torch.zeros(batch * num_heads, 1, head_dim, dtype=k.dtype)
        k, v = torch.cat([k, zeros], 1), torch.cat([v, zeros], 1)
        attn_mask = _append_column(attn_mask)
        key_padding_mask = _append_column(key_padding_mask, False)
    source = k.shape[1]
    mask = _merge_masks(attn_mask, key_padding_mask, batch, num_heads, length, source, q.dtype)
    scores = (q * (1 / math.sqrt(head_dim))) @ k.transpose(1, 2)
    if mask is not None:
        scores = scores + mask
    attention = torch.softmax(scores, -1)
    if dropout_p > 0.0 and training:
        attention = core("dropout")(attention, dropout_p, True)
    out = (attention @ v).transpose(0, 1).reshape(length * batch, embed)
    out = _linear(out, out_proj_weight, out_proj_bias)
    out = out.reshape(length, batch, embed)
    weights_out = None
    if need_weights:
        weights_out = attention.reshape(batch, num_heads, length, source)
        if average_attn_weights:
            weights_out = weights_out.mean(1)
    if unbatched:
        out = out.squeeze(1)
        weights_out = None if weights_out is None else weights_out.squeeze(0)
    return out, weights_out


def _split_heads(x, rows: int, head_dim: int):
    """(S, N, E) -> (N * heads, S, head_dim)."""
    return x.reshape(x.shape[0], rows, head_dim).transpose(0, 1)


def _blocked_to_additive(mask, dtype):
    if mask.dtype == torch.bool:
        return torch.where(mask, float("-inf"), 0.0).to(dtype)
    return mask
