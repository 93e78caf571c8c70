"""``torch.set_num_threads`` and friends: how many threads the native kernels use.

torch._C runs its large kernels (elementwise math, sums, convolutions, BLAS blocks,
optimizer updates) on one pool of threads, as many as the machine has (at most 8).
``set_num_threads(n)`` caps every kernel at ``n`` of them; more than the pool holds means
the whole pool. There is no inter-op parallelism here: the inter-op setting is kept and
reported only.
"""

from __future__ import annotations

import os

__all__ = [
    "get_num_threads",
    "set_num_threads",
    "get_num_interop_threads",
    "set_num_interop_threads",
]

_state = {"threads": None, "interop": None}


def _kernels():
    from . import _native

    return _native.kernels  # torch._C, or its pure-Python stand-in under TORCH_NATIVE=0


def _check(name: str, value) -> int:
    if type(value) is not int:
        raise RuntimeError(f"{name} expects an int, but got {type(value).__name__}")
    if value <= 0:
        raise RuntimeError(f"{name} expects a positive integer")
    return value


def set_num_threads(int: int) -> None:  # noqa: A002 (PyTorch's parameter name)
    """Use at most ``int`` threads in each kernel.

    Examples::

        >>> torch.set_num_threads(1)
        >>> torch.get_num_threads()
        1
    """
    threads = _check("set_num_threads", int)
    _state["threads"] = threads
    kernels = _kernels()
    if kernels is not None and hasattr(kernels, "set_thread_limit"):
        kernels.set_thread_limit(threads)


def get_num_threads() -> int:
    """The number of threads a kernel uses (what :func:`set_num_threads` set, or the
    machine's cores, at most 8)."""
    if _state["threads"] is not None:
        return _state["threads"]
    kernels = _kernels()
    if kernels is not None and hasattr(kernels, "default_threads"):
        return kernels.default_threads()
    return max(1, min(os.cpu_count() or 1, 8))


def set_num_interop_threads(int: int) -> None:  # noqa: A002
    """Record the number of inter-op threads (accepted for compatibility: ops here run
    one after another on the calling thread)."""
    _state["interop"] = _check("set_num_interop_threads", int)


def get_num_interop_threads() -> int:
    """The number set by :func:`set_num_interop_threads`, else the machine's cores."""
    if _state["interop"] is not None:
        return _state["interop"]
    return max(1, os.cpu_count() or 1)
