"""Op-call interception by op name, for siblings (torch-autograd's profiler and
torch.func transform levels): a view of core's one op-call mechanism
(``torch._op_calls``), which core's autocast and torch-jit's tracer
(``torch._interface.tracing``) use too.

An interceptor is an object with ``wants(op_name) -> bool`` and
``__call__(op_name, function, args, kwargs)``, which must call
``function(*args, **kwargs)`` and return its result; ``registry_functions = True`` makes
it see the calls through ``ops[name].function`` too (torch-nn's calls of core kernels,
torch-autograd's derivative formulas). While none is active the bindings are the plain
functions, so interception costs nothing then. Op names are PyTorch's (``"add"``,
``"mm"``, ``"linalg_solve"``, ``"cross_entropy_loss"``); Python operators map to their
op (``Tensor.__iadd__`` is ``"add_"``).

Several interceptors may be active at once; each wrapped binding runs them ordered by
their ``order`` attribute (lower is outer, 0 when absent; equal orders in activation
order): ``PROFILER_ORDER`` (0) < ``TRANSFORM_ORDER`` (10) < ``AUTOCAST_ORDER`` (20) <
``TRACER_ORDER`` (30, a trace's interception), as PyTorch's dispatch keys nest.
:func:`active` lists what is active, interceptions of a trace included, outermost first.
"""

from __future__ import annotations

from .._op_calls import (
    AUTOCAST_ORDER,
    PROFILER_ORDER,
    TRACER_ORDER,
    TRANSFORM_ORDER,
    activate,
    active,
    deactivate,
)

__all__ = [
    "activate",
    "deactivate",
    "active",
    "PROFILER_ORDER",
    "TRANSFORM_ORDER",
    "AUTOCAST_ORDER",
    "TRACER_ORDER",
]
