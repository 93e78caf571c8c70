"""``torch.jit.freeze``, ``run_frozen_optimizations`` and ``optimize_for_inference``.

Freezing inlines every submodule call of ``forward`` and turns the module's parameters,
buffers and plain attributes into constants of the graph; the frozen module holds no
parameters. The optimisations then fold batch norms into convolutions, merge common
subexpressions, fold constant computations and remove dead code;
``optimize_for_inference`` also fuses elementwise chains into native kernels.
"""

from __future__ import annotations

import torch
from torch import nn

from . import _ir, _kernels
from ._passes.constant_folding import fold_constants
from ._passes.cse import eliminate_common_subexpressions
from ._passes.dce import eliminate_dead_code
from ._passes.fold_conv_bn import fold_conv_batch_norm
from ._passes.inline import inline_calls
from ._program import RecursiveScriptModule, ScriptModule

__all__ = ["freeze", "run_frozen_optimizations", "optimize_for_inference"]

_NOT_SCRIPTED = (
    "{what} expects a ScriptModule as input. Please use torch.jit.script or "
    "torch.jit.trace to script your 'nn.Module'."
)


def freeze(mod, preserved_attrs: list[str] | None = None, optimize_numerics: bool = True):
    """A copy of script module ``mod`` (in eval mode) whose parameters and attributes are
    constants of its ``forward`` graph, optimised by :func:`run_frozen_optimizations`.

    Args:
        mod (ScriptModule): a traced or scripted module in eval mode.
        preserved_attrs (list of str): attributes (and methods) to keep on the frozen
            module instead of folding them in.
        optimize_numerics (bool): allow optimisations that change results by rounding
            (batch norm folding). Default: ``True``.

    Examples::

        >>> model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2)).eval()
        >>> frozen = torch.jit.freeze(torch.jit.trace(model, torch.ones(1, 1, 5, 5)))
        >>> "aten::batch_norm" in str(frozen.graph)
        False
    """
    from ._state import warn_deprecated

    warn_deprecated("freeze", "`torch.compile` instead")
    return _freeze(mod, preserved_attrs, optimize_numerics)


def _freeze(mod, preserved_attrs, optimize_numerics):
    if not isinstance(mod, ScriptModule):
        raise RuntimeError(_NOT_SCRIPTED.format(what="Freezing"))
    if mod.training:
        raise RuntimeError(
            "Freezing is currently only implemented for modules in eval mode. Please call "
            ".eval() on your module before freezing."
        )
    preserved = set(preserved_attrs or ())
    frozen = RecursiveScriptModule()
    object.__setattr__(frozen, "_type_name", mod._type_name)
    object.__setattr__(frozen, "original_name", mod.original_name)
    frozen.training = False
    for name in preserved:
        if name in mod._methods:
            continue
        value = getattr(mod, name)
        object.__setattr__(frozen, name, value)
    for name, compiled in mod._methods.items():
        if name == "forward" or name in preserved:
            frozen._define_method(name, _frozen_graph(compiled.graph, mod, preserved))
    run_frozen_optimizations(frozen, optimize_numerics)
    return frozen


def _frozen_graph(graph: _ir.Graph, mod: ScriptModule, preserved: set[str]) -> _ir.Graph:
    graph = graph.copy()
    inline_calls(graph, mod)
    owners: dict[_ir.Value, object] = {graph.inputs[0]: mod}
    for node in list(graph.all_nodes()):
        if node.kind != "prim::GetAttr" or node.inputs[0] not in owners:
            continue
        owner = owners[node.inputs[0]]
        name = node.attrs["name"]
        if owner is mod and name in preserved:
            continue
        value = getattr(owner, name)
        if isinstance(value, nn.Module):
            owners[node.output()] = value
            continue
        if isinstance(value, torch.Tensor):
            value = value.detach()
        constant = graph.constant(value, before=node)
        node.output().replace_all_uses_with(constant)
    eliminate_dead_code(graph)
    return graph


def run_frozen_optimizations(mod, optimize_numerics: bool = True, preserved_attrs=None):
    """Optimise the graphs of a frozen module in place: batch norm folded into
    convolution (with ``optimize_numerics``), common subexpressions, constant folding,
    dead code."""
    for compiled in mod._methods.values():
        graph = compiled.graph
        if optimize_numerics:
            fold_conv_batch_norm(graph)
        eliminate_common_subexpressions(graph)
        fold_constants(graph)
        eliminate_common_subexpressions(graph)
        eliminate_dead_code(graph)
        compiled.invalidate()


def optimize_for_inference(mod, other_methods: list[str] | None = None):
    """Freeze ``mod`` (when it is not frozen yet) and optimise it for running without
    gradients: the frozen optimisations, then elementwise chains fused into generated
    native kernels (see ``docs/packages/jit.md``).

    Examples::

        >>> model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Tanh()).eval()
        >>> traced = torch.jit.trace(model, torch.ones(2, 3))
        >>> fast = torch.jit.optimize_for_inference(traced)
        >>> fast(torch.ones(2, 3)).shape
        torch.Size([2, 3])
    """
    if not isinstance(mod, ScriptModule):
        raise RuntimeError(_NOT_SCRIPTED.format(what="optimize_for_inference"))
    if _has_state(mod):
        mod = _freeze(mod.eval(), other_methods, True)
    from ._passes.attention import batch_first_self_attention, cancel_transpose_pairs
    from ._passes.decompose import decompose_composites
    from ._passes.fold_scale import fold_linear_scaling
    from ._passes.fusion import fuse_elementwise
    from ._passes.lowering import lower_for_inference
    from ._passes.pooling import fuse_max_pooling

    for compiled in mod._methods.values():
        batch_first_self_attention(compiled.graph)
        decompose_composites(compiled.graph)
        fold_constants(compiled.graph)
        eliminate_common_subexpressions(compiled.graph)
        if _kernels.compiler_available():
            fuse_max_pooling(compiled.graph)
        lower_for_inference(compiled.graph)
        cancel_transpose_pairs(compiled.graph)
        fold_linear_scaling(compiled.graph)
        eliminate_dead_code(compiled.graph)
        fuse_elementwise(compiled.graph)
        eliminate_dead_code(compiled.graph)
        compiled.invalidate()
    return mod


def _has_state(mod: ScriptModule) -> bool:
    return (
        any(True for _ in mod.parameters())
        or any(True for _ in mod.buffers())
        or any(True for _ in mod.children())
    )
