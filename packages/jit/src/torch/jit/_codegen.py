"""The interpreter of the graph IR: a graph becomes Python source that calls the ops
its nodes name, compiled once and run as a plain function.

The generated function reads only the graph (its node targets resolve to public torch
functions and ``Tensor`` methods), never the Python code that was traced or scripted, so
autograd works through it as through eager code: it calls the same ops. Two renderings
come from one walk over the graph: the executable one binds each callable and each
non-literal constant to a global name; the readable one (``.code``) spells targets out
(``torch.sigmoid(x)``, ``Tensor.view(z, [-1])``).
"""

from __future__ import annotations

import keyword
import math
from typing import Any

import torch

from . import _ir
from ._exceptions import Error

__all__ = ["compile_graph", "render"]

_LITERAL_TYPES = (bool, int, str, type(None))


class _Writer:
    def __init__(self, readable: bool) -> None:
        self.readable = readable
        self.lines: list[str] = []
        self.globals: dict[str, Any] = {
            "torch": torch, "Tensor": torch.Tensor, "Error": Error, "math": math,
        }  # fmt: skip
        self.names: dict[int, str] = {}
        self.used: set[str] = set()
        self._bound: dict[int, str] = {}

    # -- names
    def name(self, value: _ir.Value) -> str:
        found = self.names.get(id(value))
        if found is None:
            base = value.debug_name or f"_{value.unique}"
            base = "".join(c if c.isalnum() or c == "_" else "_" for c in base)
            if base[0].isdigit() or keyword.iskeyword(base):
                base = "_" + base
            found, n = base, 0
            while found in self.used:
                n += 1
                found = f"{base}_{n}"
            self.used.add(found)
            self.names[id(value)] = found
        return found

    def bind(self, obj: Any, hint: str) -> str:
        """A global name for ``obj`` in the executable rendering."""
        found = self._bound.get(id(obj))
        if found is None:
            found = f"_{hint}{len(self._bound)}"
            self._bound[id(obj)] = found
            self.globals[found] = obj
        return found

    def emit(self, indent: str, text: str) -> None:
        self.lines.append(indent + text)

    # -- expressions
    def constant(self, value: Any) -> str:
        if isinstance(value, _LITERAL_TYPES):
            return repr(value)
        if isinstance(value, float):
            if math.isfinite(value):
                return repr(value)
            return f"float({str(value)!r})"
        if isinstance(value, (list, tuple)) and all(
            isinstance(v, (*_LITERAL_TYPES, float)) for v in value
        ):
            inner = ", ".join(self.constant(v) for v in value)
            return (
                f"[{inner}]"
                if isinstance(value, list)
                else f"({inner}{',' if len(value) == 1 else ''})"
            )
        if self.readable:
            if isinstance(value, (torch.dtype, torch.device)):
                return repr(value)
            if isinstance(value, torch.Tensor):
                return f"CONSTANTS.c{self.bind(value, 'c')[2:]}"
            return repr(value)
        return self.bind(value, "c")

    def callee(self, node: _ir.Node) -> str:
        target = node.target
        if self.readable:
            return target
        function = node.attrs.get("callable")
        if function is None:
            function = _ir.resolve_target(target)
        return self.bind(function, "f")


def _call_args(w: _Writer, node: _ir.Node, skip: int = 0) -> str:
    kwnames = node.attrs.get("kwnames", ())
    names = [w.name(v) for v in node.inputs[skip:]]
    positional = names[: len(names) - len(kwnames)]
    keywords = [f"{k}={v}" for k, v in zip(kwnames, names[len(names) - len(kwnames) :])]
    return ", ".join(positional + keywords)


def _outputs(w: _Writer, node: _ir.Node) -> str:
    names = [w.name(v) for v in node.outputs]
    if node.attrs.get("returns") in ("tuple", "list"):
        return ", ".join(names) + ("," if len(names) == 1 else "")
    return names[0] if names else "_"


def _emit_block(w: _Writer, block: _ir.Block, indent: str) -> None:
    for node in block.nodes:
        _emit_node(w, node, indent)


def _emit_node(w: _Writer, node: _ir.Node, indent: str) -> None:
    kind = node.kind
    ins = [w.name(v) for v in node.inputs]
    if kind == "prim::Constant":
        # constants are inlined where read; a constant read nowhere costs nothing
        w.names[id(node.output())] = w.constant(node.attrs.get("value"))
        return
    if kind == "prim::GetAttr":
        name = node.attrs["name"]
        expr = f"{ins[0]}.{name}" if name.isidentifier() else f"getattr({ins[0]}, {name!r})"
        w.emit(indent, f"{_outputs(w, node)} = {expr}")
    elif kind == "prim::SetAttr":
        w.emit(indent, f"setattr({ins[0]}, {node.attrs['name']!r}, {ins[1]})")
    elif kind == "prim::ListConstruct":
        w.emit(indent, f"{_outputs(w, node)} = [{', '.join(ins)}]")
    elif kind == "prim::TupleConstruct":
        w.emit(indent, f"{_outputs(w, node)} = ({', '.join(ins)}{',' if len(ins) == 1 else ''})")
    elif kind == "prim::DictConstruct":
        pairs = ", ".join(f"{k}: {v}" for k, v in zip(ins[::2], ins[1::2]))
        w.emit(indent, f"{_outputs(w, node)} = {{{pairs}}}")
    elif kind in ("prim::ListUnpack", "prim::TupleUnpack"):
        names = ", ".join(w.name(v) for v in node.outputs)
        w.emit(indent, f"{names}{',' if len(node.outputs) == 1 else ''} = {ins[0]}")
    elif kind in ("prim::TupleIndex", "aten::__getitem__.list"):
        w.emit(indent, f"{_outputs(w, node)} = {ins[0]}[{ins[1]}]")
    elif kind == "prim::If":
        _emit_if(w, node, ins, indent)
    elif kind == "prim::Loop":
        _emit_loop(w, node, ins, indent)
    elif kind == "prim::CallMethod":
        args = _call_args(w, node, skip=1)
        w.emit(indent, f"{_outputs(w, node)} = {ins[0]}.{node.attrs['name']}({args})")
    elif kind in ("prim::CallFunction", "prim::PythonOp", "prim::FusionGroup", "prim::Builtin"):
        key = {"prim::CallFunction": "function", "prim::PythonOp": "fn"}.get(kind, "kernel")
        fn = node.attrs[key]
        callee = getattr(fn, "__qualname__", kind) if w.readable else w.bind(fn, "k")
        if w.readable and kind == "prim::FusionGroup":
            callee = f"fused_{len(node.attrs['subgraph'].nodes)}_ops"
        w.emit(indent, f"{_outputs(w, node)} = {callee}({_call_args(w, node)})")
    elif kind == "prim::RaiseException":
        w.emit(indent, f"raise Error({ins[0] if ins else repr('Exception')})")
    elif kind == "prim::Print":
        w.emit(indent, f"print({', '.join(ins)})")
    elif kind == "prim::Expr":  # a Python expression over the inputs (script frontend)
        expr = node.attrs["expr"].format(*ins)
        if node.outputs:
            w.emit(indent, f"{_outputs(w, node)} = {expr}")
        else:
            w.emit(indent, expr)
    elif (
        node.target is not None and node.target.startswith("Tensor.") and node.attrs.get("property")
    ):
        w.emit(indent, f"{_outputs(w, node)} = {ins[0]}.{node.target[7:]}")
    elif node.target is not None:
        call = f"{w.callee(node)}({_call_args(w, node)})"
        w.emit(indent, f"{_outputs(w, node)} = {call}" if node.outputs else call)
    else:
        raise RuntimeError(f"the interpreter cannot run a node of kind {kind}")


def _emit_if(w: _Writer, node: _ir.Node, ins: list[str], indent: str) -> None:
    outs = [w.name(v) for v in node.outputs]
    w.emit(indent, f"if {ins[0]}:")
    for block in node.blocks:
        start = len(w.lines)
        _emit_block(w, block, indent + "    ")
        for out, value in zip(outs, block.outputs):
            w.emit(indent + "    ", f"{out} = {w.name(value)}")
        if len(w.lines) == start:
            w.emit(indent + "    ", "pass")
        if block is node.blocks[0]:
            w.emit(indent, "else:")


def _emit_loop(w: _Writer, node: _ir.Node, ins: list[str], indent: str) -> None:
    # inputs: trip count, initial condition, *carried; body params: iteration, *carried;
    # body outputs: condition, *carried
    body = node.blocks[0]
    trip, condition, carried = ins[0], ins[1], ins[2:]
    outs = [w.name(v) for v in node.outputs]
    params = [w.name(v) for v in body.inputs]
    for param, initial in zip(params[1:], carried):
        w.emit(indent, f"{param} = {initial}")
    cond = f"_cond{len(w.lines)}"
    w.emit(indent, f"{cond} = {condition}")
    w.emit(indent, f"{params[0]} = 0")
    w.emit(indent, f"while {cond} and {params[0]} < {trip}:")
    inner = indent + "    "
    _emit_block(w, body, inner)
    results = [w.name(v) for v in body.outputs]
    w.emit(inner, f"{cond} = {results[0]}")
    for param, result in zip(params[1:], results[1:]):
        w.emit(inner, f"{param} = {result}")
    w.emit(inner, f"{params[0]} += 1")
    for out, param in zip(outs, params[1:]):
        w.emit(indent, f"{out} = {param}")


def render(graph: _ir.Graph, name: str = "forward", readable: bool = False) -> tuple[str, dict]:
    """Python source of a function running ``graph``, and the globals it needs."""
    w = _Writer(readable)
    params = [w.name(v) for v in graph.inputs]
    if readable:
        params = [
            p if isinstance(v.type, _ir.ClassType) else f"{p}: {_annotation(v.type)}"
            for p, v in zip(params, graph.inputs)
        ]
    w.emit("", f"def {name}({', '.join(params)}):")
    start = len(w.lines)
    _emit_block(w, graph.block, "    ")
    outs = [w.name(v) for v in graph.outputs]
    if len(outs) == 1:
        w.emit("    ", f"return {outs[0]}")
    elif outs:
        w.emit("    ", f"return ({', '.join(outs)})")
    elif len(w.lines) == start:
        w.emit("    ", "return None")
    return "\n".join(w.lines) + "\n", w.globals


def _annotation(type_: _ir.Type) -> str:
    if isinstance(type_, _ir.TensorType):
        return "Tensor"
    if isinstance(type_, _ir.ListType):
        return f"List[{_annotation(type_.element)}]"
    if isinstance(type_, _ir.TupleType):
        return f"Tuple[{', '.join(_annotation(e) for e in type_.elements)}]"
    if isinstance(type_, _ir.OptionalType):
        return f"Optional[{_annotation(type_.element)}]"
    if isinstance(type_, _ir.DictType):
        return f"Dict[{_annotation(type_.key)}, {_annotation(type_.value)}]"
    return str(type_)


def compile_graph(graph: _ir.Graph, name: str = "forward"):
    """A Python function that runs ``graph`` (its parameters are the graph's inputs)."""
    source, namespace = render(graph, name)
    code = compile(source, f"<torch.jit graph {name}>", "exec")
    exec(code, namespace)  # noqa: S102 - source generated from the IR above
    function = namespace[name]
    function.__source__ = source
    return function
