"""Base class of trainer plugins."""

from __future__ import annotations

__all__ = ["Plugin"]


class Plugin:
    """Something the :class:`~torch.utils.data.Trainer` calls on a schedule.

    A subclass defines a method per unit it subscribes to (``iteration``, ``batch``,
    ``update``, ``epoch``); each receives the count of that unit first.

    Args:
        interval (list, optional): ``(every, unit)`` pairs, e.g.
            ``[(1, "iteration"), (1, "epoch")]``. Default: none.
    """

    def __init__(self, interval=None) -> None:
        self.trigger_interval = list(interval) if interval is not None else []
        self.trainer = None

    def register(self, trainer) -> None:
        """Called once by :meth:`Trainer.register_plugin`.

        Args:
            trainer (Trainer): the trainer this plugin is attached to.
        """
        self.trainer = trainer
