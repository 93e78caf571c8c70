"""LossMonitor: the loss of each iteration."""

from __future__ import annotations

from .monitor import Monitor

__all__ = ["LossMonitor"]


class LossMonitor(Monitor):
    """Records ``loss.item()`` under ``trainer.stats["loss"]`` (see :class:`Monitor` for
    the options)."""

    stat_name = "loss"

    def _get_value(self, iteration, input, target, output, loss) -> float:
        return float(loss.item())
