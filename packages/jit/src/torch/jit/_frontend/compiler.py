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
import builtins
import inspect
import sys
import textwrap
import types
from typing import Any

import torch
from torch import nn

from .. import _ir
from .._jit_internal import FunctionModifiers, get_modifier
from ..frontend import NotSupportedError, SourceRange, UnsupportedNodeError
from .types import ir_type, is_number, is_tensor, type_of_python_value

__all__ = ["FunctionCompiler", "Static", "compile_function_graph"]

_NAMESPACES = ("torch", "torch.nn.functional", "torch.linalg", "torch.special", "torch.fft")
_BINARY = {
    ast.Add: ("+", "__add__", "__radd__"),
    ast.Sub: ("-", "__sub__", "__rsub__"),
    ast.Mult: ("*", "__mul__", "__rmul__"),
    ast.Div: ("/", "__truediv__", "__rtruediv__"),
    ast.FloorDiv: ("//", "__floordiv__", "__rfloordiv__"),
    ast.Mod: ("%", "__mod__", "__rmod__"),
    ast.Pow: ("**", "__pow__", "__rpow__"),
    ast.MatMult: ("@", "__matmul__", "__rmatmul__"),
    ast.BitAnd: ("&", "__and__", "__rand__"),
    ast.BitOr: ("|", "__or__", "__ror__"),
    ast.BitXor: ("^", "__xor__", "__rxor__"),
    ast.LShift: ("<<", "__lshift__", "__rlshift__"),
    ast.RShift: (">>", "__rshift__", "__rrshift__"),
}
_COMPARE = {
    ast.Eq: ("==", "eq"),
    ast.NotEq: ("!=", "ne"),
    ast.Lt: ("<", "lt"),
    ast.LtE: ("<=", "le"),
    ast.Gt: (">", "gt"),
    ast.GtE: (">=", "ge"),
    ast.Is: ("is", None),
    ast.IsNot: ("is not", None),
    ast.In: ("in", None),
    ast.NotIn: ("not in", None),
}
# Tensor methods (and properties) whose result is not a tensor
_TENSOR_NON_TENSOR = {
    "size": None,
    "dim": _ir.INT,
    "numel": _ir.INT,
    "nelement": _ir.INT,
    "item": _ir.ANY,
    "tolist": _ir.ANY,
    "is_contiguous": _ir.BOOL,
    "is_floating_point": _ir.BOOL,
    "is_complex": _ir.BOOL,
    "element_size": _ir.INT,
    "stride": None,
    "get_device": _ir.INT,
    "__len__": _ir.INT,
}
_TENSOR_PROPERTIES = {
    "shape": _ir.ListType(_ir.INT),
    "dtype": _ir.DTYPE,
    "device": _ir.DEVICE,
    "ndim": _ir.INT,
    "requires_grad": _ir.BOOL,
    "is_cuda": _ir.BOOL,
    "T": _ir.TensorType(),
    "mT": _ir.TensorType(),
    "data": _ir.TensorType(),
    "grad": _ir.OptionalType(_ir.TensorType()),
    "real": _ir.TensorType(),
    "imag": _ir.TensorType(),
}
_CONTAINER_METHODS = {
    "append", "extend", "insert", "pop", "remove", "clear", "index", "count", "reverse",
    "sort", "copy", "keys", "values", "items", "get", "update", "setdefault", "format",
    "startswith", "endswith", "split", "join", "strip", "lower", "upper", "replace",
}  # fmt: skip
_MUTATING = {"append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort",
             "update", "setdefault"}  # fmt: skip
_BUILTIN_EXPRS = {
    "len": ("len({0})", _ir.INT),
    "int": ("int({0})", _ir.INT),
    "float": ("float({0})", _ir.FLOAT),
    "bool": ("bool({0})", _ir.BOOL),
    "str": ("str({0})", _ir.STR),
    "abs": ("abs({0})", None),
    "round": ("round({0})", None),
    "list": ("list({0})", None),
    "tuple": ("tuple({0})", None),
    "sum": ("sum({0})", None),
    "divmod": ("divmod({0}, {1})", None),
    "hash": ("hash({0})", _ir.INT),
    "ord": ("ord({0})", _ir.INT),
    "chr": ("chr({0})", _ir.STR),
    "sorted": ("sorted({0})", None),
    "all": ("all({0})", _ir.BOOL),
    "any": ("any({0})", _ir.BOOL),
}
_GRAD_MODES = {torch.no_grad: "no_grad", torch.enable_grad: "enable_grad"}


class Static:
    """A value known while compiling: a module, function, class, submodule, number..."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj


class _Scope:
    def __init__(self, parent: _Scope | None = None) -> None:
        self.parent = parent
        self.vars: dict[str, Any] = {}

    def lookup(self, name: str):
        scope = self
        while scope is not None:
            if name in scope.vars:
                return scope.vars[name]
            scope = scope.parent
        return None

    def assigned_here(self) -> dict[str, Any]:
        return self.vars


class _Return(Exception):  # noqa: N818 - control flow, not an error
    """Control flow of the compiler: a block ended with ``return value`` (or a raise)."""

    def __init__(self, value, raises: bool = False) -> None:
        self.value = value
        self.raises = raises


def _always_returns(statements: list[ast.stmt]) -> bool:
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    return False


def _normalize_returns(statements: list[ast.stmt]) -> list[ast.stmt]:
    """Move the statements after an ``if`` with a returning branch into its other branch,
    so that every ``return`` ends a block (``if c: return a`` / ``return b`` becomes
    ``if c: return a else: return b``)."""
    out: list[ast.stmt] = []
    for index, statement in enumerate(statements):
        if isinstance(statement, ast.If):
            statement.body = _normalize_returns(statement.body)
            statement.orelse = _normalize_returns(statement.orelse)
            rest = statements[index + 1 :]
            body_returns = _always_returns(statement.body)
            else_returns = _always_returns(statement.orelse)
            if rest and body_returns != else_returns:
                if body_returns:
                    statement.orelse = _normalize_returns(statement.orelse + rest)
                else:
                    statement.body = _normalize_returns(statement.body + rest)
                out.append(statement)
                return out
        out.append(statement)
        if isinstance(statement, (ast.Return, ast.Raise)):
            return out
    return out


def _assigned_names(statements: list[ast.stmt]) -> list[str]:
    names: list[str] = []
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                if node.id not in names:
                    names.append(node.id)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                if node.target.id not in names:
                    names.append(node.target.id)
    return names


_TARGETS: dict[int, str] = {}
_TARGETS_BUILT: set[str] = set()


def _target_of(obj: Any) -> str | None:
    """``"torch.add"``-style name of a public torch function (None when it is none)."""
    for namespace in _NAMESPACES:
        if namespace in _TARGETS_BUILT:
            continue
        module = sys.modules.get(namespace)
        if module is None:
            continue
        for name, value in list(vars(module).items()):
            if not name.startswith("_") and callable(value) and not isinstance(value, type):
                _TARGETS.setdefault(id(value), f"{namespace}.{name}")
        _TARGETS_BUILT.add(namespace)
    target = _TARGETS.get(id(obj))
    if target is not None:
        namespace, _, name = target.rpartition(".")
        if getattr(sys.modules.get(namespace), name, None) is obj:
            return target
    return None


class FunctionCompiler:
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
        self.definition = definition
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
    def statements(self, statements: list[ast.stmt]) -> None:
        for statement in statements:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        method = getattr(self, f"stmt_{type(node).__name__}", None)
        if method is None:
            raise self.unsupported(node)
        method(node)

    def stmt_Pass(self, node: ast.Pass) -> None:  # noqa: N802 - dispatch on AST class names
        return None

    def stmt_Expr(self, node: ast.Expr) -> None:  # noqa: N802
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a string statement (docstring)
        value = self.expr(node.value)
        if isinstance(value, _ir.Value) and value.node is not None:
            if value.node.kind == "prim::Expr":
                value.node.attrs["effect"] = True

    def stmt_Return(self, node: ast.Return) -> None:  # noqa: N802
        value = self.constant(None) if node.value is None else self.value(node.value)
        raise _Return(value)

    def stmt_Assign(self, node: ast.Assign) -> None:  # noqa: N802
        value = self.expr(node.value)
        for target in node.targets:
            self.assign(target, value, node)

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> None:  # noqa: N802
        if node.value is None:
            return
        value = self.value(node.value)
        annotation = _eval_annotation(node.annotation, self.globals)
        value.type = ir_type(annotation)
        self.assign(node.target, value, node)

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:  # noqa: N802
        target = node.target
        current = self.value(target)
        operand = self.value(node.value)
        symbol, method, _ = _BINARY[type(node.op)]
        if is_tensor(current.type) and isinstance(target, ast.Name):
            # an augmented assignment updates a tensor in place, as in TorchScript
            result = self.op(f"Tensor.__i{method[2:]}", [current, operand], node=node)
        else:
            result = self.binary(node, symbol, method, current, operand)
        self.assign(target, result, node)

    def assign(self, target: ast.expr, value, node: ast.AST) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, _ir.Value):
                if value.debug_name is None and value.node is not None:
                    value.set_debug_name(target.id)
            self.scope.vars[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            value = self.as_value(value, node)
            kind = "prim::TupleUnpack"
            unpack = self.emit(kind, [value], None, node)
            element_types = (
                value.type.elements
                if isinstance(value.type, _ir.TupleType)
                and len(value.type.elements) == len(target.elts)
                else [_element_type(value.type)] * len(target.elts)
            )
            for element, type_ in zip(target.elts, element_types):
                self.assign(element, unpack.add_output(type_), node)
        elif isinstance(target, ast.Subscript):
            container = self.value(target.value)
            index = self.index_value(target.slice)
            item = self.as_value(value, node)
            if is_tensor(container.type):
                self.op("Tensor.__setitem__", [container, index, item], node=node, output=False)
            else:
                self.expr_node("{0}[{1}] = {2}", [container, index, item], None, node, True)
        elif isinstance(target, ast.Attribute):
            owner = self.value(target.value)
            item = self.as_value(value, node)
            self.emit("prim::SetAttr", [owner, item], {"name": target.attr}, node)
        else:
            raise self.unsupported(target, f"assignment to {type(target).__name__}")

    def stmt_If(self, node: ast.If) -> None:  # noqa: N802
        condition = self.condition(node.test)
        static = _static_truth(condition)
        if static is not None:  # is_scripting(), constant flags: compile one branch
            self.statements(node.body if static else node.orelse)
            return
        refinements = self.refinements(node.test)
        self.branches(node, condition, node.body, node.orelse, refinements)

    def refinements(self, test: ast.expr):
        """Names whose Optional type a ``x is None`` / ``x is not None`` test narrows:
        (name, narrowed in the true branch?)."""
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Is, ast.IsNot))
            and isinstance(test.left, ast.Name)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ):
            return test.left.id, isinstance(test.ops[0], ast.IsNot)
        return None

    def branches(self, node, condition, body, orelse, refinement) -> None:
        outer_scope, outer_block = self.scope, self.block
        if_node = self.emit("prim::If", [condition], None, node)
        results = []
        for index, statements in enumerate((body, orelse)):
            block = if_node.add_block()
            self.block, self.scope = block, _Scope(outer_scope)
            if refinement is not None and (index == 0) == refinement[1]:
                self.narrow(refinement[0], node)
            try:
                self.statements(statements)
                results.append(("fall", self.scope.vars))
            except _Return as returned:
                results.append(("raise" if returned.raises else "return", returned.value))
        self.block, self.scope = outer_block, outer_scope
        kinds = [r[0] for r in results]
        if "fall" not in kinds:
            values = [r[1] for r in results]
            for block, value in zip(if_node.blocks, values):
                block.register_output(value)
            types_ = [v.type for v, k in zip(values, kinds) if k == "return"] or [_ir.NONE]
            out = if_node.add_output(types_[0] if len(types_) == 1 else _merge_types(*types_))
            raise _Return(out, raises=kinds == ["raise", "raise"])
        if "return" in kinds:
            raise self.unsupported(node, "a return in only one branch, with more code after it")
        if "raise" in kinds:  # the other branch's names are the ones that live on
            falling = results[kinds.index("fall")][1]
            names = [
                n for n in falling if not n.startswith("__") and not isinstance(falling[n], Static)
            ]
        else:
            names = _merged_names(results[0][1], results[1][1], outer_scope)
        for name in names:
            pair = []
            for block, (kind, assigned) in zip(if_node.blocks, results):
                value = None if kind == "raise" else assigned.get(name)
                if value is None:
                    value = outer_scope.lookup(name)
                self.block = block
                if value is None:  # never read: this branch raised
                    value = self.constant(None)
                value = self.as_value(value, node)
                block.register_output(value)
                pair.append(value)
            self.block = outer_block
            types_ = [v.type for v, (k, _) in zip(pair, results) if k != "raise"]
            out = if_node.add_output(types_[0] if len(types_) == 1 else _merge_types(*types_))
            out.set_debug_name(name)
            self.scope.vars[name] = out

    def narrow(self, name: str, node) -> None:
        value = self.scope.lookup(name)
        if isinstance(value, _ir.Value) and isinstance(value.type, _ir.OptionalType):
            narrowed = self.expr_node("{0}", [value], value.type.element, node)
            narrowed.node.kind = "prim::Expr"
            self.scope.vars[name] = narrowed

    def condition(self, test: ast.expr) -> _ir.Value:
        value = self.value(test)
        if value.type == _ir.BOOL:
            return value
        return self.expr_node("bool({0})", [value], _ir.BOOL, test)

    def stmt_While(self, node: ast.While) -> None:  # noqa: N802
        if node.orelse:
            raise self.unsupported(node, "else branches of while loops aren't supported")
        condition = self.condition(node.test)
        trip = self.constant(sys.maxsize)

        def body(_iteration):
            self.statements(node.body)
            return self.condition(node.test)

        self.loop(node, trip, condition, node.body, body)

    def stmt_For(self, node: ast.For) -> None:  # noqa: N802
        if node.orelse:
            raise self.unsupported(node, "else branches of for loops aren't supported")
        iterable = node.iter
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name):
            if iterable.func.id == "range" and self.lookup_static("range") is range:
                return self.for_range(node, iterable)
            if iterable.func.id == "enumerate" and self.lookup_static("enumerate") is enumerate:
                return self.for_enumerate(node, iterable)
        items = self.expr(iterable)
        if isinstance(items, _ir.Value) and isinstance(items.type, _ir.ClassType):
            items = Static(self.context.module_of(self, items))
        if isinstance(items, Static):
            return self.for_unrolled(node, items.obj)
        if isinstance(items.type, _ir.TupleType):
            return self.for_unrolled(node, None, items)
        trip = self.expr_node("len({0})", [items], _ir.INT, iterable)
        element = _element_type(items.type)

        def body(iteration):
            item = self.expr_node("{0}[{1}]", [items, iteration], element, node)
            self.assign(node.target, item, node)
            self.statements(node.body)
            return None

        self.loop(node, trip, self.constant(True), node.body, body, node.target)

    def for_range(self, node: ast.For, call: ast.Call) -> None:
        args = [self.value(a) for a in call.args]
        if len(args) == 1:
            trip, start, step = args[0], None, None
        else:
            start = args[0]
            step = args[2] if len(args) > 2 else self.constant(1)
            trip = self.expr_node(
                "len(range({0}, {1}, {2}))", [start, args[1], step], _ir.INT, call
            )

        def body(iteration):
            index = iteration
            if start is not None:
                index = self.expr_node("{0} + {1} * {2}", [start, iteration, step], _ir.INT, node)
            self.assign(node.target, index, node)
            self.statements(node.body)
            return None

        self.loop(node, trip, self.constant(True), node.body, body, node.target)

    def for_enumerate(self, node: ast.For, call: ast.Call) -> None:
        items = self.value(call.args[0])
        trip = self.expr_node("len({0})", [items], _ir.INT, call)
        element = _element_type(items.type)
        if not (isinstance(node.target, ast.Tuple) and len(node.target.elts) == 2):
            raise self.unsupported(node.target, "enumerate needs a target of two names")

        def body(iteration):
            self.assign(node.target.elts[0], iteration, node)
            item = self.expr_node("{0}[{1}]", [items, iteration], element, node)
            self.assign(node.target.elts[1], item, node)
            self.statements(node.body)
            return None

        self.loop(node, trip, self.constant(True), node.body, body, node.target)

    def for_unrolled(self, node: ast.For, objects, tuple_value=None) -> None:
        """A loop over a module list (or a tuple of known length): one copy of the body
        per element."""
        if tuple_value is not None:
            count = len(tuple_value.type.elements)
            unpack = self.emit("prim::TupleUnpack", [tuple_value], None, node)
            elements = [unpack.add_output(t) for t in tuple_value.type.elements]
        else:
            if not isinstance(objects, (nn.ModuleList, nn.Sequential, list, tuple)):
                raise self.unsupported(node.iter, f"iterating over a {type(objects).__name__}")
            elements = [Static(o) for o in objects]
            count = len(elements)
        for index in range(count):
            self.assign(node.target, elements[index], node)
            self.statements(node.body)

    def loop(self, node, trip, condition, statements, run_body, target=None) -> None:
        """Emit ``prim::Loop``: the names the body assigns that exist before it are
        carried through the iterations."""
        assigned = _assigned_names(statements)
        if target is not None:
            skip = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
            assigned = [a for a in assigned if a not in skip]
        carried = [n for n in assigned if isinstance(self.scope.lookup(n), _ir.Value)]
        initial = [self.scope.lookup(n) for n in carried]
        loop = self.emit("prim::Loop", [trip, condition, *initial], None, node)
        body = loop.add_block()
        outer_scope, outer_block = self.scope, self.block
        self.block, self.scope = body, _Scope(outer_scope)
        iteration = body.add_input(_ir.INT, "i")
        for name, value in zip(carried, initial):
            self.scope.vars[name] = body.add_input(value.type, name)
        try:
            next_condition = run_body(iteration)
        except _Return:
            raise self.unsupported(node, "return inside a loop isn't supported") from None
        body.register_output(next_condition if next_condition is not None else self.constant(True))
        for name in carried:
            body.register_output(self.as_value(self.scope.lookup(name), node))
        self.block, self.scope = outer_block, outer_scope
        for name, value in zip(carried, initial):
            out = loop.add_output(value.type)
            out.set_debug_name(name)
            self.scope.vars[name] = out

    def stmt_Raise(self, node: ast.Raise) -> None:  # noqa: N802
        message = "Exception"
        exc = node.exc
        if isinstance(exc, ast.Call) and exc.args:
            text = exc.args[0]
            message_value = self.value(text)
        else:
            message_value = self.constant(message)
        self.emit("prim::RaiseException", [message_value], None, node)
        raise _Return(self.constant(None), raises=True)

    def stmt_Assert(self, node: ast.Assert) -> None:  # noqa: N802
        condition = self.condition(node.test)
        message = self.value(node.msg) if node.msg is not None else self.constant("AssertionError")
        self.expr_node("assert {0}, {1}", [condition, message], None, node, effect=True)

    def stmt_With(self, node: ast.With) -> None:  # noqa: N802
        modes = []
        for item in node.items:
            context = item.context_expr
            if isinstance(context, ast.Call) and not context.args:
                found = self.static(context.func)
                if found is not None and found.obj in _GRAD_MODES:
                    modes.append(_GRAD_MODES[found.obj])
                    continue
            raise self.unsupported(
                node, "with statements other than torch.no_grad() / enable_grad() aren't supported"
            )
        saved = self.expr_node("torch.is_grad_enabled()", [], _ir.BOOL, node)
        for mode in modes:
            flag = "False" if mode == "no_grad" else "True"
            self.expr_node(f"torch.set_grad_enabled({flag})", [], None, node, effect=True)
        try:
            self.statements(node.body)
        finally:
            self.expr_node("torch.set_grad_enabled({0})", [saved], None, node, effect=True)

    # ------------------------------------------------------------------ expressions
    def value(self, node: ast.expr) -> _ir.Value:
        return self.as_value(self.expr(node), node)

    def expr(self, node: ast.expr):
        method = getattr(self, f"expr_{type(node).__name__}", None)
        if method is None:
            raise self.unsupported(node)
        return method(node)

    def lookup_static(self, name: str):
        if name in self.globals:
            return self.globals[name]
        return getattr(builtins, name, None)

    def static(self, node: ast.expr) -> Static | None:
        """The compile-time object an expression names (a module, function, constant),
        or None when it is a run-time value."""
        if isinstance(node, ast.Name):
            if self.scope.lookup(node.id) is not None:
                found = self.scope.lookup(node.id)
                return found if isinstance(found, Static) else None
            if node.id in self.globals or hasattr(builtins, node.id):
                return Static(self.lookup_static(node.id))
            return None
        if isinstance(node, ast.Attribute):
            owner = self.static(node.value)
            if owner is not None and hasattr(owner.obj, node.attr):
                return Static(getattr(owner.obj, node.attr))
        return None

    def expr_Constant(self, node: ast.Constant):  # noqa: N802
        return self.constant(node.value)

    def expr_Name(self, node: ast.Name):  # noqa: N802
        found = self.scope.lookup(node.id)
        if found is not None:
            return found
        if node.id in self.globals or hasattr(builtins, node.id):
            return Static(self.lookup_static(node.id))
        raise NotSupportedError(self.range(node), f"undefined value {node.id}")

    def expr_Attribute(self, node: ast.Attribute):  # noqa: N802
        owner = self.expr(node.value)
        if isinstance(owner, Static):
            obj = owner.obj
            if isinstance(obj, nn.Module):
                return self.context.module_attribute(self, obj, node)
            if not hasattr(obj, node.attr):
                raise NotSupportedError(self.range(node), f"unknown attribute {node.attr}")
            return Static(getattr(obj, node.attr))
        if owner is self.self_value and self.context is not None:
            return self.context.self_attribute(self, owner, node)
        if isinstance(owner.type, _ir.ClassType) and self.context is not None:
            return self.context.value_attribute(self, owner, node)
        if is_tensor(owner.type) or owner.type == _ir.ANY:
            if node.attr in _TENSOR_PROPERTIES:
                return self.expr_node(
                    f"{{0}}.{node.attr}", [owner], _TENSOR_PROPERTIES[node.attr], node
                )
            if not hasattr(torch.Tensor, node.attr):
                raise RuntimeError(
                    f"'Tensor (inferred)' object has no attribute or method '{node.attr}'.:\n"
                    + self.range(node).highlight()
                )
        return self.expr_node(f"{{0}}.{node.attr}", [owner], _ir.ANY, node)

    def expr_BinOp(self, node: ast.BinOp):  # noqa: N802
        left, right = self.value(node.left), self.value(node.right)
        symbol, method, _ = _BINARY[type(node.op)]
        return self.binary(node, symbol, method, left, right)

    def binary(self, node, symbol, method, left, right) -> _ir.Value:
        if is_tensor(left.type):
            return self.op(f"Tensor.{method}", [left, right], node=node)
        if is_tensor(right.type):
            reflected = "__r" + method[2:]
            return self.op(f"Tensor.{reflected}", [right, left], node=node)
        result_type = _ir.ANY
        if is_number(left.type) and is_number(right.type):
            result_type = (
                _ir.FLOAT if _ir.FLOAT in (left.type, right.type) or symbol in ("/",) else _ir.INT
            )
        elif left.type == _ir.STR and symbol == "+":
            result_type = _ir.STR
        elif isinstance(left.type, _ir.ListType) and symbol == "+":
            result_type = left.type
        return self.expr_node(f"({{0}} {symbol} {{1}})", [left, right], result_type, node)

    def expr_UnaryOp(self, node: ast.UnaryOp):  # noqa: N802
        operand = self.value(node.operand)
        if isinstance(node.op, ast.Not):
            return self.expr_node("(not {0})", [operand], _ir.BOOL, node)
        if is_tensor(operand.type):
            method = {ast.USub: "__neg__", ast.UAdd: "__pos__", ast.Invert: "__invert__"}
            return self.op(f"Tensor.{method[type(node.op)]}", [operand], node=node)
        symbol = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}[type(node.op)]
        return self.expr_node(f"({symbol}{{0}})", [operand], operand.type, node)

    def expr_BoolOp(self, node: ast.BoolOp):  # noqa: N802
        values = [self.value(v) for v in node.values]
        word = " and " if isinstance(node.op, ast.And) else " or "
        template = "(" + word.join(f"{{{i}}}" for i in range(len(values))) + ")"
        return self.expr_node(template, values, _ir.BOOL, node)

    def expr_Compare(self, node: ast.Compare):  # noqa: N802
        left = self.expr(node.left)
        results = []
        for op, comparator in zip(node.ops, node.comparators):
            right = self.expr(comparator)
            symbol, name = _COMPARE[type(op)]
            if symbol in ("is", "is not"):
                folded = _static_identity(left, right, symbol)
                if folded is not None:
                    results.append(self.constant(folded))
                    left = right
                    continue
            left_value, right_value = self.as_value(left, node), self.as_value(right, node)
            if name is not None and (is_tensor(left_value.type) or is_tensor(right_value.type)):
                if is_tensor(left_value.type):
                    results.append(
                        self.op(f"Tensor.__{name}__", [left_value, right_value], node=node)
                    )
                else:
                    flipped = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}.get(name, name)
                    results.append(
                        self.op(f"Tensor.__{flipped}__", [right_value, left_value], node=node)
                    )
            else:
                results.append(
                    self.expr_node(
                        f"({{0}} {symbol} {{1}})", [left_value, right_value], _ir.BOOL, node
                    )
                )
            left = right
        if len(results) == 1:
            return results[0]
        template = "(" + " and ".join(f"{{{i}}}" for i in range(len(results))) + ")"
        return self.expr_node(template, results, _ir.BOOL, node)

    def expr_IfExp(self, node: ast.IfExp):  # noqa: N802
        condition = self.condition(node.test)
        static = _static_truth(condition)
        if static is not None:
            return self.expr(node.body if static else node.orelse)
        if_node = self.emit("prim::If", [condition], None, node)
        outer = self.block
        values = []
        for expression in (node.body, node.orelse):
            self.block = if_node.add_block()
            value = self.value(expression)
            self.block.register_output(value)
            values.append(value)
        self.block = outer
        return if_node.add_output(_merge_types(values[0].type, values[1].type))

    def expr_Tuple(self, node: ast.Tuple):  # noqa: N802
        items = [self.value(e) for e in node.elts]
        created = self.emit("prim::TupleConstruct", items, None, node)
        return created.add_output(_ir.TupleType(v.type for v in items))

    def expr_List(self, node: ast.List):  # noqa: N802
        items = [self.value(e) for e in node.elts]
        created = self.emit("prim::ListConstruct", items, None, node)
        element = items[0].type if items else _ir.ANY
        return created.add_output(_ir.ListType(element))

    def expr_Dict(self, node: ast.Dict):  # noqa: N802
        items = []
        for key, value in zip(node.keys, node.values):
            if key is None:
                raise self.unsupported(node, "dict unpacking (**) isn't supported")
            items += [self.value(key), self.value(value)]
        created = self.emit("prim::DictConstruct", items, None, node)
        if items:
            return created.add_output(_ir.DictType(items[0].type, items[1].type))
        return created.add_output(_ir.DictType(_ir.STR, _ir.TensorType()))

    def expr_JoinedStr(self, node: ast.JoinedStr):  # noqa: N802
        """An f-string: a concatenation of ``str``/``repr``/``format`` of its parts."""
        parts, inputs = [], []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(repr(str(value.value)).replace("{", "{{").replace("}", "}}"))
                continue
            inputs.append(self.value(value.value))
            slot = "{" + str(len(inputs) - 1) + "}"
            if value.format_spec is not None:
                spec = value.format_spec
                if not all(isinstance(v, ast.Constant) for v in spec.values):
                    raise self.unsupported(value, "computed format specifications")
                text = "".join(str(v.value) for v in spec.values)
                parts.append(f"format({slot}, {text!r})".replace("{'", "{{'"))
            elif value.conversion == ord("r"):
                parts.append(f"repr({slot})")
            else:
                parts.append(f"str({slot})")
        template = "(" + " + ".join(parts or ["''"]) + ")"
        return self.expr_node(template, inputs, _ir.STR, node)

    def expr_ListComp(self, node: ast.ListComp):  # noqa: N802
        if len(node.generators) != 1 or node.generators[0].is_async:
            raise self.unsupported(node, "comprehensions with several loops aren't supported")
        generator = node.generators[0]
        result = self.expr_node("[]", [], _ir.ListType(_ir.ANY), node)
        call = ast.Call(
            func=ast.Attribute(value=ast.Name(id="__comprehension", ctx=ast.Load()),
                               attr="append", ctx=ast.Load()),
            args=[node.elt], keywords=[],
        )  # fmt: skip
        body: list[ast.stmt] = [ast.Expr(value=call)]
        for condition in reversed(generator.ifs):
            body = [ast.If(test=condition, body=body, orelse=[])]
        loop = ast.For(target=generator.target, iter=generator.iter, body=body, orelse=[])
        ast.copy_location(loop, node)
        for child in ast.walk(loop):
            if not hasattr(child, "lineno") or child.lineno is None:
                ast.copy_location(child, node)
        self.scope.vars["__comprehension"] = result
        self.stmt_For(loop)
        return self.scope.vars.pop("__comprehension")

    def expr_GeneratorExp(self, node: ast.GeneratorExp):  # noqa: N802
        """A generator expression, computed as a list (it is consumed at once: by
        ``tuple``, ``any``, ``all``, ``sum`` or tuple unpacking)."""
        listed = ast.ListComp(elt=node.elt, generators=node.generators)
        ast.copy_location(listed, node)
        return self.expr_ListComp(listed)

    def index_value(self, index: ast.expr) -> _ir.Value:
        if isinstance(index, ast.Slice):
            parts = [self.value(p) if p is not None else self.constant(None)
                     for p in (index.lower, index.upper, index.step)]  # fmt: skip
            return self.expr_node("slice({0}, {1}, {2})", parts, _ir.ANY, index)
        if isinstance(index, ast.Tuple):
            items = [self.index_value(e) for e in index.elts]
            created = self.emit("prim::TupleConstruct", items, None, index)
            return created.add_output(_ir.TupleType(v.type for v in items))
        return self.value(index)

    def expr_Subscript(self, node: ast.Subscript):  # noqa: N802
        container = self.expr(node.value)
        if isinstance(container, Static) and isinstance(
            container.obj, (nn.ModuleList, nn.Sequential)
        ):
            index = (
                self.static(node.slice)
                if not isinstance(node.slice, ast.Constant)
                else Static(node.slice.value)
            )
            if index is None:
                raise self.unsupported(node, "indexing a module list with a run-time value")
            return Static(container.obj[index.obj])
        container = self.as_value(container, node)
        index = self.index_value(node.slice)
        if is_tensor(container.type):
            return self.op("Tensor.__getitem__", [container, index], node=node)
        type_ = _element_type(container.type)
        if isinstance(container.type, _ir.TupleType) and index.node is not None:
            constant = (
                index.node.attrs.get("value") if index.node.kind == "prim::Constant" else None
            )
            if isinstance(constant, int) and -len(container.type.elements) <= constant < len(
                container.type.elements
            ):
                type_ = container.type.elements[constant]
        if isinstance(container.type, _ir.DictType):
            type_ = container.type.value
        if isinstance(node.slice, ast.Slice):
            type_ = container.type
        return self.expr_node("{0}[{1}]", [container, index], type_, node)

    # ------------------------------------------------------------------ calls
    def expr_Call(self, node: ast.Call):  # noqa: N802
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.unsupported(node, "keyword argument unpacking (**) isn't supported")
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.unsupported(arg, "argument unpacking (*) isn't supported")
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = self.expr(func.value)
            if isinstance(owner, _ir.Value):
                return self.method_call(node, owner, func.attr)
            if isinstance(owner.obj, nn.Module) and self.context is not None:
                member = getattr(owner.obj, func.attr, None)
                if inspect.ismethod(member):
                    return self.context.call_module_method(self, owner.obj, func.attr, node)
            callee = self.expr(func)
        else:
            callee = self.expr(func)
        if isinstance(callee, _ir.Value):
            if isinstance(callee.type, _ir.ClassType) and self.context is not None:
                return self.context.call_submodule_value(self, callee, node)
            raise self.unsupported(node, "calling a run-time value isn't supported")
        return self.static_call(node, callee.obj)

    def call_arguments(self, node: ast.Call):
        args = [self.value(a) for a in node.args]
        kwargs = {k.arg: self.value(k.value) for k in node.keywords}
        return args, kwargs

    def static_call(self, node: ast.Call, obj):
        if obj is torch.jit.annotate:
            annotation = _eval_annotation(node.args[0], self.globals)
            value = self.value(node.args[1])
            value.type = ir_type(annotation)
            return value
        if obj is torch.jit.is_scripting:
            return self.constant(True)
        if obj is torch.jit.is_tracing:
            return self.constant(False)
        if obj is torch.jit.isinstance or obj is isinstance:
            return self.isinstance_call(node)
        if obj is getattr and len(node.args) in (2, 3):
            return self.getattr_call(node)
        if obj is type and len(node.args) == 1:
            owner = self.expr(node.args[0])
            if isinstance(owner, _ir.Value) and isinstance(owner.type, _ir.ClassType):
                return Static(type(self.context.module_of(self, owner)))
            if isinstance(owner, Static):
                return Static(type(owner.obj))
        if obj is print:
            args, _ = self.call_arguments(node)
            self.emit("prim::Print", args, None, node)
            return self.constant(None)
        if obj in (min, max):
            args, _ = self.call_arguments(node)
            template = f"{obj.__name__}(" + ", ".join(f"{{{i}}}" for i in range(len(args))) + ")"
            type_ = args[0].type if len(args) > 1 else _element_type(args[0].type)
            return self.expr_node(template, args, type_, node)
        if obj is range:
            args, _ = self.call_arguments(node)
            template = "range(" + ", ".join(f"{{{i}}}" for i in range(len(args))) + ")"
            return self.expr_node(template, args, _ir.ListType(_ir.INT), node)
        name = getattr(obj, "__name__", None)
        if getattr(builtins, name or "", None) is obj and name in _BUILTIN_EXPRS:
            template, type_ = _BUILTIN_EXPRS[name]
            args, _ = self.call_arguments(node)
            if not args and name in ("list", "tuple"):
                return self.expr_node(f"{name}()", [], _ir.ANY, node)
            if type_ is None:
                type_ = args[0].type if name in ("abs",) else _ir.ANY
            return self.expr_node(template, args, type_, node)
        if isinstance(obj, type) and issubclass(obj, Exception):
            args, _ = self.call_arguments(node)
            return args[0] if args else self.constant(obj.__name__)
        target = _target_of(obj)
        if target is not None:
            args, kwargs = self.call_arguments(node)
            return self.op(target, args, kwargs, _function_result_type(target), node)
        if isinstance(obj, types.FunctionType):
            return self.function_call(node, obj)
        if isinstance(obj, nn.Module) and self.context is not None:
            return self.context.call_module(self, obj, node)
        if isinstance(obj, torch.jit.ScriptFunction):
            args, kwargs = self.call_arguments(node)
            call = self.emit(
                "prim::CallFunction", [*args, *kwargs.values()], {"function": obj}, node
            )
            if kwargs:
                call.attrs["kwnames"] = tuple(kwargs)
            return call.add_output(obj.graph.outputs[0].type)
        raise self.unsupported(
            node, f"Python builtin {obj!r} is currently not supported in TorchScript"
        )

    def getattr_call(self, node: ast.Call):
        """``getattr(x, name[, default])`` with a name known while compiling: ``x.name``."""
        name = self.expr(node.args[1])
        if isinstance(name, _ir.Value) and _static_truth(name) is None:
            constant = name.node.attrs.get("value") if name.node is not None else None
            name = Static(constant) if isinstance(constant, str) else name
        elif isinstance(name, _ir.Value):
            name = Static(name.node.attrs.get("value"))
        if not isinstance(name, Static) or not isinstance(name.obj, str):
            raise self.unsupported(node, "getattr with a name computed at run time")
        attribute = ast.Attribute(value=node.args[0], attr=name.obj, ctx=ast.Load())
        ast.copy_location(attribute, node)
        if len(node.args) == 3:
            owner = self.static(node.args[0])
            if owner is not None and not hasattr(owner.obj, name.obj):
                return self.expr(node.args[2])
        return self.expr(attribute)

    def function_call(self, node: ast.Call, fn) -> _ir.Value:
        modifier = get_modifier(fn)
        args, kwargs = self.call_arguments(node)
        if modifier in (FunctionModifiers.UNUSED, FunctionModifiers._DROP):
            message = self.constant(
                f"This Python function is annotated to be ignored and cannot be run: {fn.__name__}"
            )
            self.emit("prim::RaiseException", [message], None, node)
            return self.constant(None)
        if modifier is FunctionModifiers.IGNORE:
            call = self.emit("prim::PythonOp", [*args, *kwargs.values()], {"fn": fn}, node)
            if kwargs:
                call.attrs["kwnames"] = tuple(kwargs)
            return call.add_output(ir_type(_annotations(fn).get("return")))
        from .compile import script_function

        compiled = script_function(fn)
        call = self.emit(
            "prim::CallFunction", [*args, *kwargs.values()], {"function": compiled}, node
        )
        if kwargs:
            call.attrs["kwnames"] = tuple(kwargs)
        return call.add_output(compiled.graph.outputs[0].type)

    def isinstance_call(self, node: ast.Call) -> _ir.Value:
        value = self.value(node.args[0])
        types_ = _eval_annotation(node.args[1], self.globals)
        wanted = types_ if isinstance(types_, tuple) else (types_,)
        known = value.type
        if isinstance(known, _ir.TensorType) and known.dtype is None:
            return self.constant(any(t is torch.Tensor for t in wanted))
        holder = self.constant(types_)
        return self.expr_node("torch.jit.isinstance({0}, {1})", [value, holder], _ir.BOOL, node)

    def method_call(self, node: ast.Call, owner: _ir.Value, name: str):
        if owner is self.self_value and self.context is not None:
            return self.context.call_self_method(self, owner, name, node)
        if isinstance(owner.type, _ir.ClassType) and self.context is not None:
            return self.context.call_value_method(self, owner, name, node)
        args, kwargs = self.call_arguments(node)
        if is_tensor(owner.type) or (owner.type == _ir.ANY and name not in _CONTAINER_METHODS):
            if not hasattr(torch.Tensor, name):
                raise RuntimeError(
                    f"'Tensor (inferred)' object has no attribute or method '{name}'.:\n"
                    + self.range(node.func).highlight()
                )
            out_type = _TENSOR_NON_TENSOR.get(name, _ir.TensorType())
            if name in ("size", "stride"):
                out_type = _ir.INT if args else _ir.ListType(_ir.INT)
            return self.op(f"Tensor.{name}", [owner, *args], kwargs, out_type, node)
        inputs = [owner, *args, *kwargs.values()]
        parts = [f"{{{i + 1}}}" for i in range(len(args))]
        parts += [f"{k}={{{len(args) + 1 + i}}}" for i, k in enumerate(kwargs)]
        template = f"{{0}}.{name}({', '.join(parts)})"
        out_type = _ir.ANY
        if name in ("append", "extend", "insert", "clear", "reverse", "sort", "update", "remove"):
            out_type = _ir.NONE
        elif name in ("pop",) and isinstance(owner.type, _ir.ListType):
            out_type = owner.type.element
        result = self.expr_node(template, inputs, out_type, node, effect=name in _MUTATING)
        return result


# ---------------------------------------------------------------------- utilities


def _kind_of(target: str) -> str:
    from .._trace import _op_kind

    return _op_kind(target)


def _strip_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        if isinstance(body[0].value.value, str):
            return body[1:]
    return body


def _annotations(fn) -> dict:
    try:
        return dict(typing_get_type_hints(fn))
    except Exception:  # noqa: BLE001 - unresolvable hints: read them raw
        return dict(getattr(fn, "__annotations__", {}))


def typing_get_type_hints(fn):
    import typing

    return typing.get_type_hints(fn)


def _eval_annotation(node: ast.expr, namespace: dict):
    source = ast.unparse(node)
    try:
        return eval(source, dict(namespace), {})  # noqa: S307 - an annotation of the user's code
    except Exception:  # noqa: BLE001
        return source


def _element_type(type_: _ir.Type) -> _ir.Type:
    if isinstance(type_, _ir.ListType):
        return type_.element
    if isinstance(type_, _ir.TensorType):
        return _ir.TensorType()
    if isinstance(type_, _ir.TupleType) and type_.elements:
        first = type_.elements[0]
        return first if all(e == first for e in type_.elements) else _ir.ANY
    return _ir.ANY


def _merge_types(first: _ir.Type, second: _ir.Type) -> _ir.Type:
    if first == second:
        return first
    if is_tensor(first) and is_tensor(second):
        return _ir.TensorType()
    if first == _ir.NONE:
        return _ir.OptionalType(second)
    if second == _ir.NONE:
        return _ir.OptionalType(first)
    if is_number(first) and is_number(second):
        return _ir.FLOAT if _ir.FLOAT in (first, second) else _ir.INT
    return _ir.ANY


def _merged_names(first: dict, second: dict, outer: _Scope) -> list[str]:
    names = []
    for name in list(first) + list(second):
        if name in names or name.startswith("__"):
            continue
        in_both = name in first and name in second
        if in_both or outer.lookup(name) is not None:
            if isinstance(first.get(name, outer.lookup(name)), Static) or isinstance(
                second.get(name, outer.lookup(name)), Static
            ):
                continue
            names.append(name)
    return names


def _static_truth(value: _ir.Value):
    node = value.node
    if node is not None and node.kind == "prim::Constant":
        constant = node.attrs.get("value")
        if isinstance(constant, (bool, int, type(None))):
            return bool(constant)
    return None


def _static_identity(left, right, symbol: str):
    """``x is None`` decided while compiling when a side's type says so."""

    def is_none(item):
        if isinstance(item, Static):
            return item.obj is None
        if item.node is not None and item.node.kind == "prim::Constant":
            return item.node.attrs.get("value") is None
        return False

    def never_none(item):
        if isinstance(item, Static):
            return item.obj is not None
        return not isinstance(item.type, _ir.OptionalType) and item.type not in (_ir.NONE, _ir.ANY)

    if is_none(right) or is_none(left):
        other = left if is_none(right) else right
        if is_none(other):
            result = True
        elif never_none(other):
            result = False
        else:
            return None
        return result if symbol == "is" else not result
    return None


def _function_result_type(target: str) -> _ir.Type:
    name = target.rpartition(".")[2]
    if name in ("is_tensor", "is_floating_point", "is_complex", "is_grad_enabled", "equal",
                "allclose", "is_nonzero"):  # fmt: skip
        return _ir.BOOL
    if name in ("numel",):
        return _ir.INT
    if name in ("max", "min", "sort", "topk", "split", "chunk", "unbind", "broadcast_tensors",
                "meshgrid", "lstm", "gru", "max_pool2d_with_indices", "median", "mode",
                "kthvalue", "std_mean", "var_mean", "aminmax", "frexp", "slogdet", "qr",
                "svd", "eig", "eigh", "lu", "tensor_split", "hsplit", "vsplit", "dsplit",
                "unique", "where"):  # fmt: skip
        return _ir.ANY
    return _ir.TensorType()


def _node_description(node: ast.AST) -> str:
    names = {
        "Try": "try blocks",
        "With": "with statements",
        "Lambda": "Lambda",
        "GeneratorExp": "generator expressions",
        "SetComp": "set comprehensions",
        "DictComp": "dict comprehensions",
        "Set": "set literals",
        "Yield": "yield",
        "Global": "global variables",
        "Nonlocal": "nonlocal variables",
        "Delete": "del statements",
        "ClassDef": "class definitions",
        "FunctionDef": "function definitions",
        "Import": "import statements",
        "ImportFrom": "import statements",
        "Starred": "starred expressions",
        "Await": "await",
        "AsyncFunctionDef": "async function definitions",
        "NamedExpr": "assignment expressions",
        "Break": "break statements",
        "Continue": "continue statements",
    }
    return names.get(type(node).__name__, f"{type(node).__name__} nodes")


def compile_function_graph(fn, module_context=None, self_type=None) -> _ir.Graph:
    return FunctionCompiler(fn, module_context, self_type).compile()
