"""Entry points of the script compiler: functions, modules and source strings.

A scripted module is a ``RecursiveScriptModule`` mirroring the module tree (the same
parameters and buffers). Its ``forward`` and ``@torch.jit.export`` methods are compiled,
and so is every method or submodule ``forward`` they call, each into a graph of its own
mirror; ``self.<name>`` reads of submodules, parameters, buffers and ``training`` are
``prim::GetAttr``, other plain attributes (ints, strings, tuples ...) constants, as
TorchScript treats a module's constants.

A module of the ``torch.nn`` library whose ``forward`` is outside the subset (``nn.LSTM``,
``nn.MultiheadAttention`` ...) is kept as that Python module inside the scripted tree
and called as a method: its code comes from torch-nn, so a saved program still loads
without the user's classes (``torch.jit.save`` stores it pickled by class path).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types

from torch import nn

from .. import _ir
from .._jit_internal import FunctionModifiers, get_modifier
from .._program import RecursiveScriptModule, ScriptFunction, ScriptModule
from ..frontend import NotSupportedError
from ._common import Static
from .compiler import FunctionCompiler
from .nn_rnn import scriptable_forward

__all__ = ["script_object", "script_function", "script_module", "compile_source"]

_PLAIN = (bool, int, float, str, type(None))


def script_object(obj):
    """``torch.jit.script`` of a function, module instance or script object."""
    if isinstance(obj, (ScriptModule, ScriptFunction)):
        return obj
    if isinstance(obj, nn.Module):
        return script_module(obj)
    if isinstance(obj, type):
        raise NotSupportedError(None, "scripting classes isn't supported; script an instance")
    if isinstance(obj, (types.FunctionType, types.MethodType)) or inspect.isfunction(obj):
        return script_function(obj)
    raise RuntimeError(f"Type '{type(obj)}' cannot be compiled since it inherits from nn.Module, "
                       "pass an instance instead" if isinstance(obj, type) else
                       f"torch.jit.script cannot compile a {type(obj).__name__}")  # fmt: skip


def script_function(fn) -> ScriptFunction:
    """Compile a Python function (cached on it: a second call returns the same program)."""
    cached = getattr(fn, "__script_function__", None)
    if cached is not None:
        return cached
    graph = FunctionCompiler(fn).compile()
    qualified = f"__torch__.{fn.__module__}.{fn.__qualname__}".replace(
        "__torch__.__main__.", "__torch__."
    )
    compiled = ScriptFunction(graph, fn.__name__, qualified)
    try:
        fn.__script_function__ = compiled
    except (AttributeError, TypeError):
        pass
    return compiled


def script_module(module: nn.Module) -> RecursiveScriptModule:
    scripter = _ModuleScripter(module)
    names = ["forward"] if _has_own_forward(module) else []
    for name, member in inspect.getmembers(type(module)):
        if get_modifier(member) is FunctionModifiers.EXPORT and name not in names:
            names.append(name)
    for name in names:
        scripter.compile_method(module, name)
    return scripter.mirror


def compile_own_method(module: ScriptModule, name: str) -> None:
    """Compile method ``name`` of a user subclass of ``ScriptModule`` into itself."""
    scripter = _ModuleScripter(module)
    scripter.compile_method(module, name)


def _has_own_forward(module: nn.Module) -> bool:
    forward = getattr(type(module), "forward", None)
    return forward is not None and forward is not nn.Module.forward


class _ModuleScripter:
    """Compiles methods of a module tree into its mirror; the callbacks the function
    compiler uses for ``self`` and submodules."""

    def __init__(self, root: nn.Module) -> None:
        self.root = root
        self.mirror = RecursiveScriptModule.mirror(root)
        self.paths = {id(m): p for p, m in root.named_modules(remove_duplicate=False)}
        self.in_progress: set[tuple[int, str]] = set()
        self.python_modules: set[int] = set()

    def mirror_of(self, module: nn.Module):
        path = self.paths[id(module)]
        return self.mirror.get_submodule(path) if path else self.mirror

    def compile_method(self, module: nn.Module, name: str) -> _ir.Graph:
        mirror = self.mirror_of(module)
        if isinstance(mirror, ScriptModule) and name in mirror._methods:
            return mirror._methods[name].graph
        if id(module) in self.python_modules:
            return None
        key = (id(module), name)
        if key in self.in_progress:
            raise NotSupportedError(None, f"recursive calls of method '{name}' aren't supported")
        self.in_progress.add(key)
        try:
            function = getattr(type(module), name)
            if name == "forward":  # nn.LSTM/GRU/RNN: a forward written in the subset
                function = scriptable_forward(module) or function
            compiler = FunctionCompiler(function, self, _ir.ClassType(mirror._type_name))
            compiler.self_module = module
            try:
                graph = compiler.compile()
            except (NotSupportedError, RuntimeError, OSError, TypeError, AttributeError):
                if not _from_torch_nn(module) or module is self.root:
                    raise
                self._keep_as_python(module)
                return None
            mirror._define_method(name, graph)
            return graph
        finally:
            self.in_progress.discard(key)

    def _keep_as_python(self, module: nn.Module) -> None:
        """Put the library module itself in the scripted tree in place of its mirror."""
        path = self.paths[id(module)]
        parent_path, _, name = path.rpartition(".")
        parent = self.mirror.get_submodule(parent_path) if parent_path else self.mirror
        parent._modules[name] = module
        self.python_modules.add(id(module))

    # -- values of modules
    def module_of(self, compiler: FunctionCompiler, value: _ir.Value) -> nn.Module:
        if value is compiler.self_value:
            return compiler.self_module
        return compiler.module_values[value]

    def module_value(self, compiler: FunctionCompiler, module: nn.Module, node) -> _ir.Value:
        """A value of ``module`` in the compiled method: ``GetAttr`` from ``self``."""
        if module is compiler.self_module:
            return compiler.self_value
        base = self.paths[id(compiler.self_module)]
        path = self.paths[id(module)]
        relative = path[len(base) + 1 :] if base else path
        value, owner = compiler.self_value, compiler.self_module
        for part in relative.split("."):
            owner = owner._modules[part]
            value = self._get_module(compiler, value, part, owner, node)
        return value

    def _get_module(self, compiler, owner_value, name, module, node) -> _ir.Value:
        created = compiler.emit("prim::GetAttr", [owner_value], {"name": name}, node)
        type_name = getattr(self.mirror_of(module), "_type_name", None) or _type_name(module)
        value = created.add_output(_ir.ClassType(type_name)).set_debug_name(name)
        compiler.module_values = getattr(compiler, "module_values", {})
        compiler.module_values[value] = module
        return value

    def submodule_item(self, compiler, owner_value, key, node) -> _ir.Value | None:
        """``owner[key]`` of a ModuleList, Sequential or ModuleDict value, ``key`` known
        while compiling: that submodule (None when ``owner`` is no such container)."""
        module = self.module_of(compiler, owner_value)
        if not isinstance(module, (nn.ModuleList, nn.Sequential, nn.ModuleDict)):
            return None
        child = module[key]
        name = next(n for n, m in module._modules.items() if m is child)
        return self._get_module(compiler, owner_value, name, child, node)

    def attribute(self, compiler, owner_value, module: nn.Module, node: ast.Attribute):
        name = node.attr
        if name in module._modules and module._modules[name] is not None:
            return self._get_module(compiler, owner_value, name, module._modules[name], node)
        if name in module._parameters or name in module._buffers:
            tensor = module._parameters.get(name, module._buffers.get(name))
            if tensor is None:
                return compiler.constant(None)
            created = compiler.emit("prim::GetAttr", [owner_value], {"name": name}, node)
            return created.add_output(_ir.TensorType()).set_debug_name(name)
        if name == "training":
            created = compiler.emit("prim::GetAttr", [owner_value], {"name": name}, node)
            return created.add_output(_ir.BOOL)
        value = getattr(module, name)
        if isinstance(value, _PLAIN) or (
            isinstance(value, (tuple, list)) and all(isinstance(v, _PLAIN) for v in value)
        ):
            return compiler.constant(value)
        return Static(value)

    # -- callbacks of the function compiler
    def self_attribute(self, compiler, owner, node):
        return self.attribute(compiler, owner, compiler.self_module, node)

    def value_attribute(self, compiler, owner, node):
        return self.attribute(compiler, owner, self.module_of(compiler, owner), node)

    def module_attribute(self, compiler, module, node):
        value = self.module_value(compiler, module, node)
        return self.attribute(compiler, value, module, node)

    def call_self_method(self, compiler, owner, name, node):
        return self.call_value_method(compiler, owner, name, node)

    def call_value_method(self, compiler, owner, name, node):
        module = self.module_of(compiler, owner)
        child = module._modules.get(name)
        if child is not None:
            value = self._get_module(compiler, owner, name, child, node)
            return self._call(compiler, value, child, "forward", node)
        return self._call(compiler, owner, module, name, node)

    def call_submodule_value(self, compiler, callee, node):
        return self._call(compiler, callee, self.module_of(compiler, callee), "forward", node)

    def call_module(self, compiler, module, node):
        value = self.module_value(compiler, module, node)
        return self._call(compiler, value, module, "forward", node)

    def call_module_method(self, compiler, module, name, node):
        value = self.module_value(compiler, module, node)
        return self._call(compiler, value, module, name, node)

    def _call(self, compiler, owner, module: nn.Module, name: str, node):
        member = getattr(module, name, None)
        if callable(member) and not (inspect.ismethod(member) and member.__self__ is module):
            # a function stored on the instance or the class (``self.activation = F.relu``,
            # a staticmethod): an ordinary call
            return compiler.static_call(node, member)
        function = getattr(type(module), name, None)
        if function is None or not callable(function):
            raise NotSupportedError(compiler.range(node), f"module has no method '{name}'")
        args, kwargs = compiler.call_arguments(node)
        ignored = compiler.ignored_call(node, function, name, (owner,), args, kwargs)
        if ignored is not None:
            return ignored
        graph = self.compile_method(module, name)
        call = compiler.emit_call("prim::CallMethod", (owner,), args, kwargs, {"name": name}, node)
        out_type = graph.outputs[0].type if graph is not None else _ir.ANY
        if graph is None and name == "forward":
            out_type = _ir.ANY
        return call.add_output(out_type)


def _from_torch_nn(module: nn.Module) -> bool:
    return type(module).__module__.startswith("torch.nn.")


def _type_name(module: nn.Module) -> str:
    cls = type(module)
    if cls.__module__ == "__main__":
        return f"__torch__.{cls.__qualname__}"
    return f"__torch__.{cls.__module__}.{cls.__qualname__}"


def compile_source(source: str) -> list[ScriptFunction]:
    """Compile the functions defined in ``source`` (``torch.jit.CompilationUnit``)."""
    namespace: dict = {}
    import torch

    namespace["torch"] = torch
    code = textwrap.dedent(source)
    filename = f"<CompilationUnit {abs(hash(code)) % 10**8}>"
    import linecache

    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    exec(compile(code, filename, "exec"), namespace)  # noqa: S102 - the user's TorchScript source
    functions = []
    for node in ast.parse(code).body:
        if isinstance(node, ast.FunctionDef):
            functions.append(script_function(namespace[node.name]))
    return functions
