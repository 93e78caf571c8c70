"""Walk a traced graph of :mod:`torch.jit._ir` and translate each node into ONNX.

Each IR value maps to a :class:`~torch.onnx._graph.SymbolicValue` (a tensor computed
from the model inputs) or to a Python value known at export time: constants, modules,
lists and tuples of either, and parameters. An ``aten::`` node whose arguments are all
known runs eagerly (constant folding: with ``do_constant_folding`` also on parameters);
otherwise its symbolic function emits ONNX nodes.
"""

from __future__ import annotations

import operator
from typing import Any

import torch
from torch.jit import _ir
from torch.jit._nested import contains, leaves

from . import _registry
from ._graph import GraphContext, SymbolicInt, SymbolicValue
from .errors import OnnxExporterError, UnsupportedOperatorError

__all__ = ["translate"]

# random ops never run at export time (their value would freeze into the model)
_NOT_FOLDED = {
    "aten::dropout",
    "aten::alpha_dropout",
    "aten::feature_alpha_dropout",
    "aten::dropout1d",
    "aten::dropout2d",
    "aten::dropout3d",
    "aten::rand",
    "aten::randn",
    "aten::rand_like",
    "aten::randn_like",
    "aten::randint",
    "aten::bernoulli",
    "aten::multinomial",
    "aten::normal",
}


def _contains_graph_values_but_sizes(value: Any) -> bool:
    """Whether ``value`` holds a graph value other than a recorded size."""
    return any(
        isinstance(leaf, SymbolicValue) and not isinstance(leaf, SymbolicInt)
        for leaf in leaves(value)
    )


class _Translator:
    def __init__(self, g: GraphContext, fold: bool, parameter_value) -> None:
        self.g = g
        self.fold = fold
        self.parameter_value = parameter_value  # tensor -> its value in the graph
        self.env: dict[_ir.Value, Any] = {}

    def run_block(self, block: _ir.Block) -> None:
        for node in block.nodes:
            self.translate_node(node)

    def translate_node(self, node: _ir.Node) -> None:
        kind = node.kind
        handler = _PRIM_HANDLERS.get(kind)
        if handler is not None:
            handler(self, node)
        elif kind.startswith("aten::"):
            self.translate_op(node)
        else:
            raise UnsupportedOperatorError(kind, self.g.opset)

    # -- op nodes
    def arguments(self, node: _ir.Node) -> tuple[list, dict]:
        values = [self.env[v] for v in node.inputs]
        kwnames = node.attrs.get("kwnames", ())
        split = len(values) - len(kwnames)
        return values[:split], dict(zip(kwnames, values[split:]))

    def translate_op(self, node: _ir.Node) -> None:
        args, kwargs = self.arguments(node)
        everything = (args, kwargs)
        if not contains(everything, SymbolicValue) and node.kind not in _NOT_FOLDED:
            if self.fold or not contains(everything, torch.Tensor):
                self.bind_outputs(node, self.evaluate(node, args, kwargs))
                return
            args, kwargs = self.symbolic_tensors(args), self.symbolic_tensors(kwargs)
        if node.kind == "aten::size":
            self.env[node.output()] = self.size(*args, **kwargs)
            return
        if (node.target or "").startswith("operator."):  # arithmetic on recorded sizes
            self.env[node.output()] = self.int_arithmetic(node, *args)
            return
        fn = _registry.lookup(node.kind, self.g.opset)
        if fn is None:
            if not _contains_graph_values_but_sizes(everything):
                # only recorded sizes are unknown: the op runs on the traced numbers
                self.bind_outputs(node, self.evaluate(node, *_static((args, kwargs))))
                return
            first = _registry.first_opset(node.kind)
            raise UnsupportedOperatorError(node.kind, self.g.opset, first)
        g = self.g
        g.current_kind = node.kind.partition("::")[2].capitalize()
        g.current_outputs = [self.output_type(v) for v in node.outputs]
        result = fn(g, *args, **kwargs)
        self.bind_outputs(node, result, symbolic=True)

    def output_type(self, value: _ir.Value) -> tuple:
        """(dtype, sizes) of an IR value as the trace saw it (None, None: unknown)."""
        return _traced(value.type)

    def size(self, tensor, dim=None):
        """``x.size(dim)``: element ``dim`` of ``Shape(x)`` as a recorded size."""
        g = self.g
        sizes = tensor.sizes if isinstance(tensor, SymbolicValue) else tuple(tensor.shape)
        if dim is None:  # x.size(): every size
            return [self.size(tensor, d) for d in range(len(sizes))]
        if not isinstance(tensor, SymbolicValue):
            return sizes[dim]
        dim = int(dim) + len(sizes) if int(dim) < 0 else int(dim)
        g.current_kind = "Shape"
        shape = g.op("Shape", tensor)
        value = g.op("Gather", shape, g.constant(torch.tensor(dim)), axis_i=0)
        return SymbolicInt(sizes[dim], value.name)

    def int_arithmetic(self, node: _ir.Node, left, right):
        """``operator.add`` ... of sizes: an int64 op whose result is again a size."""
        g = self.g
        name = node.target.partition(".")[2]
        number = getattr(operator, name)(int(left), int(right))
        op_type = _INT_OPS[name]
        g.current_kind = op_type
        a, b = (g.cast(v, torch.int64) for v in (left, right))
        value = g.op(op_type, a, b, **({"fmod_i": 0} if op_type == "Mod" else {}))
        return SymbolicInt(number, value.name)

    def symbolic_tensors(self, value):
        """Tensors of ``value`` as graph values (no constant folding)."""
        if isinstance(value, torch.Tensor):
            return self.g.constant(value)
        if isinstance(value, (list, tuple)):
            return type(value)(self.symbolic_tensors(v) for v in value)
        if isinstance(value, dict):
            return {k: self.symbolic_tensors(v) for k, v in value.items()}
        return value

    @staticmethod
    def evaluate(node: _ir.Node, args, kwargs):
        target = node.target
        if target is None:
            raise OnnxExporterError(f"{node.kind} has no target to fold")
        with torch.no_grad():
            return _ir.resolve_target(target)(*args, **kwargs)

    def bind_outputs(self, node: _ir.Node, result, symbolic: bool = False) -> None:
        outputs = node.outputs
        if len(outputs) == 1 and "returns" not in node.attrs:
            items = [result]
        else:
            items = list(result)
            if len(items) != len(outputs):
                raise OnnxExporterError(
                    f"the symbolic of {node.kind} gave {len(items)} outputs, the trace has "
                    f"{len(outputs)}"
                )
        for value, item in zip(outputs, items):
            if symbolic and isinstance(item, SymbolicValue):
                dtype, sizes = self.output_type(value)
                if dtype is not None:  # the trace knows better than the symbolic
                    item.dtype = dtype
                    item.sizes = sizes
            self.env[value] = item


_INT_OPS = {"add": "Add", "sub": "Sub", "mul": "Mul", "floordiv": "Div", "mod": "Mod"}


def _static(value):
    """``value`` with recorded sizes replaced by the numbers the trace saw."""
    if isinstance(value, SymbolicInt):
        return int(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_static(v) for v in value)
    if isinstance(value, dict):
        return {k: _static(v) for k, v in value.items()}
    return value


def _traced(type_: _ir.Type) -> tuple:
    if isinstance(type_, _ir.TensorType):
        return type_.dtype, type_.sizes
    return None, None


# ----------------------------------------------------------------------- prim nodes


def _constant(t: _Translator, node: _ir.Node) -> None:
    t.env[node.output()] = node.attrs.get("value")


def _get_attr(t: _Translator, node: _ir.Node) -> None:
    owner = t.env[node.inputs[0]]
    value = getattr(owner, node.attrs["name"])
    if isinstance(value, torch.Tensor):
        value = t.parameter_value(value)
    t.env[node.output()] = value


def _construct(kind):
    def handler(t: _Translator, node: _ir.Node) -> None:
        t.env[node.output()] = kind(t.env[v] for v in node.inputs)

    return handler


def _dict_construct(t: _Translator, node: _ir.Node) -> None:
    items = [t.env[v] for v in node.inputs]
    t.env[node.output()] = dict(zip(items[0::2], items[1::2]))


def _unpack(t: _Translator, node: _ir.Node) -> None:
    items = list(t.env[node.inputs[0]])
    if len(items) != len(node.outputs):
        raise OnnxExporterError(f"{node.kind}: {len(items)} items for {len(node.outputs)} outputs")
    for value, item in zip(node.outputs, items):
        t.env[value] = item


def _tuple_index(t: _Translator, node: _ir.Node) -> None:
    t.env[node.output()] = t.env[node.inputs[0]][t.env[node.inputs[1]]]


def _slice_construct(t: _Translator, node: _ir.Node) -> None:
    # bounds that are recorded sizes stay SymbolicInts: the Slice follows dynamic axes
    t.env[node.output()] = slice(*(t.env[v] for v in node.inputs))


_PRIM_HANDLERS = {
    "prim::Constant": _constant,
    "prim::SliceConstruct": _slice_construct,
    "prim::GetAttr": _get_attr,
    "prim::ListConstruct": _construct(list),
    "prim::TupleConstruct": _construct(tuple),
    "prim::DictConstruct": _dict_construct,
    "prim::ListUnpack": _unpack,
    "prim::TupleUnpack": _unpack,
    "prim::TupleIndex": _tuple_index,
}


def translate(graph: _ir.Graph, g: GraphContext, inputs: dict, fold: bool, parameter_value):
    """Translate ``graph`` (inlined; its first input the module when ``inputs`` maps it)
    into ``g``; ``inputs`` maps graph inputs to their values. Returns the Python structure
    of the graph outputs with :class:`SymbolicValue` leaves."""
    translator = _Translator(g, fold, parameter_value)
    translator.env.update(inputs)
    translator.run_block(graph.block)
    return [translator.env[v] for v in graph.outputs]
