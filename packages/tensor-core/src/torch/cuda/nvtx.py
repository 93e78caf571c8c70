"""torch.cuda.nvtx: NVIDIA Tools Extension ranges and markers for profilers such as Nsight.

The markers go to the CUDA runtime's NVTX binding; without CUDA they fail as in PyTorch's
CPU build.
"""

from __future__ import annotations

from contextlib import contextmanager as _contextmanager

from . import _state

__all__ = ["range_push", "range_pop", "range_start", "range_end", "mark", "range"]

_NOT_INSTALLED = "NVTX functions not installed. Are you sure you have a CUDA build?"


def _nvtx(stub_attribute: str | None = None):
    rt = _state.runtime()
    if rt is None:
        if stub_attribute is not None:  # PyTorch's stub lacks these two outright
            raise AttributeError(f"'_NVTXStub' object has no attribute '{stub_attribute}'")
        raise RuntimeError(_NOT_INSTALLED)
    return _state.runtime_method(rt, "nvtx")()


def range_push(msg: str):
    """Open a nested range named ``msg``; returns its depth."""
    return _nvtx().range_push(msg)


def range_pop():
    """Close the innermost open range; returns its depth."""
    return _nvtx().range_pop()


def range_start(msg: str) -> int:
    """Open a range that may end on another thread; returns its id for :func:`range_end`."""
    return _nvtx("rangeStartA").range_start(msg)


def range_end(range_id: int) -> None:
    """Close the range :func:`range_start` opened."""
    _nvtx("rangeEnd").range_end(range_id)


def mark(msg: str) -> None:
    """Put an instantaneous marker named ``msg`` on the timeline."""
    _nvtx().mark(msg)


@_contextmanager
def range(msg: str, *args, **kwargs):  # noqa: A001 - PyTorch's name
    """A range named ``msg.format(*args, **kwargs)`` around a ``with`` block."""
    range_push(msg.format(*args, **kwargs))
    try:
        yield
    finally:
        range_pop()
