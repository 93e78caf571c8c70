"""torch.jit: compile models into a graph IR that runs without their Python code.

- :func:`trace` / :func:`trace_module` record the ops a function or module calls on
  example inputs; :func:`script` compiles Python source of a documented subset.
- Both give :class:`ScriptFunction` / :class:`ScriptModule` objects whose ``.graph`` is a
  typed SSA graph (:mod:`torch.jit._ir`), run by a generated interpreter through which
  autograd works.
- :func:`freeze`, :func:`optimize_for_inference`: graph passes (dead code, common
  subexpressions, constant folding, batch norm folded into convolution, elementwise
  chains fused into one native kernel).
- :func:`save` / :func:`load`: a zip archive that loads in a process that never imported
  the model's class.
- The eager-mode markers libraries use at import: :func:`is_scripting`,
  :func:`is_tracing`, :func:`ignore`, :func:`unused`, :func:`export`, ``Final``,
  :class:`Attribute`, :func:`annotate`, :func:`interface`, :func:`fork`/:func:`wait`.
"""

import builtins

from torch._interface import require_core_api

# ruff: noqa: F401 - the public names PyTorch has beside __all__ (TracerWarning, ...)
from . import _state
from ._exceptions import Error, ScriptWarning, TracerWarning, TracingCheckError
from ._fork import Future, fork, wait
from ._freeze import freeze, optimize_for_inference, run_frozen_optimizations
from ._fuser import (
    enable_onednn_fusion,
    fuser,
    onednn_fusion_enabled,
    optimized_execution,
    set_fusion_strategy,
    strict_fusion,
)
from ._jit_internal import (
    Final,
    FunctionModifiers,
    _drop,
    _overload,
    _overload_method,
    annotate,
    export,
    ignore,
    interface,
    isinstance,
    unused,
)
from ._script import (
    Attribute,
    CompilationUnit,
    RecursiveScriptModule,
    ScriptFunction,
    ScriptModule,
    _script_if_tracing,
    script,
    script_if_tracing,
    script_method,
)
from ._serialization import load, save
from ._state import is_scripting, is_tracing
from ._trace import TopLevelTracedModule, TracedModule, trace, trace_module
from ._version import __version__

require_core_api(0, 7, "torch-jit")

_fork = fork
_wait = wait

__all__ = [
    "Attribute",
    "CompilationUnit",
    "Error",
    "Future",
    "ScriptFunction",
    "ScriptModule",
    "annotate",
    "enable_onednn_fusion",
    "export",
    "export_opnames",
    "fork",
    "freeze",
    "interface",
    "ignore",
    "isinstance",
    "load",
    "onednn_fusion_enabled",
    "optimize_for_inference",
    "save",
    "script",
    "script_if_tracing",
    "set_fusion_strategy",
    "strict_fusion",
    "trace",
    "trace_module",
    "unused",
    "wait",
]


def export_opnames(m) -> list[str]:
    """The names of the ops the methods of script module ``m`` call (``aten::add``...)."""
    names = set()
    for compiled in m._methods.values():
        for node in compiled.graph.all_nodes():
            if node.kind.startswith("aten::"):
                names.add(node.kind)
    for child in m.children():
        if builtins.isinstance(child, ScriptModule):
            names.update(export_opnames(child))
    return sorted(names)
