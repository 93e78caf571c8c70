"""The script compiler: the Python AST of one function -> a graph of :mod:`torch.jit._ir`.

The supported subset (see ``docs/packages/jit.md``): tensors, numbers, bool, str, None,
lists, tuples, dicts and ``Optional`` values; assignments (tuple unpacking, augmented
assignment, item assignment); ``if``/``else`` (and conditional expressions), ``for`` over
``range``, lists, tuples, tensors and ``nn.ModuleList``/``Sequential`` (unrolled),
``while``; ``return`` (early returns in ``if`` branches included), ``raise``,
``assert``, ``pass``; calls of ``torch``, ``torch.nn.functional``, ``torch.linalg``,
``torch.special`` and ``torch.fft`` functions, ``Tensor`` methods, the builtins ``len``,
``int``, ``float``, ``bool``, ``str``, ``min``, ``max``, ``abs``, ``round``, ``print``,
``isinstance``, ``range``, ``enumerate``, ``list``, ``tuple``, other Python functions
(compiled in turn), methods and submodules of a scripted module, ``torch.jit.annotate``,
``torch.jit.is_scripting`` (True here) and ``torch.jit.is_tracing``; ``with
torch.no_grad()`` / ``enable_grad()``; list comprehensions over the same iterables.

Ops become ``aten::`` nodes (so that passes and the ONNX exporter see them); Python
arithmetic on non-tensor values, container methods and other Python-level operations
become ``prim::Expr`` nodes holding a Python expression over their inputs, which the
interpreter runs as written. Anything else raises :class:`~torch.jit.frontend.NotSupportedError`
(or ``RuntimeError`` for an unknown method) pointing at the source.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

import torch

from .. import _ir
from ..frontend import NotSupportedError, SourceRange, UnsupportedNodeError
from ._common import (
    Static,
    _annotations,
    _kind_of,
    _node_description,
    _normalize_returns,
    _Return,
    _Scope,
    _strip_docstring,
)
from .calls import CallCompiler
from .expressions import ExpressionCompiler
from .jumps import desugar_jumps
from .statements import StatementCompiler
from .types import ir_type, type_of_python_value

__all__ = ["FunctionCompiler", "Static", "compile_function_graph"]


class FunctionCompiler(StatementCompiler, ExpressionCompiler, CallCompiler):
    """Compiles one Python function (or method, with ``module`` as its ``self``) into a
    graph. ``module_context`` resolves ``self.<name>`` and compiles called methods and
    submodules (see ``torch.jit._frontend.compile``)."""

    def __init__(self, fn, module_context=None, self_type: _ir.Type | None = None) -> None:
        self.fn = inspect.unwrap(fn)
        self.context = module_context
        try:
            lines, first_line = inspect.getsourcelines(self.fn)
        except (OSError, TypeError) as error:
            raise OSError(
                f"Can't get source for {self.fn}. TorchScript requires source access in order "
                "to carry out compilation, make sure original .py files are available."
            ) from error
        self.filename = inspect.getsourcefile(self.fn) or "<unknown>"
        self.lines = lines
        self.first_line = first_line
        dedented = textwrap.dedent("".join(lines))
        self.indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
        tree = ast.parse(dedented)
        definition = tree.body[0]
        if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
            raise NotSupportedError(
                None, f"expected a function definition, got {type(definition).__name__}"
            )
        self.definition = desugar_jumps(definition)  # break/continue become flags
        self.globals = dict(self.fn.__globals__)
        closure = inspect.getclosurevars(self.fn)
        self.globals.update(closure.nonlocals)
        self.graph = _ir.Graph()
        self.block = self.graph.block
        self.self_type = self_type
        self.self_value: _ir.Value | None = None
        self.self_module = None  # the nn.Module whose method this is (set by the caller)
        self.module_values: dict[_ir.Value, Any] = {}
        self.return_type: _ir.Type | None = None
        self.defaults: dict[str, Any] = {}

    # ------------------------------------------------------------------ helpers
    def range(self, node: ast.AST) -> SourceRange:
        return SourceRange.of(node, self.filename, self.lines, self.first_line, self.indent)

    def unsupported(self, node: ast.AST, what: str | None = None) -> NotSupportedError:
        if what is None:
            return UnsupportedNodeError(self.range(node), _node_description(node))
        return NotSupportedError(self.range(node), what)

    def emit(self, kind: str, inputs=(), attrs=None, node: ast.AST | None = None) -> _ir.Node:
        created = self.block.append(kind, inputs, attrs)
        if node is not None and hasattr(node, "lineno"):
            created.source = (
                f"{self.filename}:{self.first_line + node.lineno - 1}:{node.col_offset}"
            )
        return created

    def constant(self, value: Any) -> _ir.Value:
        return self.graph.constant(value, self.block)

    def expr_node(self, template: str, inputs, out_type=_ir.ANY, node=None, effect=False):
        created = self.emit("prim::Expr", inputs, {"expr": template}, node)
        if effect:
            created.attrs["effect"] = True
        if out_type is None:
            return None
        return created.add_output(out_type)

    def op(self, target: str, args, kwargs=None, out_type=None, node=None, output=True):
        kwargs = kwargs or {}
        created = self.emit(_kind_of(target), [*args, *kwargs.values()], None, node)
        created.target = target
        if kwargs:
            created.attrs["kwnames"] = tuple(kwargs)
        if not output:
            return None
        return created.add_output(out_type or _ir.TensorType())

    def as_value(self, item, node: ast.AST) -> _ir.Value:
        if isinstance(item, _ir.Value):
            return item
        obj = item.obj
        if isinstance(obj, (bool, int, float, str, type(None), torch.dtype, torch.device)):
            return self.constant(obj)
        if isinstance(obj, (tuple, list)) and all(
            isinstance(v, (bool, int, float, str, type(None))) for v in obj
        ):
            return self.constant(obj)
        if isinstance(obj, torch.Tensor):
            return self.constant(obj)
        raise self.unsupported(
            node, f"Python value of type '{type(obj).__name__}' cannot be used as a value"
        )

    # ------------------------------------------------------------------ entry
    def compile(self) -> _ir.Graph:
        definition = self.definition
        arguments = definition.args
        if arguments.vararg or arguments.kwarg or arguments.kwonlyargs:
            raise self.unsupported(
                definition,
                "Compiled functions can't take variable number of arguments or use "
                "keyword-only arguments with defaults",
            )
        hints = _annotations(self.fn)
        scope = _Scope()
        params = arguments.posonlyargs + arguments.args
        defaults = arguments.defaults
        first_default = len(params) - len(defaults)
        signature = inspect.signature(self.fn)
        for index, param in enumerate(params):
            if index == 0 and self.self_type is not None:
                value = self.graph.add_input(self.self_type, "self")
                self.self_value = value
                scope.vars[param.arg] = value
                continue
            type_ = ir_type(hints.get(param.arg))
            if index >= first_default and param.arg not in hints:
                default = signature.parameters[param.arg].default
                type_ = type_of_python_value(default) if default is not None else type_
            if index >= first_default:
                self.defaults[param.arg] = signature.parameters[param.arg].default
            scope.vars[param.arg] = self.graph.add_input(type_, param.arg)
        if "return" in hints:
            self.return_type = ir_type(hints["return"])
        self.scope = scope
        body = _normalize_returns(_strip_docstring(definition.body))
        try:
            self.statements(body)
            result = self.constant(None)
        except _Return as returned:
            result = returned.value
        self.graph.register_output(result)
        self.graph.defaults = self.defaults
        return self.graph

    # ------------------------------------------------------------------ statements


def compile_function_graph(fn, module_context=None, self_type=None) -> _ir.Graph:
    return FunctionCompiler(fn, module_context, self_type).compile()
