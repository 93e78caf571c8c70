"""Logger: prints the statistics of other plugins."""

from __future__ import annotations

import sys

from .plugin import Plugin

__all__ = ["Logger"]


class Logger(Plugin):
    """Prints the named fields of ``trainer.stats``: each iteration the fields'
    ``log_iter_fields`` (e.g. ``loss: 0.1234 (0.2000)``), each epoch their
    ``log_epoch_fields`` (e.g. ``loss: 0.1500``). Lines go through ``tqdm.write`` when
    tqdm is installed so that they do not break a progress bar.

    Args:
        fields (list of str): names of the statistics, e.g. ``["progress", "loss"]``.
        interval (list, optional): ``(every, unit)`` pairs. Default:
            ``[(1, "iteration"), (1, "epoch")]``.
        file (file, optional): where to print. Default: ``sys.stdout``.
    """

    def __init__(self, fields, interval=None, file=None) -> None:
        if interval is None:
            interval = [(1, "iteration"), (1, "epoch")]
        super().__init__(interval)
        self.fields = list(fields)
        self.file = file

    def iteration(self, iteration: int, *args) -> None:
        parts = [self._format(name, "log_iter_fields") for name in self.fields]
        self._print(f"iteration {iteration}: " + "  ".join(p for p in parts if p))

    def epoch(self, idx: int) -> None:
        parts = [self._format(name, "log_epoch_fields") for name in self.fields]
        self._print(f"epoch {idx}: " + "  ".join(p for p in parts if p))

    def _format(self, name: str, kind: str) -> str:
        stats = self.trainer.stats.get(name, {})
        templates = stats.get(kind)
        if not templates:
            return ""
        try:
            text = " ".join(template.format(**stats) for template in templates)
        except KeyError:  # no value yet (e.g. no iteration in this epoch)
            return ""
        return f"{name}: {text}"

    def _print(self, line: str) -> None:
        file = self.file if self.file is not None else sys.stdout
        try:
            from tqdm.auto import tqdm
        except ImportError:
            print(line, file=file)
            return
        tqdm.write(line, file=file)
