"""Lowering for inference: cheaper calls for the same results in a frozen graph.

- an ``nn.functional`` function whose body only checks its arguments and calls one op
  of the same name calls that op (the checks passed when the graph was traced);
- ``relu`` of a fresh tensor that nothing else reads runs in place (``relu_``), saving
  an allocation and a pass over memory.

Gradients are not needed in an inference graph; both rewrites keep results bit for bit.
"""

from __future__ import annotations

from .._ir import Graph, Node

__all__ = ["lower_for_inference"]

# nn.functional targets -> the op they end in, same argument order
_DIRECT = {
    "torch.nn.functional.relu": "torch.relu",
    "torch.nn.functional.conv1d": "ops.convolution",
    "torch.nn.functional.conv2d": "ops.convolution",
    "torch.nn.functional.conv3d": "ops.convolution",
}
# ops whose result is a new tensor (never a view of an input)
_FRESH = {
    "aten::convolution",
    "aten::conv1d",
    "aten::conv2d",
    "aten::conv3d",
    "aten::linear",
    "aten::addmm",
    "aten::matmul",
    "aten::add",
    "aten::sub",
    "aten::mul",
    "aten::batch_norm",
    "aten::layer_norm",
    "aten::cat",
}


def lower_for_inference(graph: Graph) -> int:
    """Rewrite the top-level block; returns how many nodes changed."""
    changed = 0
    for node in list(graph.nodes):
        direct = _DIRECT.get(node.target or "")
        if direct is not None and not node.attrs.get("kwnames"):
            if node.target.endswith("relu") and len(node.inputs) != 1:
                continue
            node.target = direct
            changed += 1
        if node.kind == "aten::relu" and _fresh_and_private(graph, node):
            node.kind, node.target = "aten::relu_", "torch.relu_"
            changed += 1
    return changed


def _fresh_and_private(graph: Graph, node: Node) -> bool:
    if len(node.inputs) != 1:
        return False
    value = node.inputs[0]
    producer = value.node
    if producer is None or producer.kind not in _FRESH or producer.attrs.get("returns"):
        return False
    if len(value.uses) != 1 or any(value is v for v in graph.outputs):
        return False
    return producer.owner is node.owner
