"""The graph IR of torch.jit: a typed SSA graph that tracing and scripting produce, the
passes rewrite, the code generator runs, ``torch.jit.save`` stores and the ONNX exporter
translates.

Structure (the same as PyTorch's TorchScript IR):

- A :class:`Graph` owns one top-level :class:`Block`. ``graph.inputs`` are the block's
  parameters (for a module method the first is ``self``), ``graph.outputs`` the values it
  returns; ``graph.nodes`` its nodes in execution order.
- A :class:`Node` has a ``kind`` (``"aten::add"``, ``"prim::Constant"``,
  ``"prim::GetAttr"``, ``"prim::If"``, ...), ordered ``inputs`` (:class:`Value`),
  ``outputs`` (values it defines, each defined exactly once), ``attrs`` (a dict of
  non-value attributes: ``value`` of a constant, ``name`` of a ``GetAttr``,
  ``kwnames``), and ``blocks`` (sub-blocks of control flow). ``node.source`` is the
  ``file:line`` that produced it and ``node.scope`` the path of the submodule it ran in.
- A :class:`Value` has a ``type`` (:class:`TensorType` with dtype, sizes, strides,
  device and requires_grad, any of them None when unknown, or one of the scalar and
  container types below), the ``node`` that defines it (None for a block parameter) and
  ``uses`` (the nodes that read it).

Op nodes (``aten::<name>``) are calls of a public function: ``node.target`` names it as
``"torch.<name>"``, ``"Tensor.<method>"``, ``"torch.nn.functional.<name>"``,
``"torch.linalg.<name>"``, ``"ops.<name>"`` for an op of core's registry that torch-nn
calls through it (see :func:`resolve_target`); the inputs are its
positional arguments followed by the keyword arguments named by ``attrs["kwnames"]``.
A reflected operator that does not commute records as ``aten::r<op>(self, other)``,
meaning ``other <op> self`` (``2 - x`` is ``aten::rsub(%x, %2)``, ``2 / x`` is
``aten::rdiv(%x, %2)``); ``2 + x`` records as ``aten::add(%x, %2)``.
Non-tensor arguments are ``prim::Constant`` values (a Python number, bool, string,
None, ``torch.dtype``, ``torch.device``, slice, Ellipsis or a tensor), or built by
``prim::ListConstruct`` / ``prim::TupleConstruct`` from other values. An op returning a
tuple or list of tensors has one output per element (``attrs["returns"]`` is
``"tuple"`` or ``"list"``).

Other node kinds:

=========================  ==============================================================
``prim::Constant``         ``attrs["value"]``; no inputs
``prim::GetAttr``          ``attrs["name"]`` of the module value input
``prim::ListConstruct``    a list of its inputs (``TupleConstruct``: a tuple;
                           ``DictConstruct``: keys and values alternate)
``prim::ListUnpack``       its input's elements as outputs (``TupleUnpack`` too)
``prim::TupleIndex``       ``inputs[0][inputs[1]]``
``prim::If``               ``inputs[0]`` a bool; ``blocks[0]`` / ``blocks[1]``, whose
                           outputs become the node's outputs
``prim::Loop``             ``inputs`` = (max trip count, initial condition, *carried);
                           ``blocks[0]`` params = (iteration, *carried), outputs =
                           (condition, *carried); node outputs = final carried values
``prim::CallFunction``     ``attrs["function"]`` (a ScriptFunction) on the inputs
``prim::CallMethod``       ``attrs["name"]`` of the module value ``inputs[0]``
``prim::PythonOp``         ``attrs["fn"]``: an ignored Python function (not saveable)
``prim::RaiseException``   raise ``torch.jit.Error(inputs[0])``
``prim::FusionGroup``      ``attrs["subgraph"]``: a graph of elementwise ops run as one
                           native kernel (``attrs["kernel"]``)
``prim::Print``            ``print(*inputs)``
``prim::Expr``             ``attrs["expr"]``: a Python expression over the inputs
                           (``"len({0})"``), from the script compiler; ``attrs["effect"]``
                           marks one run for its effect (``"{0}.append({1})"``)
=========================  ==============================================================
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Iterator
from typing import Any

import torch

__all__ = [
    "Type",
    "TensorType",
    "ScalarType",
    "ListType",
    "TupleType",
    "DictType",
    "OptionalType",
    "ClassType",
    "INT",
    "FLOAT",
    "BOOL",
    "STR",
    "NONE",
    "DEVICE",
    "DTYPE",
    "ANY",
    "type_of",
    "Value",
    "Node",
    "Block",
    "Graph",
    "resolve_target",
]


# ----------------------------------------------------------------------------- types


class Type:
    """Base of the IR's types; ``str(t)`` is how PyTorch prints it. Two types are equal
    when they are of the same kind and their :meth:`_identity` agrees."""

    __slots__ = ()

    def _identity(self) -> Hashable:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and other._identity() == self._identity()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._identity()))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"


class _NamedType(Type):
    """A type that is its name."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return self.name

    def _identity(self) -> Hashable:
        return self.name


class ScalarType(_NamedType):
    """``int``, ``float``, ``bool``, ``str``, ``NoneType``, ``Device``, ``Any`` ...
    (``torch.dtype`` values print as ``int``, as PyTorch stores them)."""

    __slots__ = ()


INT = ScalarType("int")
FLOAT = ScalarType("float")
BOOL = ScalarType("bool")
STR = ScalarType("str")
NONE = ScalarType("NoneType")
DEVICE = ScalarType("Device")
DTYPE = ScalarType("int")  # ScalarType codes print as int
ANY = ScalarType("Any")

_DTYPE_LETTERS = {
    "float32": "Float",
    "float64": "Double",
    "float16": "Half",
    "bfloat16": "BFloat16",
    "int64": "Long",
    "int32": "Int",
    "int16": "Short",
    "int8": "Char",
    "uint8": "Byte",
    "bool": "Bool",
    "complex64": "ComplexFloat",
    "complex128": "ComplexDouble",
}


class TensorType(Type):
    """A tensor: dtype, sizes, strides, device, requires_grad (None when unknown).
    Fully known it prints ``Float(3, 4, strides=[4, 1], requires_grad=0, device=cpu)``,
    fully unknown ``Tensor``."""

    __slots__ = ("dtype", "sizes", "strides", "device", "requires_grad")

    def __init__(self, dtype=None, sizes=None, strides=None, device=None, requires_grad=None):
        self.dtype = dtype
        self.sizes = None if sizes is None else tuple(sizes)
        self.strides = None if strides is None else tuple(strides)
        self.device = device
        self.requires_grad = requires_grad

    @classmethod
    def of(cls, tensor) -> TensorType:
        return cls(
            tensor.dtype, tuple(tensor.shape), tensor.stride(), tensor.device, tensor.requires_grad
        )

    def unknown_shape(self) -> TensorType:
        """The same dtype and device with sizes and strides forgotten."""
        return TensorType(self.dtype, None, None, self.device, self.requires_grad)

    def __str__(self) -> str:
        if self.dtype is None:
            return "Tensor"
        parts = [str(s) for s in self.sizes or ()]
        if self.strides is not None:
            parts.append(f"strides=[{', '.join(str(s) for s in self.strides)}]")
        if self.requires_grad is not None:
            parts.append(f"requires_grad={int(self.requires_grad)}")
        if self.device is not None:
            parts.append(f"device={self.device}")
        letter = _DTYPE_LETTERS.get(str(self.dtype).rpartition(".")[2], "Tensor")
        return f"{letter}({', '.join(parts)})"

    def _identity(self) -> Hashable:
        return str(self)


class ListType(Type):
    __slots__ = ("element",)

    def __init__(self, element: Type) -> None:
        self.element = element

    def __str__(self) -> str:
        element = self.element
        return f"{'Tensor' if isinstance(element, TensorType) else element}[]"

    def _identity(self) -> Hashable:
        return self.element


class TupleType(Type):
    __slots__ = ("elements",)

    def __init__(self, elements: Iterable[Type]) -> None:
        self.elements = tuple(elements)

    def __str__(self) -> str:
        return f"({', '.join(str(e) for e in self.elements)})"

    def _identity(self) -> Hashable:
        return self.elements


class NamedTupleType(TupleType):
    """A ``typing.NamedTuple`` class: a tuple whose elements also have names."""

    __slots__ = ("name", "fields")

    def __init__(self, name: str, fields: Iterable[str], elements: Iterable[Type]) -> None:
        super().__init__(elements)
        self.name, self.fields = name, tuple(fields)

    def __str__(self) -> str:
        return self.name

    def field_type(self, field: str) -> Type:
        return self.elements[self.fields.index(field)]

    def _identity(self) -> Hashable:
        return (self.name, self.fields, self.elements)


class DictType(Type):
    __slots__ = ("key", "value")

    def __init__(self, key: Type, value: Type) -> None:
        self.key, self.value = key, value

    def __str__(self) -> str:
        return f"Dict({self.key}, {self.value})"

    def _identity(self) -> Hashable:
        return (self.key, self.value)


class OptionalType(Type):
    __slots__ = ("element",)

    def __init__(self, element: Type) -> None:
        self.element = element

    def __str__(self) -> str:
        return f"{self.element}?"

    def _identity(self) -> Hashable:
        return self.element


class ClassType(_NamedType):
    """A module or class instance: ``__torch__.<module>.<qualname>``."""

    __slots__ = ()


def type_of(value: Any) -> Type:
    """The IR type of a Python value (a constant or a traced input/output)."""
    if isinstance(value, torch.Tensor):
        return TensorType.of(value)
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, str):
        return STR
    if value is None:
        return NONE
    if isinstance(value, torch.dtype):
        return DTYPE
    if isinstance(value, torch.device):
        return DEVICE
    if isinstance(value, list):
        return ListType(_common_type(value))
    if isinstance(value, tuple):
        return TupleType(type_of(v) for v in value)
    if isinstance(value, dict):
        keys, values = list(value), list(value.values())
        return DictType(_common_type(keys), _common_type(values))
    return ANY


def _common_type(items: list) -> Type:
    types = {str(type_of(v)) for v in items}
    if not items:
        return TensorType()
    first = type_of(items[0])
    if isinstance(first, TensorType):
        return TensorType()
    return first if len(types) == 1 else ANY


# ---------------------------------------------------------------------------- values


class Value:
    """One SSA value: defined once (by ``node``, or as a block parameter), read by
    ``uses``."""

    __slots__ = ("unique", "debug_name", "type", "node", "uses", "graph")

    def __init__(self, graph: Graph, type: Type, node: Node | None = None) -> None:
        self.graph = graph
        self.unique = next(graph._counter)
        self.debug_name: str | None = None
        self.type = type
        self.node = node
        self.uses: list[Node] = []

    @property
    def name(self) -> str:
        """``debugName`` of PyTorch: the hint (``x``, ``self.1``) or the number."""
        return self.debug_name if self.debug_name is not None else str(self.unique)

    def set_debug_name(self, name: str) -> Value:
        if name[:1].isdigit():  # numbers are the names of unnamed values
            name = "_" + name
        self.debug_name = self.graph._unique_name(name)
        return self

    def replace_all_uses_with(self, other: Value) -> None:
        """Make every reader of this value read ``other`` instead (block outputs too)."""
        for node in list(self.uses):
            node.inputs = [other if v is self else v for v in node.inputs]
            other.uses.append(node)
        self.uses.clear()
        for block in self.graph.all_blocks():
            if any(v is self for v in block.outputs):
                block.outputs = [other if v is self else v for v in block.outputs]

    def __repr__(self) -> str:
        return f"%{self.name}"


# ----------------------------------------------------------------------------- nodes


class Node:
    """One operation. See the module docstring for the kinds."""

    __slots__ = (
        "kind",
        "inputs",
        "outputs",
        "attrs",
        "blocks",
        "owner",
        "target",
        "source",
        "scope",
    )

    def __init__(self, block: Block, kind: str, inputs: Iterable[Value], attrs=None) -> None:
        self.kind = kind
        self.inputs: list[Value] = list(inputs)
        self.outputs: list[Value] = []
        self.attrs: dict[str, Any] = dict(attrs or {})
        self.blocks: list[Block] = []
        self.owner = block
        self.target: str | None = None
        self.source: str | None = None
        self.scope: str | None = None
        for value in self.inputs:
            value.uses.append(self)

    @property
    def graph(self) -> Graph:
        return self.owner.graph

    def add_output(self, type: Type) -> Value:
        value = Value(self.graph, type, self)
        self.outputs.append(value)
        return value

    def add_block(self) -> Block:
        block = Block(self.graph, self)
        self.blocks.append(block)
        return block

    def output(self) -> Value:
        if len(self.outputs) != 1:
            raise RuntimeError(f"{self.kind} has {len(self.outputs)} outputs, not one")
        return self.outputs[0]

    def replace_input(self, index: int, value: Value) -> None:
        old = self.inputs[index]
        old.uses.remove(self)
        self.inputs[index] = value
        value.uses.append(self)

    def replace_with(self, *values: Value) -> None:
        """Make the readers of each output read the matching one of ``values`` instead,
        then remove the node."""
        for output, value in zip(self.outputs, values):
            output.replace_all_uses_with(value)
        self.destroy()

    def destroy(self) -> None:
        """Remove this node (its outputs must be unused)."""
        for value in self.inputs:
            value.uses.remove(self)
        for block in self.blocks:
            for node in list(block.nodes):
                node.destroy()
        self.owner.nodes.remove(self)

    def has_side_effects(self) -> bool:
        """Whether dead-code elimination must keep the node although nothing reads it."""
        if self.kind in _SIDE_EFFECT_KINDS or self.attrs.get("effect"):
            return True
        if (
            self.kind.startswith("aten::")
            and self.kind.endswith("_")
            and not self.kind.endswith("__")
        ):
            return True  # an in-place op writes into its input
        if self.kind in ("aten::__setitem__", "aten::copy_"):
            return True
        return any(n.has_side_effects() for b in self.blocks for n in b.nodes)

    def __repr__(self) -> str:
        return _format_node(self, "").strip()


_SIDE_EFFECT_KINDS = {
    "prim::RaiseException",
    "prim::Print",
    "prim::PythonOp",
    "prim::SetAttr",
    "prim::CallMethod",
    "prim::CallFunction",
    "aten::warn",
}


# ---------------------------------------------------------------------------- blocks


class Block:
    """A list of nodes with parameters and outputs (the graph body, a branch of
    ``prim::If``, the body of ``prim::Loop``)."""

    __slots__ = ("graph", "owning_node", "inputs", "outputs", "nodes")

    def __init__(self, graph: Graph, owning_node: Node | None = None) -> None:
        self.graph = graph
        self.owning_node = owning_node
        self.inputs: list[Value] = []
        self.outputs: list[Value] = []
        self.nodes: list[Node] = []

    def add_input(self, type: Type, name: str | None = None) -> Value:
        value = Value(self.graph, type)
        if name is not None:
            value.set_debug_name(name)
        self.inputs.append(value)
        return value

    def register_output(self, value: Value) -> None:
        self.outputs.append(value)

    def append(self, kind: str, inputs: Iterable[Value] = (), attrs=None) -> Node:
        node = Node(self, kind, inputs, attrs)
        self.nodes.append(node)
        return node

    def insert_before(self, anchor: Node, kind: str, inputs=(), attrs=None) -> Node:
        node = Node(self, kind, inputs, attrs)
        self.nodes.insert(self.nodes.index(anchor), node)
        return node


# ----------------------------------------------------------------------------- graph


class Graph:
    """A typed SSA graph. ``str(graph)`` prints it in PyTorch's format."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._names: dict[str, int] = {}
        self.block = Block(self)
        #: default values of inputs (by name), for calls that leave them out
        self.defaults: dict[str, Any] = {}

    # -- structure
    @property
    def inputs(self) -> list[Value]:
        return self.block.inputs

    @property
    def outputs(self) -> list[Value]:
        return self.block.outputs

    @property
    def nodes(self) -> list[Node]:
        return self.block.nodes

    def add_input(self, type: Type, name: str | None = None) -> Value:
        return self.block.add_input(type, name)

    def register_output(self, value: Value) -> None:
        self.block.register_output(value)

    def append(self, kind: str, inputs: Iterable[Value] = (), attrs=None) -> Node:
        return self.block.append(kind, inputs, attrs)

    def constant(self, value: Any, block: Block | None = None, before: Node | None = None) -> Value:
        """A ``prim::Constant`` holding ``value`` (appended, or inserted before a node)."""
        block = block or self.block
        if before is not None:
            node = before.owner.insert_before(before, "prim::Constant", (), {"value": value})
        else:
            node = block.append("prim::Constant", (), {"value": value})
        type_ = type_of(value)
        return node.add_output(type_)

    def all_blocks(self) -> Iterator[Block]:
        def walk(block: Block) -> Iterator[Block]:
            yield block
            for node in block.nodes:
                for sub in node.blocks:
                    yield from walk(sub)

        return walk(self.block)

    def all_nodes(self) -> Iterator[Node]:
        for block in self.all_blocks():
            yield from list(block.nodes)

    def _unique_name(self, name: str) -> str:
        count = self._names.get(name)
        if count is None:
            self._names[name] = 0
            return name
        count += 1
        self._names[name] = count
        return f"{name}.{count}"

    def copy(self) -> Graph:
        """A deep copy of the structure (constants and attributes are shared)."""
        new = Graph()
        mapping: dict[Value, Value] = {}
        _copy_block(self.block, new.block, mapping, new)
        new.defaults = dict(self.defaults)
        return new

    def lint(self) -> None:
        """Check SSA form: every input is defined before use and ``uses`` agree."""
        defined: set[int] = set()

        def check(block: Block) -> None:
            for value in block.inputs:
                defined.add(id(value))
            for node in block.nodes:
                for value in node.inputs:
                    if id(value) not in defined:
                        raise RuntimeError(f"{node.kind} reads %{value.name} before its definition")
                    if node not in value.uses:
                        raise RuntimeError(f"%{value.name} does not list its use by {node.kind}")
                for sub in node.blocks:
                    check(sub)
                for value in node.outputs:
                    defined.add(id(value))
            for value in block.outputs:
                if id(value) not in defined:
                    raise RuntimeError(f"block returns %{value.name} before its definition")

        check(self.block)

    def __str__(self) -> str:
        return format_graph(self)

    __repr__ = __str__


def _copy_block(source: Block, target: Block, mapping: dict, graph: Graph) -> None:
    for value in source.inputs:
        new = target.add_input(value.type)
        new.debug_name = value.debug_name
        mapping[value] = new
    for node in source.nodes:
        copy = target.append(node.kind, [mapping[v] for v in node.inputs], node.attrs)
        copy.target, copy.source, copy.scope = node.target, node.source, node.scope
        for block in node.blocks:
            _copy_block(block, copy.add_block(), mapping, graph)
        for value in node.outputs:
            new = copy.add_output(value.type)
            new.debug_name = value.debug_name
            mapping[value] = new
    target.outputs = [mapping[v] for v in source.outputs]
    graph._names.update({v.debug_name: 0 for v in mapping.values() if v.debug_name})


# -------------------------------------------------------------------------- printing


def format_graph(graph: Graph) -> str:
    params = ",\n      ".join(f"%{v.name} : {v.type}" for v in graph.inputs)
    lines = [f"graph({params}):"]
    lines.extend(_format_block_body(graph.block, "  "))
    lines.append(f"  return ({', '.join('%' + v.name for v in graph.outputs)})")
    return "\n".join(lines) + "\n"


def _format_block_body(block: Block, indent: str) -> list[str]:
    lines = []
    for node in block.nodes:
        lines.append(_format_node(node, indent))
        for index, sub in enumerate(node.blocks):
            params = ", ".join(f"%{v.name} : {v.type}" for v in sub.inputs)
            lines.append(f"{indent}  block{index}({params}):")
            lines.extend(_format_block_body(sub, indent + "    "))
            lines.append(f"{indent}    -> ({', '.join('%' + v.name for v in sub.outputs)})")
    return lines


def _format_node(node: Node, indent: str) -> str:
    outputs = ", ".join(f"%{v.name} : {v.type}" for v in node.outputs)
    head = f"{indent}{outputs} = " if outputs else indent
    attrs = _format_attrs(node)
    text = f"{head}{node.kind}{attrs}({', '.join('%' + v.name for v in node.inputs)})"
    if node.scope:
        text += f", scope: {node.scope}"
    if node.source:
        text += f" # {node.source}"
    return text


def _format_attrs(node: Node) -> str:
    if node.kind == "prim::Constant":
        if "value" not in node.attrs or node.attrs["value"] is None:
            return ""
        return f"[value={format_constant(node.attrs['value'])}]"
    shown = {k: v for k, v in node.attrs.items() if k in ("name",)}
    if node.kind == "prim::FusionGroup":
        shown["ops"] = len(node.attrs["subgraph"].nodes)
    if not shown:
        return ""
    return "[" + ", ".join(f"{k}={_format_attr(v)}" for k, v in shown.items()) + "]"


def _format_attr(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)


def format_constant(value: Any) -> str:
    """A constant as PyTorch prints it: ``1``, ``0`` for False, ``"s"``, ``{2.5}`` for a
    0-dim tensor, ``<Tensor>`` for a larger one."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, torch.Tensor):
        if value.dim() == 0:
            return "{" + _format_number(value.item()) + "}"
        return "<Tensor>"
    if isinstance(value, float):
        return _format_number(value)
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, torch.dtype):
        return str(_SCALAR_TYPE_CODES.get(str(value).rpartition(".")[2], value))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_constant(v) for v in value) + "]"
    return str(value)


def _format_number(number) -> str:
    if isinstance(number, float) and number.is_integer():
        return str(int(number)) if abs(number) < 1e16 else repr(number)
    return repr(number)


#: ``c10::ScalarType`` codes: how a dtype constant prints
_SCALAR_TYPE_CODES = {
    "uint8": 0,
    "int8": 1,
    "int16": 2,
    "int32": 3,
    "int64": 4,
    "float16": 5,
    "float32": 6,
    "float64": 7,
    "complex64": 9,
    "complex128": 10,
    "bool": 11,
    "bfloat16": 15,
}


# ---------------------------------------------------------------------- op targets


def resolve_target(target: str):
    """The callable an op node's ``target`` names: ``"torch.add"``, ``"Tensor.view"``,
    ``"torch.nn.functional.relu"``, ``"torch.linalg.norm"`` (a module path then a name)."""
    owner_path, _, name = target.rpartition(".")
    if owner_path == "Tensor":
        return getattr(torch.Tensor, name)
    if owner_path == "ops":  # a core op torch-nn calls through the registry
        from torch._interface import ops

        return ops[name].function
    import importlib

    module = importlib.import_module(owner_path)
    return getattr(module, name)
