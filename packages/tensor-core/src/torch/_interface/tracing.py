"""Interception of op calls by binding, for torch-jit's tracer: a view of core's one
op-call mechanism (``torch._op_calls``), which autocast, the profiler and torch.func's
transform levels use too.

While an :class:`Interception` is active, every op binding of core (the functions of
``torch``, ``torch.linalg``, ``torch.special`` and ``torch.fft``, the methods,
operators and tensor-producing properties of ``Tensor``, and the ``function`` of every
op of the registry, which siblings call as ``ops[name].function``) and every function
of the extra namespaces a sibling names (``torch.nn.functional``) runs through
``handler(target, original, args, kwargs)``, which returns the call's result.
``target`` names the binding (``"torch.add"``, ``"Tensor.__add__"``, ``"Tensor.T"``,
``"ops.convolution"``, ``"torch.nn.functional.relu"``); ``original`` computes the call
(the plain function, or the next layer of the mechanism). The handler decides what to
record: op bindings call one another, so a tracer records the outermost call and runs
the nested ones as they are.

With ``sizes=True``, ``Tensor.size`` and the ``Tensor.shape`` property are routed through
the handler too (``"Tensor.size"``, ``"Tensor.shape"``), so that a tracer can record
where sizes come from.

An interception is the innermost layer: under autocast (or inside a profile or a
``torch.func`` transform) the handler sees the calls those layers make, as PyTorch's
tracer does (a trace taken under autocast records the casts as ``Tensor.to`` calls and
the op on the cast tensors). Without any active layer the bindings are the plain
functions: tracing costs nothing when nobody traces. Interceptions do not nest (a second
``start`` raises) and are process-wide: a tracer must not run beside other threads that
compute with torch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .. import _op_calls
from .._op_calls import PLUMBING, TENSOR_PROPERTIES

__all__ = ["Interception", "start", "active", "TENSOR_PROPERTIES", "PLUMBING"]

_active: Interception | None = None


class Interception:
    """An active routing of the bindings through ``handler`` (see :func:`start`);
    :meth:`stop` ends it."""

    def __init__(self, handler: Callable[[str, Any, tuple, dict], Any]) -> None:
        self.handler = handler

    def stop(self) -> None:
        """Stop routing calls through the handler (idempotent)."""
        global _active
        with _op_calls._lock:
            if self in _op_calls.active():
                _op_calls.deactivate(self)
            if _active is self:
                _active = None

    def __enter__(self) -> Interception:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def start(
    handler: Callable[[str, Any, tuple, dict], Any],
    namespaces: Iterable[str] = (),
    sizes: bool = False,
) -> Interception:
    """Route every op call through ``handler`` until the returned interception stops.
    ``namespaces`` names sibling modules (already imported) whose public functions are
    intercepted too; ``sizes`` adds ``Tensor.size`` and ``Tensor.shape``."""
    global _active
    with _op_calls._lock:
        if _active is not None:
            raise RuntimeError("an op interception (a trace) is already active in this process")
        interception = Interception(handler)
        _op_calls.start_interception(interception, tuple(namespaces), sizes)
        _active = interception
    return interception


def active() -> Interception | None:
    """The active interception, or None."""
    return _active
