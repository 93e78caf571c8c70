"""NumPy's BLAS and LAPACK entry points, made safe to fork around.

A BLAS library's thread pool cannot be forked while a call is using it: NumPy's
OpenBLAS shuts its pool down in a fork handler, and if another thread is inside a
threaded GEMM at that moment the fork hangs forever (MKL's internal locks, held mid-call,
would be copied locked into the child instead). So torch never calls BLAS outside the
*fork gate*: every entry point here (and torch._C's own GEMM) is wrapped so that a call
registers itself, and the ``os.register_at_fork`` hooks below make a fork wait until no
call is in flight, holding new calls back until the fork is done. The wait releases the
GIL; a call in flight just finishes. The child starts with the gate open and empty.
At interpreter exit the gate closes for good, for OpenBLAS's exit-time shutdown has the
same race (a daemon thread multiplying matrices hung the process's exit).

Use ``_blas.matmul(a, b)`` or ``_blas.linalg.svd(a)`` wherever torch would call
``np.matmul`` or ``np.linalg.svd``; the cost is one uncontended atomic add per call.
"""

from __future__ import annotations

import atexit
import os
import threading
import types

import numpy as np

from . import _native

__all__ = ["gated", "matmul", "dot", "einsum", "tensordot", "inner", "vdot", "linalg"]


class _PythonGate:
    """The gate for the pure-NumPy path (``TORCH_NATIVE=0``): the same protocol as
    torch._C's, on a condition variable."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._inflight = 0
        self._closers = 0
        self._depth = threading.local()
        self._exempt = None  # the thread that closed the gate at exit (it still passes)

    def gated(self, function):
        def call(*args, **kwargs):
            depth = getattr(self._depth, "n", 0)
            if depth == 0:
                self._enter()
            self._depth.n = depth + 1
            try:
                return function(*args, **kwargs)
            finally:
                self._depth.n = depth
                if depth == 0:
                    self._leave()

        call.__wrapped__ = function
        return call

    def _enter(self) -> None:
        with self._cond:
            if threading.get_ident() != self._exempt:
                self._cond.wait_for(lambda: self._closers == 0)
            self._inflight += 1

    def _leave(self) -> None:
        with self._cond:
            self._inflight -= 1
            self._cond.notify_all()

    def close(self) -> None:
        own = 1 if getattr(self._depth, "n", 0) else 0
        with self._cond:
            self._closers += 1
            self._cond.wait_for(lambda: self._inflight == own)

    def open(self) -> None:
        with self._cond:
            self._closers = max(0, self._closers - 1)
            self._cond.notify_all()

    def close_at_exit(self) -> None:
        self.close()
        self._exempt = threading.get_ident()

    def reset_in_child(self) -> None:
        self._cond = threading.Condition()
        self._inflight = 1 if getattr(self._depth, "n", 0) else 0
        self._closers = 0

    def state(self) -> tuple[int, int]:
        return self._inflight, self._closers


if _native.ENABLED:
    gated = _native.kernels.fork_gated
    _close = _native.kernels.fork_gate_close
    _close_at_exit = _native.kernels.fork_gate_close_at_exit
    _open = _native.kernels.fork_gate_open
    _after_in_child = None  # torch._C resets its gate in a pthread_atfork child handler
    gate_state = _native.kernels.fork_gate_state
else:
    _python_gate = _PythonGate()
    gated = _python_gate.gated
    _close = _python_gate.close
    _close_at_exit = _python_gate.close_at_exit
    _open = _python_gate.open
    _after_in_child = _python_gate.reset_in_child
    gate_state = _python_gate.state

_hooks = {"before": _close, "after_in_parent": _open}
if _after_in_child is not None:
    _hooks["after_in_child"] = _after_in_child
os.register_at_fork(**_hooks)
# The same race ends a process: OpenBLAS's library destructor shuts its pool down at
# exit(), and hangs if a daemon thread is mid-GEMM then. So the gate closes for good at
# interpreter exit (atexit runs while daemon threads still run): calls in flight finish,
# later ones from other threads wait until the process is gone; the finalizing thread
# itself still passes (atexit handlers registered before torch's run after it).
atexit.register(_close_at_exit)

matmul = gated(np.matmul)
dot = gated(np.dot)
einsum = gated(np.einsum)
tensordot = gated(np.tensordot)
inner = gated(np.inner)
vdot = gated(np.vdot)


def _gated_namespace(module) -> types.SimpleNamespace:
    """``module``'s public functions gated; its classes (``LinAlgError``) as they are."""
    names = {}
    for name in getattr(module, "__all__", dir(module)):
        value = getattr(module, name)
        gate_it = callable(value) and not isinstance(value, type)
        names[name] = gated(value) if gate_it else value
    return types.SimpleNamespace(**names)


linalg = _gated_namespace(np.linalg)
