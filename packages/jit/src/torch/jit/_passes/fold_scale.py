"""Folding a constant scale into the linear layer it multiplies (frozen graphs).

Multi-head attention scales its queries, ``q * head_dim ** -0.5``, and ``q`` is the
query projection ``linear(x, W_q, b_q)`` seen through a reshape and a transpose. In a
frozen graph ``W_q`` and ``b_q`` are constants, so ``c * (x W^T + b)`` is computed as
``x (c W)^T + c b``: the elementwise pass over the queries disappears. Views between the
linear and the multiplication only move elements, so they stay. Each value on the way
must be read by the next step alone (nothing else may see the unscaled projection;
reading its size is fine).
Results change by float rounding only (not at all for a power-of-two scale, as for head
sizes 4, 16, 64, ...).
"""

from __future__ import annotations

import torch

from .._ir import Graph, Node, TensorType, Value
from ._util import constant_value, is_constant

__all__ = ["fold_linear_scaling"]

_VIEWS = {"aten::reshape", "aten::view", "aten::transpose", "aten::permute"}
_LINEAR = "torch.nn.functional.linear"


def _sole_reader(graph: Graph, value: Value, reader: Node) -> bool:
    """``reader`` is the only node reading the values of ``value`` (``aten::size`` reads
    only its shape, which the folding keeps)."""
    others = [n for n in value.uses if n is not reader and n.kind != "aten::size"]
    return reader in value.uses and not others and not any(value is v for v in graph.outputs)


def _scaled_linear(graph: Graph, mul: Node):
    """``(linear node, scale)`` when ``mul`` scales a linear's output through views."""
    if len(mul.inputs) != 2 or mul.attrs.get("kwnames") or mul.blocks:
        return None
    value, factor = mul.inputs
    if not is_constant(factor) or type(constant_value(factor)) not in (int, float):
        return None
    reader = mul
    while value.node is not None and value.node.kind in _VIEWS:
        if not _sole_reader(graph, value, reader):
            return None
        reader, value = value.node, value.node.inputs[0]
    linear = value.node
    if linear is None or linear.target != _LINEAR or linear.attrs.get("kwnames"):
        return None
    if not _sole_reader(graph, value, reader) or len(linear.inputs) not in (2, 3):
        return None
    params = linear.inputs[1:]
    if not all(is_constant(p) for p in params):
        return None
    tensors = [constant_value(p) for p in params]
    if not isinstance(tensors[0], torch.Tensor) or not tensors[0].is_floating_point():
        return None
    if any(t is not None and not isinstance(t, torch.Tensor) for t in tensors[1:]):
        return None
    if not isinstance(mul.output().type, TensorType):
        return None
    return linear, float(constant_value(factor))


def fold_linear_scaling(graph: Graph) -> int:
    """Fold constant scalings of linear outputs in the top-level block; returns how many."""
    folded = 0
    for node in list(graph.nodes):
        if node.kind != "aten::mul" or node.owner is not graph.block:
            continue
        found = _scaled_linear(graph, node)
        if found is None:
            continue
        linear, scale = found
        for index in range(1, len(linear.inputs)):
            tensor = constant_value(linear.inputs[index])
            if tensor is not None:
                scaled = graph.constant(tensor * scale, before=linear)
                scaled.type = linear.inputs[index].type
                linear.replace_input(index, scaled)
        node.replace_with(node.inputs[0])
        folded += 1
    return folded
