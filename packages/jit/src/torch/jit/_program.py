"""Compiled programs: :class:`ScriptFunction` (one graph) and :class:`ScriptModule`
(an ``nn.Module`` whose methods are graphs over its attributes).

A program runs by the code generator of :mod:`torch.jit._codegen`, never by the Python
that produced it. A ``RecursiveScriptModule`` mirrors the module tree it came from: the
same ``Parameter`` and buffer objects, a ``RecursiveScriptModule`` per submodule, and per
method a graph whose first input is ``self``.
"""

from __future__ import annotations

from typing import Any

from torch import nn

from . import _codegen, _ir, _state

__all__ = [
    "CompilationUnit",
    "ScriptFunction",
    "ScriptMethod",
    "ScriptModule",
    "RecursiveScriptModule",
]


class _Compiled:
    """A graph and its generated function (made on first call, remade when a pass
    changes the graph: call :meth:`invalidate`)."""

    __slots__ = ("graph", "name", "_function", "optimized")

    def __init__(self, graph: _ir.Graph, name: str) -> None:
        self.graph = graph
        self.name = name
        self._function = None
        self.optimized: _ir.Graph | None = None

    def function(self):
        if self._function is None:
            self.optimized = _execution_graph(self.graph)
            self._function = _codegen.compile_graph(self.optimized, self.name)
        return self._function

    def invalidate(self) -> None:
        self._function = None
        self.optimized = None

    def code(self) -> str:
        return _codegen.render(self.graph, self.name, readable=True)[0]


def _execution_graph(graph: _ir.Graph) -> _ir.Graph:
    """The graph the interpreter runs: ``graph`` itself, or a copy whose elementwise
    chains are fusion groups when fusion is on (``torch.jit.fuser``) and a C++ compiler is
    available. A fusion group computes with its ops where its kernel does not apply
    (gradients needed, other shapes), so this never changes results."""
    from ._fuser import fusion_enabled
    from ._kernels import compiler_available
    from ._passes.fusion import fuse_elementwise

    if not fusion_enabled() or not compiler_available():
        return graph
    if any(n.kind == "prim::FusionGroup" for n in graph.nodes):
        return graph
    optimized = graph.copy()
    if fuse_elementwise(optimized) == 0:
        return graph
    return optimized


class ScriptFunction:
    """A function compiled into a graph (by :func:`torch.jit.trace` of a function or by
    :func:`torch.jit.script`). Calling it runs the graph."""

    def __init__(self, graph: _ir.Graph, name: str, qualified_name: str | None = None) -> None:
        self._compiled = _Compiled(graph, name)
        self.name = name
        self.__name__ = name
        self.qualified_name = qualified_name or f"__torch__.{name}"

    def __call__(self, *args, **kwargs):
        graph = self._compiled.graph
        if kwargs or len(args) < len(graph.inputs):
            args = _bind_keywords(graph, args, kwargs, skip=0)
        tracer = _state.tracing.tracer
        if tracer is not None and not tracer.depth:
            # called from traced code: one node, so that its control flow survives
            return tracer.call_function(self, self._compiled.function(), args)
        return self._compiled.function()(*args)

    @property
    def graph(self) -> _ir.Graph:
        return self._compiled.graph

    @property
    def inlined_graph(self) -> _ir.Graph:
        from ._passes.inline import inlined

        return inlined(self.graph)

    @property
    def code(self) -> str:
        return self._compiled.code()

    def graph_for(self, *args, **kwargs) -> _ir.Graph:
        """The graph that runs (with fusion groups where fusion applies)."""
        self._compiled.function()
        return self._compiled.optimized

    def save(self, f, _extra_files=None) -> None:
        from ._serialization import save

        save(self, f, _extra_files)

    def _invalidate(self) -> None:
        self._compiled.invalidate()

    def __repr__(self) -> str:
        return f"<torch.jit.ScriptFunction object {self.name}>"


ScriptFunction.__module__ = "torch.jit"


def _bind_keywords(graph: _ir.Graph, args: tuple, kwargs: dict, skip: int) -> tuple:
    """Positional arguments for the graph's inputs from ``args``, ``kwargs`` and the
    graph's defaults."""
    names = [v.debug_name for v in graph.inputs[skip + len(args) :]]
    extra = []
    for name in names:
        if name in kwargs:
            extra.append(kwargs.pop(name))
        elif name in graph.defaults:
            extra.append(graph.defaults[name])
        else:
            raise RuntimeError(f"forward() is missing value for argument '{name}'.")
    if kwargs:
        raise RuntimeError(f"forward() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return (*args, *extra)


class ScriptMethod:
    """A method of a :class:`ScriptModule` bound to it: ``module.forward``."""

    __slots__ = ("_module", "_compiled")

    def __init__(self, module: ScriptModule, compiled: _Compiled) -> None:
        self._module = module
        self._compiled = compiled

    def __call__(self, *args, **kwargs):
        graph = self._compiled.graph
        if kwargs or len(args) + 1 < len(graph.inputs):
            args = _bind_keywords(graph, args, kwargs, skip=1)
        return self._compiled.function()(self._module, *args)

    @property
    def graph(self) -> _ir.Graph:
        return self._compiled.graph

    @property
    def inlined_graph(self) -> _ir.Graph:
        from ._passes.inline import inlined

        return inlined(self.graph, self._module)

    @property
    def code(self) -> str:
        return self._compiled.code()

    @property
    def name(self) -> str:
        return self._compiled.name

    def graph_for(self, *args, **kwargs) -> _ir.Graph:
        self._compiled.function()
        return self._compiled.optimized


class ScriptModule(nn.Module):
    """An ``nn.Module`` whose methods are compiled graphs. Made by
    :func:`torch.jit.trace`, :func:`torch.jit.script` and :func:`torch.jit.load`."""

    def __init__(self) -> None:
        super().__init__()
        object.__setattr__(self, "_methods", {})
        object.__setattr__(self, "_type_name", f"__torch__.{type(self).__qualname__}")
        object.__setattr__(self, "original_name", type(self).__name__)

    def _define_method(self, name: str, graph: _ir.Graph) -> None:
        self._methods[name] = _Compiled(graph, name)

    def _method_names(self) -> list[str]:
        return list(self._methods)

    def __getattr__(self, name: str):
        methods = self.__dict__.get("_methods")
        if methods is not None and name in methods:
            return ScriptMethod(self, methods[name])
        return super().__getattr__(name)

    def forward(self, *args, **kwargs):
        compiled = self._methods.get("forward")
        if compiled is None:
            raise RuntimeError(
                f"Method 'forward' is not defined on this {self.original_name} script module: "
                "it was not called while tracing"
            )
        if kwargs or len(args) + 1 < len(compiled.graph.inputs):
            args = _bind_keywords(compiled.graph, args, kwargs, skip=1)
        return compiled.function()(self, *args)

    @property
    def graph(self) -> _ir.Graph:
        return self._method("forward").graph

    @property
    def inlined_graph(self) -> _ir.Graph:
        return ScriptMethod(self, self._method("forward")).inlined_graph

    @property
    def code(self) -> str:
        return self._method("forward").code()

    def graph_for(self, *args, **kwargs) -> _ir.Graph:
        """The graph ``forward`` runs (with fusion groups where fusion applies)."""
        return ScriptMethod(self, self._method("forward")).graph_for(*args, **kwargs)

    @property
    def code_with_constants(self) -> tuple[str, dict]:
        return _codegen.render(self.graph, "forward", readable=True)

    def _method(self, name: str) -> _Compiled:
        found = self._methods.get(name)
        if found is None and _defined_in_subclass(type(self), name):
            # a PyTorch 1.0-style ``class M(torch.jit.ScriptModule)`` with
            # ``@torch.jit.script_method``: compiled when its graph is first asked for
            from ._frontend.compile import compile_own_method

            compile_own_method(self, name)
            found = self._methods.get(name)
        if found is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return found

    def _invalidate(self) -> None:
        for compiled in self._methods.values():
            compiled.invalidate()

    def save(self, f, _extra_files=None) -> None:
        from ._serialization import save

        save(self, f, _extra_files)

    def _class_type(self) -> _ir.ClassType:
        return _ir.ClassType(self._type_name)

    def extra_repr(self) -> str:
        return f"original_name={self.original_name}"


ScriptModule.__module__ = "torch.jit._script"


def _defined_in_subclass(cls: type, name: str) -> bool:
    """Whether ``name`` is a Python method of a user subclass of :class:`ScriptModule`."""
    for klass in cls.__mro__:
        if klass in (ScriptModule, RecursiveScriptModule, nn.Module, object):
            return False
        if callable(klass.__dict__.get(name)):
            return True
    return False


class RecursiveScriptModule(ScriptModule):
    """A :class:`ScriptModule` mirroring a Python module tree (or loaded from an
    archive): its parameters, buffers, submodules and plain attributes, with the
    methods that were traced or compiled."""

    @classmethod
    def mirror(cls, module: nn.Module, type_name: str | None = None) -> RecursiveScriptModule:
        """A script module holding ``module``'s parameters, buffers and attributes (the
        same objects) and a mirror of each submodule; no methods yet. A script module
        mirrors as itself."""
        if isinstance(module, ScriptModule):
            return module
        mirror = cls()
        object.__setattr__(mirror, "_type_name", type_name or _type_name_of(type(module)))
        object.__setattr__(mirror, "original_name", type(module).__name__)
        mirror.training = module.training
        for name, param in module._parameters.items():
            mirror.register_parameter(name, param)
        for name, buffer in module._buffers.items():
            persistent = name not in getattr(module, "_non_persistent_buffers_set", set())
            mirror.register_buffer(name, buffer, persistent=persistent)
        for name, child in module._modules.items():
            if child is None:
                mirror._modules[name] = None
            else:
                mirror._modules[name] = RecursiveScriptModule.mirror(child)
        for name, value in vars(module).items():
            if name.startswith("_") or name == "training" or name in mirror.__dict__:
                continue
            if isinstance(value, (bool, int, float, str, type(None), tuple, list, dict)):
                object.__setattr__(mirror, name, value)
        return mirror

    def __repr__(self) -> str:
        lines = [f"{self.original_name}("]
        for name, child in self._modules.items():
            child_repr = repr(child).replace("\n", "\n  ")
            lines.append(f"  ({name}): {child_repr}")
        if len(lines) == 1:
            return f"RecursiveScriptModule(original_name={self.original_name})"
        return (
            f"RecursiveScriptModule(\n  original_name={self.original_name}\n"
            + "\n".join(lines[1:])
            + "\n)"
        )


RecursiveScriptModule.__module__ = "torch.jit._script"


def _type_name_of(cls: type) -> str:
    module = cls.__module__
    if module == "__main__":
        return f"__torch__.{cls.__qualname__}"
    return f"__torch__.{module}.{cls.__qualname__}"


class CompilationUnit:
    """A namespace of compiled functions (PyTorch's ``torch.jit.CompilationUnit``):
    ``CompilationUnit(source)`` compiles the functions defined in ``source`` and makes
    them attributes."""

    def __init__(self, lang: str | None = None, _frames_up: int = 0) -> None:
        self._functions: dict[str, ScriptFunction] = {}
        if lang is not None:
            self.define(lang)

    def define(self, source: str, rcb=None, _frames_up: int = 0) -> None:
        from ._frontend.compile import compile_source

        for function in compile_source(source):
            self._functions[function.name] = function

    def find_function(self, name: str) -> ScriptFunction | None:
        return self._functions.get(name)

    def get_functions(self) -> list[ScriptFunction]:
        return list(self._functions.values())

    def __getattr__(self, name: str) -> Any:
        functions = self.__dict__.get("_functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError(f"'CompilationUnit' has no function '{name}'")


CompilationUnit.__module__ = "torch.jit"
