"""Op-call interception for siblings (torch-autograd's profiler): see ``torch._op_calls``.

An interceptor is an object with ``wants(op_name) -> bool`` and
``__call__(op_name, function, args, kwargs)``, which must call
``function(*args, **kwargs)`` and return its result; ``registry_functions = True`` makes
it see the calls through ``ops[name].function`` too (torch-nn's calls of core kernels,
torch-autograd's derivative formulas). While none is active the bindings are the plain
functions, so interception costs nothing then. Op names are PyTorch's (``"add"``,
``"mm"``, ``"linalg_solve"``, ``"cross_entropy_loss"``); Python operators map to their
op (``Tensor.__iadd__`` is ``"add_"``). Core's autocast acts through the same mechanism,
so several interceptors may be active at once, outermost first.
"""

from __future__ import annotations

from .._op_calls import activate, active, deactivate

__all__ = ["activate", "deactivate", "active"]
