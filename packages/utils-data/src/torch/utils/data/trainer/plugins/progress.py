"""ProgressMonitor: how far the current epoch is, with a tqdm progress bar."""

from __future__ import annotations

from .plugin import Plugin

__all__ = ["ProgressMonitor"]


class ProgressMonitor(Plugin):
    """Counts the batches of the current epoch under ``trainer.stats["progress"]``
    (``samples_used``, ``epoch_size``, ``percent``) and, when tqdm is installed and
    ``bar`` is true, draws a progress bar per epoch showing the other monitors' last
    values (e.g. the loss).

    Args:
        bar (bool): draw a tqdm bar (ignored without tqdm). Default: ``True``.
        **tqdm_kwargs (Any): passed to ``tqdm`` (e.g. ``file``, ``leave``, ``disable``).
    """

    stat_name = "progress"

    def __init__(self, bar: bool = True, **tqdm_kwargs) -> None:
        super().__init__([(1, "iteration"), (1, "epoch")])
        self.bar_enabled = bar
        self.tqdm_kwargs = tqdm_kwargs
        self.bar = None
        self._epoch = 1

    def register(self, trainer) -> None:
        super().register(trainer)
        stats = trainer.stats.setdefault(self.stat_name, {})
        stats["samples_used"] = 0
        stats["epoch_size"] = _length(trainer.dataset)
        stats["percent"] = 0.0
        stats["log_iter_fields"] = ["{samples_used}/{epoch_size}", "({percent:.2f}%)"]

    def iteration(self, iteration: int, *args) -> None:
        stats = self.trainer.stats[self.stat_name]
        stats["samples_used"] += 1
        if stats["epoch_size"]:
            stats["percent"] = 100.0 * stats["samples_used"] / stats["epoch_size"]
        bar = self._open_bar()
        if bar is not None:
            bar.update(1)
            bar.set_postfix(self._postfix(), refresh=False)

    def epoch(self, idx: int) -> None:
        stats = self.trainer.stats[self.stat_name]
        stats["samples_used"] = 0
        stats["percent"] = 0.0
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        self._epoch = idx + 1

    def _open_bar(self):
        if self.bar is None and self.bar_enabled:
            tqdm = _tqdm()
            if tqdm is not None:
                total = self.trainer.stats[self.stat_name]["epoch_size"]
                options = {"desc": f"epoch {self._epoch}", "total": total, **self.tqdm_kwargs}
                self.bar = tqdm(**options)
        return self.bar

    def _postfix(self) -> dict:
        """The last value of every monitor, formatted as it logs itself."""
        shown = {}
        for name, stats in self.trainer.stats.items():
            if name == self.stat_name or "last" not in stats:
                continue
            shown[name] = format(stats["last"], stats.get("log_format", "")) + stats.get(
                "log_unit", ""
            )
        return shown


def _length(dataset):
    try:
        return len(dataset)
    except TypeError:  # a stream without a length
        return None


def _tqdm():
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is optional (pip install torch-utils-data[progress])
        return None
    return tqdm
