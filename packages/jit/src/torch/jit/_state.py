"""Process-wide state of torch.jit: the active tracer, and whether JIT is enabled.

``is_tracing`` reads :data:`tracing.tracer`; the tracer sets it for the duration of a
trace. Scripted code never runs in Python, so ``is_scripting`` is False whenever Python
evaluates it (the script compiler replaces the call by the constant True).
"""

from __future__ import annotations

import os
import warnings

__all__ = ["enabled", "is_scripting", "is_tracing", "disable", "enable", "warn_deprecated"]

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

        >>> torch.jit.is_scripting()
        False
    """
    return False


def is_tracing() -> bool:
    """True while :func:`torch.jit.trace` runs the traced code.

    >>> torch.jit.is_tracing()
    False
    """
    return tracing.tracer is not None


def warn_deprecated(name: str, instead: str = "`torch.compile` or `torch.export`") -> None:
    """PyTorch 2.13's deprecation warning of a torch.jit entry point, attributed (as
    PyTorch's is) to the entry point itself, inside torch: Python's default filters then
    hide it, as they hide PyTorch's, where one attributed to a script's own line shows."""
    warnings.warn(
        f"`torch.jit.{name}` is deprecated. Please {_verb(instead)} {instead}.",
        DeprecationWarning,
        stacklevel=2,
    )


def _verb(instead: str) -> str:
    # "Please use `torch.compile` instead." / "Please switch to `torch.export`."
    return "use" if instead.endswith("instead") else "switch to"


def disable() -> None:
    global enabled
    enabled = False


def enable() -> None:
    global enabled
    enabled = True
