"""Fusion of elementwise chains into one native kernel.

A chain such as ``x * sigmoid(x) + y`` runs in eager mode as three NumPy passes over
memory with two temporary tensors. This pass finds trees of elementwise ops over
same-shaped contiguous float tensors (and Python-number constants) in which every
intermediate value is read only by the next op of the tree, and replaces each tree of two
or more ops by one ``prim::FusionGroup`` node. Its kernel is C++ generated from the tree
(one loop, one read of each input and one write of the output per element), compiled by
the system C++ compiler into a shared library cached on disk (:mod:`torch.jit._kernels`)
and called through ``ctypes``.

The kernel runs only where it computes what the ops would: float32/float64 inputs of one
shape (the traced one or another: the loop does not depend on it), contiguous, no
gradient needed (grad mode off or no input requiring grad).
Otherwise the group runs its subgraph through the ordinary ops, so autograd and other
shapes keep working.
"""

from __future__ import annotations

from .._ir import Graph, Node, TensorType, Value
from ._util import is_constant

__all__ = ["fuse_elementwise", "ELEMENTWISE"]

#: op kind -> C++ expression over the operands ``{0}``, ``{1}`` (``T`` is the scalar type;
#: ``EXP``, ``TANH``, ... the C math function of that type, see ``torch.jit._kernels``)
ELEMENTWISE = {
    "aten::add": "({0} + {1})",
    "aten::sub": "({0} - {1})",
    "aten::rsub": "({1} - {0})",
    "aten::mul": "({0} * {1})",
    "aten::div": "({0} / {1})",
    "aten::rdiv": "({1} / {0})",
    "aten::neg": "(-{0})",
    "aten::sigmoid": "(T(1) / (T(1) + EXP(-{0})))",
    "aten::tanh": "TANH({0})",
    "aten::relu": "({0} > T(0) ? {0} : ({0} != {0} ? {0} : T(0)))",
    "aten::exp": "EXP({0})",
    "aten::log": "LOG({0})",
    "aten::sqrt": "SQRT({0})",
    "aten::rsqrt": "(T(1) / SQRT({0}))",
    "aten::abs": "FABS({0})",
    "aten::sin": "SIN({0})",
    "aten::cos": "COS({0})",
    "aten::reciprocal": "(T(1) / {0})",
    "aten::square": "({0} * {0})",
    "aten::silu": "({0} / (T(1) + EXP(-{0})))",
    "aten::gelu": "(T(0.5) * {0} * (T(1) + ERF({0} * T(0.70710678118654752440))))",
}
_ARITY = {kind: 2 if "{1}" in expr else 1 for kind, expr in ELEMENTWISE.items()}
_FLOATS = ("torch.float32", "torch.float64")


def _tensor_type(value: Value) -> TensorType | None:
    type_ = value.type
    if isinstance(type_, TensorType) and type_.sizes is not None and type_.dtype is not None:
        return type_
    return None


def _contiguous(type_: TensorType) -> bool:
    expected, stride = [], 1
    for size in reversed(type_.sizes):
        expected.append(stride)
        stride *= max(size, 1)
    return type_.strides is None or tuple(reversed(expected)) == tuple(
        s if n > 1 else e for s, n, e in zip(type_.strides, type_.sizes, reversed(expected))
    )


def _fusible(node: Node) -> bool:
    if node.kind not in ELEMENTWISE or node.blocks or node.attrs.get("kwnames"):
        return False
    if len(node.inputs) != _ARITY[node.kind] or len(node.outputs) != 1:
        return False
    if node.kind == "aten::gelu" and len(node.inputs) != 1:
        return False
    out = _tensor_type(node.output())
    if out is None or str(out.dtype) not in _FLOATS or not _contiguous(out):
        return False
    for value in node.inputs:
        if is_constant(value):
            constant = value.node.attrs.get("value")
            if type(constant) not in (int, float):
                return False
            continue
        type_ = _tensor_type(value)
        if type_ is None or type_.sizes != out.sizes or type_.dtype != out.dtype:
            return False
        if not _contiguous(type_):
            return False
    return True


def fuse_elementwise(graph: Graph) -> int:
    """Replace elementwise trees of the top-level block by fusion groups; returns how many
    groups were made."""
    from .._kernels import FusedKernel

    block = graph.block
    parent: dict[Node, Node] = {}

    def find(node: Node) -> Node:
        while parent[node] is not node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    fusible = [n for n in block.nodes if _fusible(n)]
    for node in fusible:
        parent[node] = node
    outputs_of_block = {id(v) for v in block.outputs}
    for node in fusible:
        for value in node.inputs:
            producer = value.node
            if producer in parent and len(value.uses) == 1 and id(value) not in outputs_of_block:
                parent[find(producer)] = find(node)
    groups: dict[Node, list[Node]] = {}
    for node in fusible:
        groups.setdefault(find(node), []).append(node)
    made = 0
    for members in groups.values():
        if len(members) < 2:
            continue
        replace_with_group(graph, members, FusedKernel)
        made += 1
    return made


def replace_with_group(graph: Graph, members: list[Node], make_kernel) -> None:
    """Swap ``members`` (in block order; the last is the sink, the others feed it alone)
    for one ``prim::FusionGroup`` whose subgraph holds them and whose kernel is
    ``make_kernel(subgraph)``."""
    inside = {id(n) for n in members}
    sink = members[-1]
    subgraph = Graph()
    mapping: dict[Value, Value] = {}
    external: list[Value] = []
    for node in members:
        for value in node.inputs:
            if value in mapping:
                continue
            if is_constant(value):
                mapping[value] = subgraph.constant(value.node.attrs["value"])
            elif value.node is None or id(value.node) not in inside:
                external.append(value)
                mapping[value] = subgraph.add_input(value.type, f"x{len(external) - 1}")
        copy = subgraph.append(node.kind, [mapping[v] for v in node.inputs], node.attrs)
        copy.target = node.target
        for value in node.outputs:
            mapping[value] = copy.add_output(value.type)
    subgraph.register_output(mapping[sink.output()])
    fused = sink.owner.insert_before(sink, "prim::FusionGroup", external)
    fused.attrs["subgraph"] = subgraph
    fused.attrs["kernel"] = make_kernel(subgraph)
    out = fused.add_output(sink.output().type)
    sink.output().replace_all_uses_with(out)
    for node in reversed(members):
        node.destroy()
