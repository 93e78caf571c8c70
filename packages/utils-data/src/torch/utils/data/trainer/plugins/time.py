"""TimeMonitor: milliseconds per iteration."""

from __future__ import annotations

import time as _time

from .monitor import Monitor

__all__ = ["TimeMonitor"]


class TimeMonitor(Monitor):
    """Records the wall-clock milliseconds since the previous iteration (the first one
    counts from registration) under ``trainer.stats["time"]``.

    Args:
        **kwargs (Any): options of :class:`Monitor` (defaults: no decimals, unit ``"ms"``).
    """

    stat_name = "time"

    def __init__(self, **kwargs) -> None:
        super().__init__(**{"precision": 0, "unit": "ms", **kwargs})
        self._last = None

    def register(self, trainer) -> None:
        super().register(trainer)
        self._last = _time.perf_counter()

    def _get_value(self, *args) -> float:
        now = _time.perf_counter()
        elapsed, self._last = (now - self._last) * 1000.0, now
        return elapsed
