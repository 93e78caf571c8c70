"""torch.cuda.profiler: start and stop the CUDA profiler (``cudaProfilerStart``/``Stop``)."""

from __future__ import annotations

import contextlib as _contextlib

from . import _state

__all__ = ["start", "stop", "profile", "DEFAULT_FLAGS"]

# the options of the legacy command-line profiler, kept for scripts that read them
DEFAULT_FLAGS = [
    "gpustarttimestamp",
    "gpuendtimestamp",
    "gridsize3d",
    "threadblocksize",
    "streamid",
    "enableonstart 0",
    "conckerneltrace",
]


def __getattr__(name):
    # PyTorch's module also shows these two of torch.cuda's (it imports them)
    if name in ("check_error", "cudart"):
        import torch

        return getattr(torch.cuda, name)
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(("check_error", "cudart")))


def start() -> None:
    """Start collecting profile data on the CUDA device."""
    rt = _state.lazy_init()
    _state.runtime_method(rt, "profiler_start")()


def stop() -> None:
    """Stop collecting profile data on the CUDA device."""
    rt = _state.lazy_init()
    _state.runtime_method(rt, "profiler_stop")()


@_contextlib.contextmanager
def profile():
    """Profile the CUDA work of a ``with`` block (start, then stop on exit)."""
    try:
        start()
        yield
    finally:
        stop()
