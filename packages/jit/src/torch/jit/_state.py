"""Process-wide state of torch.jit: the active tracer, and whether JIT is enabled.

``is_tracing`` reads :data:`tracing.tracer`; the tracer sets it for the duration of a
trace. Scripted code never runs in Python, so ``is_scripting`` is False whenever Python
evaluates it (the script compiler replaces the call by the constant True).
"""

from __future__ import annotations

import os

__all__ = ["enabled", "is_scripting", "is_tracing", "disable", "enable"]

#: ``PYTORCH_JIT=0`` makes ``script`` and ``trace`` return their argument, as PyTorch does
enabled = os.environ.get("PYTORCH_JIT", "1") != "0"


class _TracingState:
    __slots__ = ("tracer",)

    def __init__(self) -> None:
        self.tracer = None


tracing = _TracingState()


def is_scripting() -> bool:
    """True in code compiled by :func:`torch.jit.script`, False in eager Python.

    Use it to keep code that the script compiler does not support out of scripted
    functions::

        >>> import torch
        >>> torch.jit.is_scripting()
        False
    """
    return False


def is_tracing() -> bool:
    """True while :func:`torch.jit.trace` runs the traced code.

    >>> import torch
    >>> torch.jit.is_tracing()
    False
    """
    return tracing.tracer is not None


def disable() -> None:
    global enabled
    enabled = False


def enable() -> None:
    global enabled
    enabled = True
