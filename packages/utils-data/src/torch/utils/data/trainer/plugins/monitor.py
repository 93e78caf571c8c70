"""Monitor: a plugin that records one number per iteration into ``trainer.stats``."""

from __future__ import annotations

from .plugin import Plugin

__all__ = ["Monitor"]


class Monitor(Plugin):
    """Records a value per iteration under ``trainer.stats[stat_name]``: ``last``, an
    exponential ``running_avg`` and, at each epoch's end, ``epoch_mean``.

    Subclasses set ``stat_name`` and implement ``_get_value(iteration, input, target,
    output, loss)``.

    Args:
        running_average (bool): keep ``running_avg``. Default: ``True``.
        epoch_average (bool): keep ``epoch_mean``. Default: ``True``.
        smoothing (float): weight of the old average in ``running_avg``. Default: ``0.7``.
        precision (int, optional): decimals when logged. Default: ``4``.
        number_format (str, optional): format spec when logged; overrides ``precision``.
        unit (str): appended to logged values. Default: ``""``.
    """

    stat_name = "value"

    def __init__(
        self,
        running_average: bool = True,
        epoch_average: bool = True,
        smoothing: float = 0.7,
        precision: int | None = None,
        number_format: str | None = None,
        unit: str = "",
    ) -> None:
        super().__init__([(1, "iteration"), (1, "epoch")])
        self.running_average = running_average
        self.epoch_average = epoch_average
        self.smoothing = smoothing
        precision = 4 if precision is None else precision
        self.log_format = number_format if number_format is not None else f".{precision}f"
        self.log_unit = unit

    def register(self, trainer) -> None:
        super().register(trainer)
        stats = trainer.stats.setdefault(self.stat_name, {})
        stats["log_format"] = self.log_format
        stats["log_unit"] = self.log_unit
        # templates that Logger fills from these stats, unit included
        unit, spec = self.log_unit, self.log_format
        stats["log_iter_fields"] = ["{last:" + spec + "}" + unit]
        if self.running_average:
            stats["log_iter_fields"].append("({running_avg:" + spec + "}" + unit + ")")
        if self.epoch_average:
            stats["log_epoch_fields"] = ["{epoch_mean:" + spec + "}" + unit]
            stats["epoch_stats"] = (0, 0)

    def _get_value(self, *args):
        raise NotImplementedError(f"{type(self).__name__} must implement _get_value")

    def iteration(self, *args) -> None:
        stats = self.trainer.stats[self.stat_name]
        value = self._get_value(*args)
        stats["last"] = value
        if self.epoch_average:
            total, count = stats["epoch_stats"]
            stats["epoch_stats"] = (total + value, count + 1)
        if self.running_average:
            previous = stats.get("running_avg", value)
            stats["running_avg"] = self.smoothing * previous + (1 - self.smoothing) * value

    def epoch(self, idx: int) -> None:
        if not self.epoch_average:
            return
        stats = self.trainer.stats[self.stat_name]
        total, count = stats["epoch_stats"]
        if count:
            stats["epoch_mean"] = total / count
        stats["epoch_stats"] = (0, 0)
