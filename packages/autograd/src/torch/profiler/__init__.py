"""``torch.profiler``: time the ops of a program (``profile`` with activities, a step
schedule and trace callbacks; ``record_function`` to mark blocks). Built on the recorder
of ``torch.autograd.profiler``, shipped by torch-autograd."""

from torch.autograd._profiler_kinds import kineto_available
from torch.autograd.profiler import record_function

from . import profiler  # noqa: F401 - torch.profiler.profiler, as in PyTorch
from .profiler import (
    ProfilerAction,
    ProfilerActivity,
    profile,
    schedule,
    supported_activities,
    tensorboard_trace_handler,
)

__all__ = [
    "profile",
    "schedule",
    "supported_activities",
    "tensorboard_trace_handler",
    "ProfilerAction",
    "ProfilerActivity",
    "record_function",
    "kineto_available",
]
