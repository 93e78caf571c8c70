"""Compiled programs as Python objects: :class:`ScriptFunction`, :class:`ScriptModule`,
and :func:`script`, which compiles Python source (the subset described in
``docs/packages/jit.md``) into the graph IR of :mod:`torch.jit._ir`.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from . import _state

__all__ = [
    "Attribute",
    "CompilationUnit",
    "ScriptFunction",
    "ScriptModule",
    "RecursiveScriptModule",
    "script",
    "script_if_tracing",
    "_script_if_tracing",
    "script_method",
]


class Attribute(NamedTuple):
    """Declare the type of a module attribute for the script compiler:
    ``self.names = torch.jit.Attribute([], List[str])``. In eager Python the value
    is the tuple ``(value, type)``; the script compiler stores ``value``."""

    value: Any
    type: Any


Attribute.__module__ = "torch.jit._script"


def script_if_tracing(fn):
    """Compile ``fn`` with :func:`script` only when it is called during a trace (so
    that its control flow survives in the trace); eager calls run it as Python.

        >>> @torch.jit.script_if_tracing
        ... def twice(x):
        ...     return x * 2
        >>> twice(torch.ones(2))
        tensor([2., 2.])
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not _state.is_tracing():
            return fn(*args, **kwargs)
        compiled = script(wrapper.__original_fn)
        return compiled(*args, **kwargs)

    wrapper.__original_fn = fn  # type: ignore[attr-defined]
    wrapper.__script_if_tracing_wrapper = True  # type: ignore[attr-defined]
    return wrapper


_script_if_tracing = script_if_tracing


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """Compile a function or an ``nn.Module`` (its ``forward`` and exported methods)
    into the graph IR. See ``docs/packages/jit.md`` for the supported subset."""
    from ._frontend.compile import script_object

    _state.warn_deprecated("script")
    if not _state.enabled:
        return obj
    return script_object(obj)


def script_method(fn):
    """Deprecated decorator of PyTorch's old ScriptModule subclasses: compile ``fn`` as a
    method. Here a marker that :func:`script` honours like ``@torch.jit.export``."""
    from ._jit_internal import export

    return export(fn)


# ScriptFunction / ScriptModule / CompilationUnit live with the program objects
from ._program import CompilationUnit, RecursiveScriptModule, ScriptFunction, ScriptModule  # noqa: E402
