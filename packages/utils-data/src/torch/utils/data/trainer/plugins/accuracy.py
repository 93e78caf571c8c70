"""AccuracyMonitor: the percentage of a batch classified correctly."""

from __future__ import annotations

from .monitor import Monitor

__all__ = ["AccuracyMonitor"]


class AccuracyMonitor(Monitor):
    """Records the percentage of samples whose highest-scoring class (``output``'s
    argmax along dim 1) equals ``target``, under ``trainer.stats["accuracy"]``.

    Args:
        **kwargs (Any): options of :class:`Monitor` (defaults: 2 decimals, unit ``"%"``).
    """

    stat_name = "accuracy"

    def __init__(self, **kwargs) -> None:
        super().__init__(**{"precision": 2, "unit": "%", **kwargs})

    def _get_value(self, iteration, input, target, output, loss) -> float:
        predictions = output.argmax(1)
        correct = int((predictions == target.to(predictions.dtype)).sum().item())
        return 100.0 * correct / int(target.shape[0])
