"""Batch-first self-attention for frozen graphs, and cancelling transpose pairs.

``nn.MultiheadAttention(batch_first=True)`` (inside ``nn.TransformerEncoderLayer`` ...)
transposes its input to sequence-first, runs ``F.multi_head_attention_forward`` and
transposes the result back. Decomposed as it is, the projections read a transposed
input, the heads are split with a reshape that copies, and the residual addition after
the layer reads a transposed operand (an elementwise pass over strided memory).

Where the attention is plain self-attention (query, key and value the same transposed
value; no masks, extra biases, dropout or returned weights) and its weights are
constants, :func:`batch_first_self_attention` replaces the node by the same computation
written batch-first: three projections of the untransposed input (the query's scaling
folded into its weight and bias), heads split by views, two batched matrix products
and a softmax, then one reshape and the output projection. The replacement is traced
from :func:`_attention` and checked on two random inputs against the composite, as
:mod:`.decompose` does, and ends with a transpose to the sequence-first layout the
graph expects; :func:`cancel_transpose_pairs` then removes it together with the
module's transpose back.
"""

from __future__ import annotations

import warnings

import torch

from .._ir import Graph, Node, Value
from ._util import arguments, constant_value, is_constant
from .decompose import _random_like, _same, _splice

__all__ = ["batch_first_self_attention", "cancel_transpose_pairs"]

_MHA = "torch.nn.functional.multi_head_attention_forward"
# arguments that must be these constants for the batch-first form to apply
_REQUIRED = {
    "bias_k": None,
    "bias_v": None,
    "add_zero_attn": False,
    "key_padding_mask": None,
    "attn_mask": None,
    "use_separate_proj_weight": False,
    "static_k": None,
    "static_v": None,
    "is_causal": False,
}


def batch_first_self_attention(graph: Graph) -> int:
    """Rewrite the eligible self-attention nodes of the top-level block; returns how
    many."""
    done = 0
    for node in list(graph.nodes):
        if node.target == _MHA and _rewrite(graph, node):
            done += 1
    return done


def _constants(node: Node):
    """The node's constant arguments by name and the batch-first value whose transpose
    is its query, key and value, or None when the node is not eligible."""
    bound = arguments(node)
    if bound is None or not (bound["query"] is bound["key"] is bound["value"]):
        return None
    transpose = bound["query"].node
    if transpose is None or transpose.kind != "aten::transpose" or len(transpose.inputs) != 3:
        return None
    if not all(is_constant(v) for v in transpose.inputs[1:]):
        return None
    if sorted(constant_value(v) for v in transpose.inputs[1:]) != [0, 1]:
        return None
    names = ("embed_dim_to_check", "num_heads", "in_proj_weight", "in_proj_bias",
             "dropout_p", "out_proj_weight", "out_proj_bias", "training", "need_weights",
             *_REQUIRED)  # fmt: skip
    defaults = _defaults()
    values = {}
    for name in names:
        if name not in bound:
            values[name] = defaults[name]
        elif is_constant(bound[name]):
            values[name] = constant_value(bound[name])
        else:
            return None
    for name, required in _REQUIRED.items():
        value = values[name]
        if value is not required and (isinstance(value, torch.Tensor) or value != required):
            return None
    if values["training"] and values["dropout_p"]:
        return None
    if values["need_weights"] is not False and len(node.outputs) > 1 and node.outputs[1].uses:
        return None
    if not isinstance(values["in_proj_weight"], torch.Tensor):
        return None
    return values, transpose.inputs[0]


def _defaults() -> dict:
    import inspect

    from .._ir import resolve_target

    parameters = inspect.signature(resolve_target(_MHA)).parameters.values()
    return {p.name: p.default for p in parameters}


def _attention(x, weights, biases, out_weight, out_bias, heads: int):
    """Self-attention of batch-first ``x`` (N, L, E); the query weights come scaled."""
    n, length, embed = x.size(0), x.size(1), x.size(2)
    head_dim = embed // heads
    q = torch.nn.functional.linear(x, weights[0], biases[0])
    k = torch.nn.functional.linear(x, weights[1], biases[1])
    v = torch.nn.functional.linear(x, weights[2], biases[2])
    q = q.view(n, length, heads, head_dim).transpose(1, 2)
    k = k.view(n, length, heads, head_dim).permute(0, 2, 3, 1)
    v = v.view(n, length, heads, head_dim).transpose(1, 2)
    attention = torch.softmax(q @ k, -1)
    out = (attention @ v).transpose(1, 2).reshape(n, length, embed)
    return torch.nn.functional.linear(out, out_weight, out_bias).transpose(0, 1)


def _projections(values: dict) -> tuple:
    weight, bias = values["in_proj_weight"].detach(), values["in_proj_bias"]
    embed = weight.shape[1]
    scale = float((embed // values["num_heads"]) ** -0.5)
    weights = [w.contiguous() for w in weight.chunk(3)]
    biases = [None] * 3 if bias is None else [b.detach().contiguous() for b in bias.chunk(3)]
    weights[0] = weights[0] * scale
    if biases[0] is not None:
        biases[0] = biases[0] * scale
    return weights, biases


def _rewrite(graph: Graph, node: Node) -> bool:
    found = _constants(node)
    if found is None:
        return False
    values, source = found
    if source.type.sizes is None or len(source.type.sizes) != 3 or source.type.dtype is None:
        return False
    weights, biases = _projections(values)
    out_weight = values["out_proj_weight"].detach()
    out_bias = values["out_proj_bias"]
    out_bias = None if out_bias is None else out_bias.detach()
    heads = int(values["num_heads"])
    composite = _composite_call(node)

    def replacement(x):
        return _attention(x, weights, biases, out_weight, out_bias, heads)

    from .._codegen import compile_graph
    from .._trace import _trace_graph

    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sub, _, _ = _trace_graph(replacement, (_random_like(source.type),), None, False)
            ops = compile_graph(sub)
            for _ in range(2):
                check = _random_like(source.type)
                if not _same(composite(check.transpose(0, 1))[0], ops(check)):
                    return False
    except Exception:  # noqa: BLE001 - an attention that cannot be traced stays whole
        return False
    weights_output = node.outputs[1] if len(node.outputs) > 1 else None
    _splice_output(graph, node, sub, source, weights_output)
    return True


def _composite_call(node: Node):
    """``x -> node's composite on (x, x, x)`` with its other arguments as in the node."""
    from .._ir import resolve_target

    function = resolve_target(node.target)
    kwnames = node.attrs.get("kwnames", ())
    query = arguments(node)["query"]

    def run(x):
        args = [x if v is query else constant_value(v) for v in node.inputs]
        count = len(args) - len(kwnames)
        return function(*args[:count], **dict(zip(kwnames, args[count:])))

    return run


def _splice_output(graph: Graph, node: Node, sub: Graph, source: Value, weights_output) -> None:
    """Put ``sub``'s nodes before ``node`` and make its result the attention output (the
    unread weights output of the composite becomes None)."""
    if node.attrs.get("returns") in ("tuple", "list") and weights_output is not None:
        none = graph.constant(None, node.owner, before=node)
        weights_output.replace_all_uses_with(none)
        node.outputs = node.outputs[:1]
        node.attrs.pop("returns")
    _splice(graph, node, sub, [source])


def cancel_transpose_pairs(graph: Graph) -> int:
    """``transpose(transpose(x, a, b), a, b)`` (either order) read as ``x``; returns how
    many pairs."""
    done = 0
    for node in list(graph.nodes):
        inner = node.inputs[0].node if node.kind == "aten::transpose" and node.inputs else None
        if inner is None or inner.kind != "aten::transpose":
            continue
        dims = _dims(node)
        if dims is None or dims != _dims(inner):
            continue
        node.output().replace_all_uses_with(inner.inputs[0])
        done += 1
    return done


def _dims(node: Node):
    if len(node.inputs) != 3 or node.attrs.get("kwnames"):
        return None
    if not all(is_constant(v) for v in node.inputs[1:]):
        return None
    dims = [constant_value(v) for v in node.inputs[1:]]
    if any(d < 0 for d in dims):
        return None
    return tuple(sorted(dims))
