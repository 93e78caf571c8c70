"""Plugins for :class:`~torch.utils.data.Trainer`: monitors that keep statistics in
``trainer.stats`` (loss, accuracy, time per iteration, progress through the epoch,
with a tqdm progress bar when tqdm is installed) and a logger that prints them."""

from .accuracy import AccuracyMonitor
from .logger import Logger
from .loss import LossMonitor
from .monitor import Monitor
from .plugin import Plugin
from .progress import ProgressMonitor
from .time import TimeMonitor

__all__ = [
    "AccuracyMonitor",
    "Logger",
    "LossMonitor",
    "Monitor",
    "Plugin",
    "ProgressMonitor",
    "TimeMonitor",
]
