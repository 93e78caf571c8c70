"""Decomposition of composite ``nn.functional`` calls into the ops they run.

A trace records the outermost op call, so ``F.multi_head_attention_forward`` is one
node: right for the trace, but the call then pays its argument checks and reshaping
logic in Python on every run, and the ONNX exporter would need a translation for the
whole composite. In an inference graph whose non-tensor arguments are constants this pass
traces the composite itself (recording its inner ops), checks on two random inputs of the
traced shapes that the ops compute what the composite does, and splices them in place of
the node. A composite that does not reproduce (or cannot be traced) stays as it is.
"""

from __future__ import annotations

import warnings

import torch

from .._ir import Graph, Node, TensorType, Value, resolve_target
from ._util import constant_value, is_constant

__all__ = ["decompose_composites", "COMPOSITES"]

COMPOSITES = frozenset({"torch.nn.functional.multi_head_attention_forward"})


def decompose_composites(graph: Graph) -> int:
    """Decompose the composites of the top-level block; returns how many."""
    done = 0
    for node in list(graph.nodes):
        if node.target in COMPOSITES and _decompose(graph, node):
            done += 1
    return done


def _runtime_tensor(value: Value) -> bool:
    return isinstance(value.type, TensorType) and not is_constant(value)


def _decompose(graph: Graph, node: Node) -> bool:
    tensors = [v for v in dict.fromkeys(node.inputs) if _runtime_tensor(v)]
    if any(not _runtime_tensor(v) and not is_constant(v) for v in node.inputs):
        return False
    if any(v.type.sizes is None or v.type.dtype is None for v in tensors):
        return False
    function = resolve_target(node.target)
    kwnames = node.attrs.get("kwnames", ())

    def run(*values):
        lookup = dict(zip(tensors, values))
        args = [lookup[v] if v in lookup else constant_value(v) for v in node.inputs]
        count = len(args) - len(kwnames)
        return function(*args[:count], **dict(zip(kwnames, args[count:])))

    from .._codegen import compile_graph
    from .._trace import _trace_graph

    examples = [_random_like(v.type) for v in tensors]
    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sub, _, _ = _trace_graph(run, tuple(examples), None, False,
                                     transparent=COMPOSITES)  # fmt: skip
            ops = compile_graph(sub)
            for _ in range(2):
                check = [_random_like(v.type) for v in tensors]
                if not _same(run(*check), ops(*check)):
                    return False
    except Exception:  # noqa: BLE001 - a composite that cannot be traced stays whole
        return False
    _splice(graph, node, sub, tensors)
    return True


def _random_like(type_: TensorType) -> torch.Tensor:
    if type_.dtype.is_floating_point:
        return torch.randn(type_.sizes, dtype=type_.dtype)
    return torch.zeros(type_.sizes, dtype=type_.dtype)


def _flatten(value) -> list:
    if isinstance(value, (tuple, list)):
        return [item for v in value for item in _flatten(v)]
    return [value]


def _same(expected, got) -> bool:
    expected, got = _flatten(expected), _flatten(got)
    if len(expected) != len(got):
        return False
    for e, g in zip(expected, got):
        if isinstance(e, torch.Tensor) != isinstance(g, torch.Tensor):
            return False
        if isinstance(e, torch.Tensor):
            if e.shape != g.shape or not torch.allclose(e, g, rtol=1e-5, atol=1e-5):
                return False
        elif e != g:
            return False
    return True


def _splice(graph: Graph, node: Node, sub: Graph, tensors: list[Value]) -> None:
    from .inline import _copy_nodes

    block = node.owner
    mapping = dict(zip(sub.inputs, tensors))
    copies = _copy_nodes(sub.block, block, mapping)
    index = block.nodes.index(node)
    block.nodes[index:index] = copies
    result = mapping[sub.outputs[0]]
    if node.attrs.get("returns") in ("tuple", "list"):
        construct = result.node
        parts = construct.inputs if construct is not None else []
        node.replace_with(*parts)
    else:
        node.replace_with(result)
