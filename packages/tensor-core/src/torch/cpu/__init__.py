"""torch.cpu: the CPU as a device with PyTorch's device-module API (one device, one
stream that runs everything in order), and its autocast spelling ``torch.cpu.amp``."""

from __future__ import annotations

import contextlib
import os
import platform
from collections.abc import Mapping
from typing import Any

from . import amp  # noqa: F401 - torch.cpu.amp, as PyTorch imports it

__all__ = [
    "is_available", "is_initialized", "synchronize", "current_device", "current_stream",
    "stream", "set_device", "device_count", "Stream", "StreamContext", "Event",
    "get_capabilities",
]  # fmt: skip


def is_available() -> bool:
    """Always True: the CPU is there."""
    return True


def is_initialized() -> bool:
    """Always True: the CPU needs no initialisation."""
    return True


def synchronize(device=None) -> None:
    """Wait for the CPU's work: a no-op, CPU ops finish before they return."""


def current_device() -> str:
    """``"cpu"``."""
    return "cpu"


def set_device(device) -> None:
    """A no-op: there is one CPU device."""


def device_count() -> int:
    """1."""
    return 1


class Stream:
    """The CPU's stream: work runs in order, so its methods have nothing to wait for.

    Args:
        priority (int): ignored. Default: -1.
    """

    def __init__(self, priority: int = -1) -> None:
        self.priority = priority

    def wait_stream(self, stream) -> None:
        """A no-op."""

    def record_event(self, event=None):
        """A no-op; returns ``event``."""
        return event

    def wait_event(self, event) -> None:
        """A no-op."""


class Event:
    """A CPU event: always complete."""

    def query(self) -> bool:
        return True

    def record(self, stream=None) -> None:
        """A no-op."""

    def synchronize(self) -> None:
        """A no-op."""

    def wait(self, stream=None) -> None:
        """A no-op."""


_default_stream = Stream()
_current = _default_stream


def current_stream(device=None) -> Stream:
    """The CPU's current stream."""
    return _current


class StreamContext(contextlib.AbstractContextManager):
    """Make ``stream`` the current stream inside a ``with`` block."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.prev_stream = _default_stream

    def __enter__(self):
        global _current
        if self.stream is None:
            return None
        self.prev_stream, _current = _current, self.stream
        return None

    def __exit__(self, *exc) -> None:
        global _current
        if self.stream is not None:
            _current = self.prev_stream


def stream(stream: Stream) -> contextlib.AbstractContextManager:
    """A context that makes ``stream`` current (:class:`StreamContext`)."""
    return StreamContext(stream)


def get_capabilities() -> Mapping[str, Any]:
    """What is known of this CPU: its architecture, name and core count."""
    return {
        "architecture": platform.machine(),
        "cpu_name": platform.processor() or platform.machine(),
        "num_logical_cores": os.cpu_count() or 1,
    }
