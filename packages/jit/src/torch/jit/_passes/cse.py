"""Common-subexpression elimination: two pure nodes of the same kind, target, attributes
and inputs compute the same value; later ones are replaced by the first. Constants of
equal value are merged the same way (tensor constants only when they are one object)."""

from __future__ import annotations

import math
from typing import Any

import torch

from .._ir import Block, Graph, Node
from ._util import is_nondeterministic

__all__ = ["eliminate_common_subexpressions"]


def eliminate_common_subexpressions(graph: Graph) -> int:
    """Merge duplicate computations in every block; returns how many nodes were removed."""
    return _visit(graph.block, {})


def _visit(block: Block, seen: dict) -> int:
    removed = 0
    for node in list(block.nodes):
        if node.blocks:
            for sub in node.blocks:
                removed += _visit(sub, dict(seen))  # a branch sees what dominates it
            continue
        key = _key(node)
        if key is None:
            continue
        first = seen.get(key)
        if first is None:
            seen[key] = node
            continue
        node.replace_with(*first.outputs)
        removed += 1
    return removed


def _key(node: Node):
    if node.has_side_effects() or is_nondeterministic(node) or not node.outputs:
        return None
    if node.kind == "prim::Constant":
        value = node.attrs.get("value")
        return ("const", str(node.outputs[0].type), _constant_key(value))
    if node.kind in ("prim::PythonOp", "prim::FusionGroup") or node.kind.startswith("prim::Call"):
        return None
    attrs = tuple((k, _constant_key(v)) for k, v in sorted(node.attrs.items()) if k != "callable")
    return (node.kind, node.target, tuple(id(v) for v in node.inputs), attrs)


def _constant_key(value: Any):
    if isinstance(value, torch.Tensor):
        return ("tensor", id(value))
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_constant_key(v) for v in value))
    if isinstance(value, (bool, int, float, str, type(None))):
        return (type(value).__name__, value)
    try:
        hash(value)
    except TypeError:
        return ("object", id(value))
    return (type(value).__name__, value)
