"""Constant folding: an op whose inputs are all constants runs once, at compile time, and
its result becomes a constant (so do list and tuple constructions of constants). Ops with
side effects and random ops are left alone."""

from __future__ import annotations

import torch

from .._ir import Block, Graph, Node, resolve_target
from ._util import constant_value, is_constant, is_nondeterministic

__all__ = ["fold_constants"]

_CONSTRUCTORS = {"prim::ListConstruct": list, "prim::TupleConstruct": tuple}
# creation ops: folding them would only move an allocation into a constant
_FACTORIES = ("tensor", "zeros", "ones", "full", "arange", "empty", "eye", "linspace")


def fold_constants(graph: Graph) -> int:
    """Fold in every block; returns how many nodes became constants."""
    with torch.no_grad():
        return _fold_block(graph, graph.block)


def _fold_block(graph: Graph, block: Block) -> int:
    folded = 0
    for node in list(block.nodes):
        for sub in node.blocks:
            folded += _fold_block(graph, sub)
        if not _foldable(node):
            continue
        values = [constant_value(v) for v in node.inputs]
        try:
            result = _evaluate(node, values)
        except Exception:  # noqa: BLE001 - an op that fails at run time stays in the graph
            continue
        outputs = node.outputs
        results = list(result) if node.attrs.get("returns") in ("tuple", "list") else [result]
        if len(results) != len(outputs):
            continue
        for value, item in zip(outputs, results):
            if isinstance(item, torch.Tensor):
                item = item.detach()
            constant = graph.constant(item, before=node)
            constant.node.owner = node.owner
            value.replace_all_uses_with(constant)
        node.destroy()
        folded += 1
    return folded


def _foldable(node: Node) -> bool:
    if node.blocks or not node.outputs or node.has_side_effects() or is_nondeterministic(node):
        return False
    if not all(is_constant(v) for v in node.inputs):
        return False
    if node.kind in _CONSTRUCTORS:
        return True
    if node.target is None or node.attrs.get("property"):
        return node.target is not None
    name = node.kind.partition("::")[2]
    return name not in _FACTORIES


def _evaluate(node: Node, values: list):
    constructor = _CONSTRUCTORS.get(node.kind)
    if constructor is not None:
        return constructor(values)
    function = resolve_target(node.target)
    if node.attrs.get("property"):
        return function.fget(values[0])
    kwnames = node.attrs.get("kwnames", ())
    count = len(values) - len(kwnames)
    return function(*values[:count], **dict(zip(kwnames, values[count:])))
