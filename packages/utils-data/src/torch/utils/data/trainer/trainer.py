"""Trainer: one optimisation step per batch, with plugins called on a schedule."""

from __future__ import annotations

import heapq
import itertools

__all__ = ["Trainer"]

# The events plugins can subscribe to, each counted in its own unit.
_UNITS = ("iteration", "epoch", "batch", "update")


class Trainer:
    """Trains ``model`` on the ``(input, target)`` batches of ``dataset`` (usually a
    :class:`~torch.utils.data.DataLoader`).

    For each batch the trainer calls the ``batch`` plugins, then
    ``optimizer.step(closure)`` where the closure zeroes nothing, runs the model,
    computes ``criterion(output, target)`` and calls ``backward()`` (so optimizers
    that re-evaluate, like LBFGS, work), then the ``iteration`` plugins (with input,
    target, output and loss) and the ``update`` plugins (with the model). After each
    pass over the data the ``epoch`` plugins run.

    A plugin declares ``trigger_interval``: a list of ``(every, unit)`` pairs, where
    unit is ``"iteration"``, ``"batch"``, ``"update"`` or ``"epoch"``; the trainer calls
    the plugin's method of that name every ``every`` units. Plugins share results
    through ``trainer.stats`` (e.g. ``trainer.stats["loss"]["running_avg"]``).

    Args:
        model (Callable, optional): maps an input batch to an output batch.
        criterion (Callable, optional): maps ``(output, target)`` to a scalar loss.
        optimizer (Optimizer, optional): updates the model's parameters.
        dataset (Iterable, optional): yields ``(input, target)`` pairs.

    Examples::

        >>> from torch.utils.data.trainer.plugins import LossMonitor
        >>> class Scale:  # a one-parameter model with a hand-written gradient
        ...     w = 1.0
        ...     def __call__(self, x):
        ...         return x * self.w
        >>> class Loss:
        ...     def __init__(self, value):
        ...         self.value = value
        ...     def backward(self):
        ...         pass
        ...     def item(self):
        ...         return self.value
        >>> class Step:  # an "optimizer" that only runs the closure
        ...     def zero_grad(self):
        ...         pass
        ...     def step(self, closure):
        ...         return closure()
        >>> data = [(torch.tensor([1.0]), torch.tensor([2.0]))] * 3
        >>> criterion = lambda out, y: Loss(float(((out - y) ** 2).sum()))
        >>> trainer = Trainer(Scale(), criterion, Step(), data)
        >>> trainer.register_plugin(LossMonitor())
        >>> trainer.run(epochs=2)
        >>> trainer.iterations, trainer.stats["loss"]["last"], trainer.stats["loss"]["epoch_mean"]
        (6, 1.0, 1.0)
    """

    def __init__(self, model=None, criterion=None, optimizer=None, dataset=None) -> None:
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer
        self.dataset = dataset
        self.iterations = 0
        self.stats: dict = {}
        self.plugin_queues: dict[str, list] = {unit: [] for unit in _UNITS}
        self._order = itertools.count()  # breaks ties between plugins due together

    def register_plugin(self, plugin) -> None:
        """Attach ``plugin`` and schedule it for each of its trigger intervals.

        Args:
            plugin (Plugin): the plugin.
        """
        plugin.register(self)
        intervals = plugin.trigger_interval
        if not isinstance(intervals, list):
            intervals = [intervals]
        for every, unit in intervals:
            if unit not in self.plugin_queues:
                raise ValueError(f"unknown plugin trigger unit {unit!r}; use one of {_UNITS}")
            heapq.heappush(self.plugin_queues[unit], (every, next(self._order), plugin))

    def call_plugins(self, queue_name: str, time: int, *args) -> None:
        """Call the plugins of ``queue_name`` that are due at ``time`` (a count of that
        unit), then schedule each one's next call.

        Args:
            queue_name (str): ``"iteration"``, ``"batch"``, ``"update"`` or ``"epoch"``.
            time (int): the current count of that unit, from 1.
            *args (Any): passed to the plugins after ``time``.
        """
        queue = self.plugin_queues[queue_name]
        while queue and queue[0][0] <= time:
            _, _, plugin = queue[0]
            getattr(plugin, queue_name)(time, *args)
            every = _interval_of(plugin, queue_name)
            heapq.heapreplace(queue, (time + every, next(self._order), plugin))

    def run(self, epochs: int = 1) -> None:
        """Train for ``epochs`` passes over the dataset.

        Args:
            epochs (int): number of passes. Default: ``1``.
        """
        for epoch in range(1, epochs + 1):
            self.train()
            self.call_plugins("epoch", epoch)

    def train(self) -> None:
        """One pass over the dataset: one optimizer step per batch."""
        for i, (batch_input, batch_target) in enumerate(self.dataset, self.iterations + 1):
            self.call_plugins("batch", i, batch_input, batch_target)
            output, loss = self._step(batch_input, batch_target)
            self.call_plugins("iteration", i, batch_input, batch_target, output, loss)
            self.call_plugins("update", i, self.model)
            self.iterations = i

    def _step(self, batch_input, batch_target):
        first = []  # output and loss of the closure's first evaluation

        def closure():
            output = self.model(batch_input)
            loss = self.criterion(output, batch_target)
            loss.backward()
            if not first:
                first.extend((_detached(output), _detached(loss)))
            return loss

        self.optimizer.zero_grad()
        self.optimizer.step(closure)
        return first[0], first[1]


def _detached(value):
    detach = getattr(value, "detach", None)
    return detach() if detach is not None else value


def _interval_of(plugin, unit: str) -> int:
    intervals = plugin.trigger_interval
    if not isinstance(intervals, list):
        intervals = [intervals]
    for every, name in intervals:
        if name == unit:
            return every
    raise ValueError(f"plugin {plugin!r} has no trigger interval for {unit!r}")
