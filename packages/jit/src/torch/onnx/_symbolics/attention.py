"""Attention, written out in ONNX ops: ``multi_head_attention_forward`` (what
nn.MultiheadAttention and nn.Transformer* call) and ``scaled_dot_product_attention``.

The head split reshapes with 0 ("keep this size") and -1 so that the exported graph
runs with other batch sizes and sequence lengths than the traced ones.
"""

from __future__ import annotations

import math

import torch

from .._graph import GraphContext
from .._registry import symbolic
from ._helpers import rank_of, sizes_of, unsupported
from .linalg import _transposed_weight


def _chunks(g: GraphContext, tensor, count: int) -> list:
    if tensor is None:
        return [None] * count
    if isinstance(tensor, torch.Tensor):
        return [c.contiguous() for c in tensor.detach().chunk(count, 0)]
    rows = sizes_of(tensor)[0] // count
    return list(g.op("Split", tensor, g.int64s([rows] * count), axis_i=0, outputs=count))


def _project(g: GraphContext, x, weight, bias):
    out = g.op("MatMul", x, _transposed_weight(g, weight))
    return out if bias is None else g.op("Add", out, bias)


def _additive_mask(g: GraphContext, mask, dtype, masked_when: bool):
    """A float mask to add to the scores: a bool mask gives -inf where it is
    ``masked_when``, a float mask is added as it is."""
    if mask.dtype == torch.bool:
        zero, minus_inf = g.constant(0.0, dtype), g.constant(float("-inf"), dtype)
        if masked_when:
            return g.op("Where", mask, minus_inf, zero)
        return g.op("Where", mask, zero, minus_inf)
    return g.cast(mask, dtype)


@symbolic("multi_head_attention_forward")
def multi_head_attention_forward(
    g, query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
    bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=True,
    key_padding_mask=None, need_weights=True, attn_mask=None, use_separate_proj_weight=False,
    q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, static_k=None, static_v=None,
    average_attn_weights=True, is_causal=False,
):  # fmt: skip
    if bias_k is not None or bias_v is not None or add_zero_attn:
        raise unsupported("multi-head attention with bias_k/bias_v/add_zero_attn")
    if static_k is not None or static_v is not None:
        raise unsupported("multi-head attention with static_k/static_v")
    if training and dropout_p > 0:
        raise unsupported("multi-head attention with dropout in training mode")
    dtype = g.out_dtype()
    unbatched = rank_of(query) == 2
    if unbatched:  # (L, E): a batch of one in the middle
        query, key, value = (g.unsqueeze(t, [1]) for t in (query, key, value))
    embed = int(embed_dim_to_check)
    heads = int(num_heads)
    head_dim = embed // heads
    if use_separate_proj_weight:
        weights = [q_proj_weight, k_proj_weight, v_proj_weight]
    else:
        weights = _chunks(g, in_proj_weight, 3)
    biases = _chunks(g, in_proj_bias, 3)
    q, k, v = (_project(g, x, w, b) for x, w, b in zip((query, key, value), weights, biases))

    def heads_first(x, perm):  # (T, N, E) -> (T, N, H, hd) -> perm
        split = g.op("Reshape", x, g.int64s([0, 0, heads, head_dim]))
        return g.op("Transpose", split, perm_i=perm)

    q = g.op("Mul", heads_first(q, [1, 2, 0, 3]), g.constant(1 / math.sqrt(head_dim), dtype))
    scores = g.op("MatMul", q, heads_first(k, [1, 2, 3, 0]))  # (N, H, L, S)
    if attn_mask is not None:
        mask = _additive_mask(g, attn_mask, dtype, masked_when=True)
        if rank_of(attn_mask) == 3:  # (N * H, L, S)
            mask = g.op("Reshape", mask, g.int64s([-1, heads, *sizes_of(attn_mask)[1:]]))
        scores = g.op("Add", scores, mask)
    if key_padding_mask is not None:  # (N, S): the keys to leave out
        mask = _additive_mask(g, key_padding_mask, dtype, masked_when=True)
        scores = g.op("Add", scores, g.unsqueeze(mask, [1, 2]))
    attention = g.op("Softmax", scores, axis_i=3)
    out = g.op("MatMul", attention, heads_first(v, [1, 2, 0, 3]))  # (N, H, L, hd)
    out = g.op("Reshape", g.op("Transpose", out, perm_i=[2, 0, 1, 3]), g.int64s([0, 0, -1]))
    out = _project(g, out, out_proj_weight, out_proj_bias)
    weights_out = None
    if need_weights:
        weights_out = attention
        if average_attn_weights:
            weights_out = g.reduce("ReduceMean", attention, [1], keepdims=False)
        if unbatched:
            weights_out = g.squeeze(weights_out, [0])
    if unbatched:
        out = g.squeeze(out, [1])
    return out, weights_out


@symbolic("scaled_dot_product_attention")
def scaled_dot_product_attention(g, query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):  # fmt: skip
    if enable_gqa:
        raise unsupported("scaled_dot_product_attention with enable_gqa")
    dtype = g.out_dtype()
    q_sizes, k_sizes = sizes_of(query), sizes_of(key)
    rank = len(q_sizes)
    scale = 1 / math.sqrt(q_sizes[-1]) if scale is None else float(scale)
    key_t = g.op("Transpose", key, perm_i=[*range(rank - 2), rank - 1, rank - 2])
    scores = g.op("Mul", g.op("MatMul", query, key_t), g.constant(scale, dtype))
    if is_causal:
        allowed = torch.ones(q_sizes[-2], k_sizes[-2], dtype=torch.bool).tril()
        scores = g.op("Add", scores, _additive_mask(g, g.constant(allowed), dtype, False))
    if attn_mask is not None:
        scores = g.op("Add", scores, _additive_mask(g, attn_mask, dtype, masked_when=False))
    return g.op("MatMul", g.op("Softmax", scores, axis_i=rank - 1), value)
