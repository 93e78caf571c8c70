"""``torch.jit.trace``: run a function or module once and record the ops it calls.

The tracer routes every op binding through core's interception hook
(``torch._interface.tracing``) and records the outermost op call of each computation as a
node of a :class:`~torch.jit._ir.Graph`: its tensor arguments become the values that
produced them, everything else constants. Parameters and buffers of a traced module are
read with ``prim::GetAttr``; a submodule call is one ``prim::CallMethod`` node and the
submodule gets a trace of its own (on the inputs of its first call). Python control flow
and conversions of tensors to Python values cannot be recorded: the tracer warns with
:class:`TracerWarning`, as PyTorch does, and the trace keeps the branch taken.
"""

from __future__ import annotations

import inspect
import os
import sys
import warnings
from typing import Any

import torch
from torch import nn
from torch._interface import tracing as _tracing

from . import _ir, _state
from ._exceptions import TracerWarning, TracingCheckError
from ._nested import contains, leaves
from ._program import RecursiveScriptModule, ScriptFunction, ScriptModule
from ._trace_sizes import TracedInt, traced_size

__all__ = [
    "trace",
    "trace_module",
    "TracedModule",
    "TopLevelTracedModule",
    "TracerWarning",
    "TracingCheckError",
]


_CONVERSION_WARNINGS = {
    "Tensor.__bool__": "a Python boolean",
    "Tensor.item": "a Python number",
    "Tensor.__float__": "a Python float",
    "Tensor.__int__": "a Python integer",
    "Tensor.__index__": "a Python index",
    "Tensor.tolist": "a Python list",
    "Tensor.numpy": "a NumPy array",
    "Tensor.__complex__": "a Python complex",
}
_CONVERSION_MESSAGE = (
    "Converting a tensor to {what} might cause the trace to be incorrect. We can't record "
    "the data flow of Python values, so this value will be treated as a constant in the "
    "future. This means that the trace might not generalize to other inputs!"
)
_ITERATION_MESSAGE = (
    "Iterating over a tensor might cause the trace to be incorrect. Passing a tensor of "
    "different shape won't change the number of iterations executed (and might lead to "
    "errors or silently give incorrect results)."
)
_LIST_OUTPUT_MESSAGE = (
    "Encountering a list at the output of the tracer might cause the trace to be incorrect, "
    "this is only valid if the container structure does not change based on the module's "
    "inputs. Consider using a constant container instead (e.g. for `list`, use a `tuple` "
    "instead. for `dict`, use a `NamedTuple` instead). If you absolutely need this and "
    "know the side effects, pass strict=False to trace() to allow this behavior."
)
_DICT_OUTPUT_MESSAGE = _LIST_OUTPUT_MESSAGE.replace("a list at", "a dict at")

# Op names that differ from the binding's name (operators and properties)
_OPERATOR_NAMES = {
    "truediv": "div",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
    "invert": "bitwise_not",
    "getitem": "__getitem__",
    "setitem": "__setitem__",
}
_REFLECTED = {"r" + n for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
                                 "matmul", "and", "or", "xor", "lshift", "rshift")}  # fmt: skip
_COMMUTATIVE = {"add", "mul", "bitwise_and", "bitwise_or", "bitwise_xor"}
_IN_PLACE_OPERATORS = {"add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or",
                       "xor", "lshift", "rshift", "matmul"}  # fmt: skip
_PROPERTY_NAMES = {"T": "numpy_T", "mT": "mT", "H": "adjoint", "mH": "mH", "data": "detach"}

#: source folders of torch's own packages: frames there are not the user's source
_TORCH_DIRS = tuple(os.path.dirname(os.path.abspath(p)) + os.sep for p in torch.__path__)


def _op_kind(target: str) -> str:
    """``aten::<name>`` for a binding target (``Tensor.__add__`` -> ``aten::add``)."""
    name = target.rpartition(".")[2]
    if target.startswith("Tensor.") and name in _PROPERTY_NAMES:
        return f"aten::{_PROPERTY_NAMES[name]}"
    if name.startswith("__") and name.endswith("__"):
        inner = name[2:-2]
        if inner in _REFLECTED:
            # ``2 + x`` is ``add(x, 2)``; ``2 - x`` is ``rsub(x, 2)`` (= 2 - x)
            op = _OPERATOR_NAMES.get(inner[1:], inner[1:])
            return f"aten::{op}" if op in _COMMUTATIVE else f"aten::r{op}"
        if inner.startswith("i") and inner[1:] in _IN_PLACE_OPERATORS:
            return f"aten::{_OPERATOR_NAMES.get(inner[1:], inner[1:])}_"
        return f"aten::{_OPERATOR_NAMES.get(inner, inner)}"
    return f"aten::{name}"


def _user_source() -> str | None:
    frame = sys._getframe(3)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_TORCH_DIRS) or "/tests/" in filename:
            return f"{filename}:{frame.f_lineno}:0"
        frame = frame.f_back
    return None


def _contains_traced_int(value: Any) -> bool:
    if type(value) is TracedInt:
        return True
    if isinstance(value, (list, tuple)):
        return any(_contains_traced_int(v) for v in value)
    if isinstance(value, slice):
        return any(type(v) is TracedInt for v in (value.start, value.stop, value.step))
    return False


class _Tracer:
    """The state of one trace: the graph, which value each live tensor is, the module
    tree for ``GetAttr``, and the submodule calls seen."""

    def __init__(self, root: nn.Module | None, self_value: _ir.Value | None, graph: _ir.Graph):
        self.graph = graph
        self.values: dict[int, _ir.Value] = {}
        self.alive: list[Any] = []  # keeps traced objects alive: ids stay unique
        self.depth = 0
        self.root = root
        self.self_value = self_value
        self.module_values: dict[str, _ir.Value] = {}
        self.attribute_paths: dict[int, tuple[str, str]] = {}  # id -> (module path, name)
        self.submodule_calls: dict[str, tuple[tuple, dict]] = {}
        self.scope: list[str] = []
        #: targets recorded through: their inner op calls are recorded instead of them
        self.transparent: frozenset[str] = frozenset()
        if root is not None:
            for path, module in root.named_modules():
                for name, tensor in (*module._parameters.items(), *module._buffers.items()):
                    if tensor is not None:
                        self.attribute_paths.setdefault(id(tensor), (path, name))

    # -- values
    def bind(self, obj: Any, value: _ir.Value) -> None:
        self.values[id(obj)] = value
        self.alive.append(obj)

    def module_value(self, path: str) -> _ir.Value:
        if path == "":
            return self.self_value
        found = self.module_values.get(path)
        if found is None:
            parent, _, name = path.rpartition(".")
            owner = self.module_value(parent)
            module = self.root.get_submodule(path)
            node = self.graph.append("prim::GetAttr", [owner], {"name": name})
            found = node.add_output(_ir.ClassType(_type_name(module))).set_debug_name(name)
            self.module_values[path] = found
        return found

    def value_of(self, obj: Any) -> _ir.Value:
        if type(obj) is TracedInt and obj._tracer is self:
            return obj._value
        if isinstance(obj, torch.Tensor):
            found = self.values.get(id(obj))
            if found is not None:
                return found
            attribute = self.attribute_paths.get(id(obj))
            if attribute is not None:
                path, name = attribute
                owner = self.module_value(path)
                node = self.graph.append("prim::GetAttr", [owner], {"name": name})
                value = node.add_output(_ir.TensorType()).set_debug_name(name)
                self.bind(obj, value)
                return value
            return self.graph.constant(obj)
        if isinstance(obj, (list, tuple)) and (
            contains(obj, torch.Tensor) or _contains_traced_int(obj)
        ):
            kind = "prim::ListConstruct" if isinstance(obj, list) else "prim::TupleConstruct"
            items = [self.value_of(v) for v in obj]
            node = self.graph.append(kind, items)
            if isinstance(obj, list):
                element = _ir.TensorType() if contains(obj, torch.Tensor) else _ir.INT
                return node.add_output(_ir.ListType(element))
            return node.add_output(_ir.TupleType(v.type for v in items))
        if isinstance(obj, slice) and _contains_traced_int(obj):
            # bounds computed from sizes (``x[: x.size(0) - 1]``) follow the input's sizes
            bounds = [self.value_of(v) for v in (obj.start, obj.stop, obj.step)]
            node = self.graph.append("prim::SliceConstruct", bounds)
            node.target = "builtins.slice"
            return node.add_output(_ir.ANY)
        if isinstance(obj, dict) and contains(obj, torch.Tensor):
            items = []
            for key, item in obj.items():
                items += [self.value_of(key), self.value_of(item)]
            node = self.graph.append("prim::DictConstruct", items)
            return node.add_output(_ir.type_of(obj))
        if isinstance(obj, nn.Module) and self.root is not None:
            for path, module in self.root.named_modules():
                if module is obj:
                    return self.module_value(path)
        return self.graph.constant(obj)

    # -- the interception handler
    def handle(self, target: str, original, args: tuple, kwargs: dict):
        if self.depth or target in self.transparent:
            return original(*args, **kwargs)
        what = _CONVERSION_WARNINGS.get(target)
        if what is not None:
            warnings.warn(_CONVERSION_MESSAGE.format(what=what), TracerWarning, stacklevel=3)
            return self._untraced(original, args, kwargs)
        if target == "Tensor.__iter__":
            return self._iterate(args[0])
        if target in ("Tensor.size", "Tensor.shape"):
            return self._size(original, args, kwargs)
        self.depth += 1
        try:
            result = original(*args, **kwargs)
        finally:
            self.depth -= 1
        if contains(result, torch.Tensor):
            self.record(target, original, args, kwargs, result)
        return result

    def _size(self, original, args, kwargs):
        """``x.size(d)`` / ``x.size()`` / ``x.shape`` of a traced tensor: recorded ints."""
        result = self._untraced(original, args, kwargs)
        value = self.values.get(id(args[0]))
        if value is None:
            return result  # a constant tensor: its sizes are constants too
        if isinstance(result, int):
            dim = args[1] if len(args) > 1 else kwargs.get("dim")
            return traced_size(self, result, value, int(dim))
        return torch.Size(traced_size(self, n, value, d) for d, n in enumerate(result))

    def _untraced(self, original, args, kwargs):
        self.depth += 1
        try:
            return original(*args, **kwargs)
        finally:
            self.depth -= 1

    def _iterate(self, tensor):
        warnings.warn(_ITERATION_MESSAGE, TracerWarning, stacklevel=4)
        return iter(tensor.unbind(0))

    def record(self, target: str, original, args, kwargs, result) -> None:
        inputs = [self.value_of(a) for a in args]
        kwnames = tuple(kwargs)
        inputs += [self.value_of(v) for v in kwargs.values()]
        node = self.graph.append(_op_kind(target), inputs)
        node.target = target
        if kwnames:
            node.attrs["kwnames"] = kwnames
        if target.startswith("Tensor.") and target[7:] in _tracing.TENSOR_PROPERTIES:
            node.attrs["property"] = True
        node.source = _user_source()
        if self.scope:
            node.scope = self.scope[-1]
        self._bind_outputs(node, result)

    def _bind_outputs(self, node: _ir.Node, result) -> None:
        if isinstance(result, (tuple, list)) and not isinstance(result, torch.Size):
            node.attrs["returns"] = "list" if isinstance(result, list) else "tuple"
            for item in result:
                value = node.add_output(_ir.type_of(item))
                if isinstance(item, torch.Tensor):
                    self.bind(item, value)
            self.alive.append(result)
        else:
            self.bind(result, node.add_output(_ir.type_of(result)))

    def call_function(self, function, run, args):
        """A :class:`ScriptFunction` called from traced code: one ``prim::CallFunction``."""
        self.depth += 1
        try:
            result = run(*args)
        finally:
            self.depth -= 1
        node = self.graph.append("prim::CallFunction", [self.value_of(a) for a in args])
        node.attrs["function"] = function
        node.source = _user_source()
        self._bind_call_outputs(node, result)
        return result

    # -- submodules
    def call_submodule(self, path: str, forward, args, kwargs):
        if self.depth:
            return forward(*args, **kwargs)
        self.scope.append(f"__module.{path}")
        self.depth += 1
        try:
            result = forward(*args, **kwargs)
        finally:
            self.depth -= 1
            self.scope.pop()
        self.submodule_calls.setdefault(path, (args, dict(kwargs)))
        inputs = [self.module_value(path)]
        inputs += [self.value_of(a) for a in args]
        inputs += [self.value_of(v) for v in kwargs.values()]
        node = self.graph.append("prim::CallMethod", inputs, {"name": "forward"})
        if kwargs:
            node.attrs["kwnames"] = tuple(kwargs)
        self._bind_call_outputs(node, result)
        return result

    def _bind_call_outputs(self, node: _ir.Node, result) -> None:
        tensor = isinstance(result, torch.Tensor)
        value = node.add_output(_ir.TensorType() if tensor else _ir.type_of(result))
        self._bind_structure(value, result)

    def _bind_structure(self, value: _ir.Value, result) -> None:
        """Bind the tensors in ``result`` (nested tuples and lists) to ``value`` and the
        unpacked elements of it."""
        if isinstance(result, torch.Tensor):
            self.bind(result, value)
        elif isinstance(result, (tuple, list)) and contains(result, torch.Tensor):
            kind = "prim::TupleUnpack" if isinstance(result, tuple) else "prim::ListUnpack"
            unpack = self.graph.append(kind, [value])
            for item in result:
                self._bind_structure(unpack.add_output(_ir.type_of(item)), item)
            self.alive.append(result)

    # -- outputs
    def output_value(self, result, strict: bool) -> _ir.Value:
        if strict and isinstance(result, list):
            raise RuntimeError(_LIST_OUTPUT_MESSAGE)
        if strict and isinstance(result, dict):
            raise RuntimeError(_DICT_OUTPUT_MESSAGE)
        value = self.value_of(result)
        if isinstance(result, torch.Tensor) and value.node is not None:
            if value.node.kind == "prim::Constant":
                warnings.warn(
                    "Output of the traced function is a tensor the trace did not compute "
                    "from its inputs: it will be a constant",
                    TracerWarning,
                    stacklevel=4,
                )
        return value


def _type_name(module: nn.Module) -> str:
    cls = type(module)
    if isinstance(module, ScriptModule):
        return module._type_name
    if cls.__module__ == "__main__":
        return f"__torch__.{cls.__qualname__}"
    return f"__torch__.{cls.__module__}.{cls.__qualname__}"


def _as_tuple(example_inputs) -> tuple:
    if isinstance(example_inputs, tuple):
        return example_inputs
    return (example_inputs,)


def _parameter_names(fn, count: int, skip_self: bool) -> list[str]:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if skip_self and names and names[0] == "self":
        names = names[1:]
    names += [f"input_{i}" for i in range(len(names), count)]
    return names[:count]


def _add_input(tracer: _Tracer, graph: _ir.Graph, name: str, example) -> None:
    value = graph.add_input(_ir.type_of(example), name)
    _bind_input(tracer, graph, value, example)


def _bind_input(tracer: _Tracer, graph: _ir.Graph, value: _ir.Value, example) -> None:
    if isinstance(example, torch.Tensor):
        tracer.bind(example, value)
    elif isinstance(example, (tuple, list)) and contains(example, torch.Tensor):
        kind = "prim::TupleUnpack" if isinstance(example, tuple) else "prim::ListUnpack"
        node = graph.append(kind, [value])
        for item in example:
            _bind_input(tracer, graph, node.add_output(_ir.type_of(item)), item)
    elif isinstance(example, dict):
        raise RuntimeError("tracing dict inputs is not supported; pass tensors or tuples")


def _run_traced(tracer: _Tracer, fn, args, kwargs, submodules: dict[str, nn.Module]):
    """Run ``fn`` with every op and every submodule call routed through ``tracer``."""
    patched = []
    for path, module in submodules.items():
        original = module.forward

        def forward(*a, _path=path, _original=original, **k):
            return tracer.call_submodule(_path, _original, a, k)

        module.forward = forward
        patched.append(module)
    interception = _tracing.start(tracer.handle, ("torch.nn.functional",), sizes=True)
    _state.tracing.tracer = tracer
    try:
        return fn(*args, **kwargs)
    finally:
        _state.tracing.tracer = None
        interception.stop()
        for module in patched:
            del module.forward


def _trace_graph(fn, args: tuple, module: nn.Module | None, strict: bool, kwargs=None,
                 self_name: str = "self", transparent=frozenset()):  # fmt: skip
    """Trace ``fn(*args)`` (``module.forward`` when ``module`` is given) into a graph;
    returns the graph, the tracer and the result of the traced run."""
    graph = _ir.Graph()
    self_value = None
    if module is not None:
        self_value = graph.add_input(_ir.ClassType(_type_name(module)), self_name)
    tracer = _Tracer(module, self_value, graph)
    tracer.transparent = frozenset(transparent)
    kwargs = dict(kwargs or {})
    names = _parameter_names(fn, len(args), skip_self=False)
    for name, example in zip(names, args):
        _add_input(tracer, graph, name, example)
    for name, example in kwargs.items():
        _add_input(tracer, graph, name, example)
    submodules = {}
    if module is not None:
        submodules = {p: m for p, m in module.named_modules() if p}
    result = _run_traced(tracer, fn, args, kwargs, submodules)
    graph.register_output(tracer.output_value(result, strict))
    from ._passes.dce import eliminate_dead_code

    eliminate_dead_code(graph)
    return graph, tracer, result


def trace(
    func,
    example_inputs=None,
    optimize=None,
    check_trace: bool = True,
    check_inputs=None,
    check_tolerance: float = 1e-5,
    strict: bool = True,
    _force_outplace: bool = False,
    _module_class=None,
    _compilation_unit=None,
    example_kwarg_inputs=None,
    _store_inputs: bool = True,
):
    """Run ``func`` (a function or an ``nn.Module``) on ``example_inputs`` and record the
    ops it calls into a graph; return a :class:`ScriptFunction` or a traced
    :class:`ScriptModule` that runs that graph.

    Args:
        func: a Python function or an ``nn.Module`` (its ``forward`` is traced).
        example_inputs: a tensor or a tuple of the positional arguments.
        check_trace (bool): run the trace and ``func`` on ``check_inputs`` (default: the
            example inputs) and warn when their outputs differ. Default: ``True``.
        check_inputs: a list of argument tuples for the check.
        check_tolerance (float): relative tolerance of the check. Default: ``1e-5``.
        strict (bool): refuse lists and dicts as outputs. Default: ``True``.
        example_kwarg_inputs (dict): keyword arguments instead of ``example_inputs``.

    Examples::

        >>> traced = torch.jit.trace(lambda x: x * 2 + 1, torch.ones(2))
        >>> traced(torch.tensor([1.0, 2.0]))
        tensor([3., 5.])
    """
    _state.warn_deprecated("trace")
    if not _state.enabled:
        return func
    if isinstance(func, ScriptModule) or isinstance(func, ScriptFunction):
        warnings.warn(
            "The input to trace is already a ScriptModule, tracing it is a no-op. Returning the "
            "object as is.",
            stacklevel=2,
        )
        return func
    if isinstance(func, nn.Module):
        inputs = example_inputs if example_kwarg_inputs is None else example_kwarg_inputs
        return trace_module(
            func,
            {"forward": inputs},
            None,
            check_trace,
            [{"forward": c} for c in check_inputs] if check_inputs else None,
            check_tolerance,
            strict,
            example_inputs_is_kwarg=example_kwarg_inputs is not None,
        )
    if example_inputs is None and example_kwarg_inputs is None:
        # what PyTorch raises (it iterates the missing inputs)
        raise TypeError("'NoneType' object is not iterable")
    method_self = getattr(func, "__self__", None)
    if isinstance(method_self, nn.Module) and getattr(func, "__name__", "") == "forward":
        return trace_module(method_self, {"forward": example_inputs}, None, check_trace,
                            None, check_tolerance, strict)  # fmt: skip
    args = () if example_inputs is None else _as_tuple(example_inputs)
    graph, _, result = _trace_graph(func, args, None, strict, example_kwarg_inputs)
    name = getattr(func, "__name__", "fn")
    if name == "<lambda>":
        name = "_lambda"
    traced = ScriptFunction(graph, name, f"__torch__.{name}")
    if check_trace:
        for check_args in check_inputs or [args]:
            _check(traced, func, _as_tuple(check_args), check_tolerance)
    return traced


class TracedModule(RecursiveScriptModule):
    """A module made by tracing: its ``forward`` is the graph of the trace."""


class TopLevelTracedModule(TracedModule):
    """The module :func:`trace_module` returns (the root of the traced tree)."""


TracedModule.__module__ = "torch.jit._trace"
TopLevelTracedModule.__module__ = "torch.jit._trace"


def trace_module(
    mod: nn.Module,
    inputs: dict,
    optimize=None,
    check_trace: bool = True,
    check_inputs=None,
    check_tolerance: float = 1e-5,
    strict: bool = True,
    _force_outplace: bool = False,
    _module_class=None,
    _compilation_unit=None,
    example_inputs_is_kwarg: bool = False,
    _store_inputs: bool = True,
):
    """Trace methods of ``mod``: ``inputs`` maps method names to their example inputs
    (``{"forward": (x,)}``). Returns a ``TopLevelTracedModule`` whose submodules are
    traced on the inputs of their first call.

    Examples::

        >>> traced = torch.jit.trace_module(nn.Linear(3, 2), {"forward": torch.ones(1, 3)})
        >>> traced(torch.ones(4, 3)).shape
        torch.Size([4, 2])
    """
    _state.warn_deprecated("trace_method")
    if not isinstance(mod, nn.Module):
        raise AttributeError("expected torch.nn.Module as the first argument")
    if not isinstance(inputs, dict):
        raise AttributeError("expected a dictionary of (method_name, input) pairs")
    traced = _trace_tree(mod, inputs, strict, example_inputs_is_kwarg, TopLevelTracedModule)
    if check_trace:
        for method, examples in inputs.items():
            checks = [c[method] for c in check_inputs] if check_inputs else [examples]
            for check_args in checks:
                if example_inputs_is_kwarg:
                    continue
                _check(getattr(traced, method), getattr(mod, method), _as_tuple(check_args),
                       check_tolerance)  # fmt: skip
    return traced


def _trace_tree(mod: nn.Module, inputs: dict, strict: bool, kwarg_inputs: bool, cls):
    mirror = cls.mirror(mod)
    calls = {}
    for method_name, examples in inputs.items():
        if kwarg_inputs:
            calls[method_name] = ((), dict(examples))
        else:
            calls[method_name] = (_as_tuple(examples), {})
    _trace_into(mirror, mod, calls, strict, top=True)
    return mirror


def _trace_into(mirror: ScriptModule, mod: nn.Module, calls: dict, strict: bool, top=False):
    """Trace the methods of ``mod`` named in ``calls`` (name -> (args, kwargs)) into
    ``mirror``, then each submodule that was called, on the arguments of its first call."""
    submodule_calls: dict[str, tuple[tuple, dict]] = {}
    for method_name, (args, kwargs) in calls.items():
        method = getattr(mod, method_name)
        # PyTorch names the root's self "self.1" (its graph had a "self" already)
        self_name = "self.1" if top else "self"
        graph, tracer, _ = _trace_graph(method, args, mod, strict, kwargs, self_name)
        mirror._define_method(method_name, graph)
        for path, call in tracer.submodule_calls.items():
            submodule_calls.setdefault(path, call)
    for path, call in submodule_calls.items():
        child, child_mirror = mod.get_submodule(path), mirror.get_submodule(path)
        if "forward" in child_mirror._methods:
            continue  # traced already (a module reached by two paths)
        if type(child_mirror) is RecursiveScriptModule:
            child_mirror.__class__ = TracedModule
        _trace_into(child_mirror, child, {"forward": call}, False)


# ----------------------------------------------------------------------- check_trace


def _flatten(value) -> list:
    return [leaf for leaf in leaves(value) if isinstance(leaf, torch.Tensor)]


def _clone_inputs(args: tuple) -> tuple:
    def clone(v):
        if isinstance(v, torch.Tensor):
            copy = v.detach().clone()
            return copy.requires_grad_(v.requires_grad) if v.is_leaf else copy
        if isinstance(v, (list, tuple)):
            return type(v)(clone(x) for x in v)
        return v

    return tuple(clone(a) for a in args)


def _check(traced, original, args: tuple, tolerance: float) -> None:
    """Compare the trace with the Python code on ``args``; warn where they differ."""
    with torch.no_grad():
        expected = _flatten(original(*_clone_inputs(args)))
        got = _flatten(traced(*_clone_inputs(args)))
    if len(expected) != len(got):
        raise TracingCheckError(None, None, "Traced and Python outputs differ in number")
    for index, (e, g) in enumerate(zip(expected, got)):
        if e.shape != g.shape or not torch.allclose(
            g.double() if g.is_floating_point() else g,
            e.double() if e.is_floating_point() else e,
            rtol=tolerance,
            atol=tolerance,
            equal_nan=True,
        ):
            warnings.warn(
                f"Output nr {index + 1}. of the traced function does not match the "
                "corresponding output of the Python function. Detailed error:\n"
                "Tensor-likes are not close!",
                TracerWarning,
                stacklevel=3,
            )
