"""The script compiler's calls: torch ops, Tensor and container methods, builtins, Python
functions (compiled in turn), ignored and unused functions."""

from __future__ import annotations

import ast
import builtins
import inspect
import math
import types

import torch
from torch import nn

from .. import _ir
from .._jit_internal import FunctionModifiers, get_modifier
from ._common import (
    _BUILTIN_RESULT_TYPES,
    _CONTAINER_METHODS,
    _MATH_FUNCTIONS,
    _MATH_RESULT_TYPES,
    _MUTATING,
    _TENSOR_NON_TENSOR,
    Static,
    _annotations,
    _element_type,
    _eval_annotation,
    _function_result_type,
    _static_truth,
    _target_of,
)
from .types import ir_type, is_tensor


def _call_template(name: str, count: int) -> str:
    """The expression calling ``name`` on ``count`` inputs: ``name({0}, {1}, ...)``."""
    return f"{name}(" + ", ".join(f"{{{i}}}" for i in range(count)) + ")"


class CallCompiler:
    """Methods of :class:`~torch.jit._frontend.compiler.FunctionCompiler` (a mixin)."""

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
            type_ = args[0].type if len(args) > 1 else _element_type(args[0].type)
            return self.expr_node(_call_template(obj.__name__, len(args)), args, type_, node)
        if obj is round:
            return self._round(node)
        if (
            getattr(math, getattr(obj, "__name__", ""), None) is obj
            and obj.__name__ in _MATH_FUNCTIONS
        ):
            args, _ = self.call_arguments(node)
            type_ = _MATH_RESULT_TYPES.get(obj.__name__, _ir.FLOAT)
            return self.expr_node(
                _call_template(f"math.{obj.__name__}", len(args)), args, type_, node
            )
        if obj is range:
            args, _ = self.call_arguments(node)
            template = _call_template("range", len(args))
            return self.expr_node(template, args, _ir.ListType(_ir.INT), node)
        name = getattr(obj, "__name__", None)
        if getattr(builtins, name or "", None) is obj and name in _BUILTIN_RESULT_TYPES:
            args, _ = self.call_arguments(node)
            type_ = _BUILTIN_RESULT_TYPES[name]
            if type_ is None:
                type_ = args[0].type if name == "abs" else _ir.ANY
            return self.expr_node(_call_template(name, len(args)), args, type_, node)
        if isinstance(obj, type) and issubclass(obj, tuple) and hasattr(obj, "_fields"):
            # a NamedTuple: built by its own class (TorchScript's NamedTuple construct)
            args, kwargs = self.call_arguments(node)
            call = self.emit_call("prim::PythonOp", (), args, kwargs, {"fn": obj}, node)
            return call.add_output(ir_type(obj))
        if isinstance(obj, type) and issubclass(obj, Exception):
            args, _ = self.call_arguments(node)
            return args[0] if args else self.constant(obj.__name__)
        target = _target_of(obj) or getattr(obj, "__jit_target__", None)
        if target is not None:
            args, kwargs = self.call_arguments(node)
            return self.op(target, args, kwargs, _function_result_type(target), node)
        if isinstance(obj, types.FunctionType):
            return self.function_call(node, obj)
        if isinstance(obj, nn.Module) and self.context is not None:
            return self.context.call_module(self, obj, node)
        if isinstance(obj, torch.jit.ScriptFunction):
            args, kwargs = self.call_arguments(node)
            call = self.emit_call("prim::CallFunction", (), args, kwargs, {"function": obj}, node)
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
        args, kwargs = self.call_arguments(node)
        ignored = self.ignored_call(node, fn, fn.__name__, (), args, kwargs)
        if ignored is not None:
            return ignored
        from .compile import script_function

        compiled = script_function(fn)
        call = self.emit_call("prim::CallFunction", (), args, kwargs, {"function": compiled}, node)
        return call.add_output(compiled.graph.outputs[0].type)

    def emit_call(self, kind: str, receiver, args, kwargs: dict, attrs, node) -> _ir.Node:
        """A call node reading ``receiver`` (empty or the owner), the positional and the
        keyword arguments, with the keywords' names in ``kwnames``."""
        call = self.emit(kind, [*receiver, *args, *kwargs.values()], attrs, node)
        if kwargs:
            call.attrs["kwnames"] = tuple(kwargs)
        return call

    def ignored_call(self, node, function, name: str, receiver, args, kwargs: dict):
        """The call of ``function`` if it is ``@torch.jit.unused`` (a raise) or ``ignore``d
        (a Python op); None for a function that is compiled."""
        modifier = get_modifier(function)
        if modifier in (FunctionModifiers.UNUSED, FunctionModifiers._DROP):
            message = self.constant(
                f"This Python function is annotated to be ignored and cannot be run: {name}"
            )
            self.emit("prim::RaiseException", [message], None, node)
            return self.constant(None)
        if modifier is FunctionModifiers.IGNORE:
            call = self.emit_call("prim::PythonOp", receiver, args, kwargs, {"fn": function}, node)
            return call.add_output(ir_type(_annotations(function).get("return")))
        return None

    def isinstance_call(self, node: ast.Call) -> _ir.Value:
        value = self.value(node.args[0])
        types_ = _eval_annotation(node.args[1], self.globals)
        wanted = types_ if isinstance(types_, tuple) else (types_,)
        known = value.type
        if isinstance(known, _ir.TensorType) and known.dtype is None:
            return self.constant(any(t is torch.Tensor for t in wanted))
        holder = self.constant(types_)
        return self.expr_node("torch.jit.isinstance({0}, {1})", [value, holder], _ir.BOOL, node)

    def _round(self, node: ast.Call):
        """TorchScript's ``round``: one int, float or Tensor argument; a number rounds
        half to even into a float (``aten::round.int``/``round.float``), a tensor through
        ``torch.round``."""
        args, _ = self.call_arguments(node)
        if len(args) != 1:
            raise RuntimeError(
                "\nArguments for call are not valid.\nThe following variants are available:\n"
                "  aten::round.int(int a) -> float, aten::round.float(float a) -> float, "
                f"aten::round(Tensor self) -> Tensor: one argument, not {len(args)}:\n"
                + self.range(node).highlight()
            )
        if is_tensor(args[0].type):
            return self.expr_node("torch.round({0})", args, _ir.TensorType(), node)
        template = "(torch.round({0}) if isinstance({0}, Tensor) else float(round({0})))"
        return self.expr_node(
            template, args, _ir.FLOAT if args[0].type != _ir.ANY else _ir.ANY, node
        )

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
        if name in ("keys", "values", "items"):  # lists in TorchScript, not views
            template = f"list({template})"
            out_type = _dict_view_type(owner.type, name)
        elif name in ("append", "extend", "insert", "clear", "reverse", "sort", "update", "remove"):
            out_type = _ir.NONE
        elif name in ("pop",) and isinstance(owner.type, _ir.ListType):
            out_type = owner.type.element
        result = self.expr_node(template, inputs, out_type, node, effect=name in _MUTATING)
        return result


# ---------------------------------------------------------------------- utilities


def _dict_view_type(owner: _ir.Type, name: str) -> _ir.Type:
    """The list type of ``d.keys()``, ``values()`` or ``items()`` of a dict of ``owner``."""
    if not isinstance(owner, _ir.DictType):
        return _ir.ListType(_ir.ANY)
    element = {
        "keys": owner.key,
        "values": owner.value,
        "items": _ir.TupleType((owner.key, owner.value)),
    }[name]
    return _ir.ListType(element)
