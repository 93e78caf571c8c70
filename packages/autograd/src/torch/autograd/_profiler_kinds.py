"""The kinds of activity a profile records and whether a device tracer is built in:
shared by ``torch.profiler`` and ``torch.autograd`` (PyTorch exports both names from
``torch.autograd`` and ``torch.autograd.profiler`` too)."""

from __future__ import annotations

import enum

__all__ = ["ProfilerActivity", "kineto_available"]


class ProfilerActivity(enum.Enum):
    """What a profile records: ``CPU`` ops are what there is here; the device kinds are
    accepted and record nothing (there are no device kernels)."""

    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5


def kineto_available() -> bool:
    """Whether PyTorch's Kineto tracer is built in: False (ops are timed in Python)."""
    return False
