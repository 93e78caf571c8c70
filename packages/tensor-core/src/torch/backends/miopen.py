"""torch.backends.miopen: AMD's MIOpen (ROCm builds only); its switch is kept and read back."""

from __future__ import annotations

import sys as _sys

from . import ContextProp, PropModule, _flags_scope, _precision

__all__ = ["flags", "set_flags", "ContextProp", "MiopenModule", "PropModule"]

_state = {"immediate": False}


def _set_immediate(value) -> None:
    _precision.check_bool("set_immediate_miopen", value)
    _state["immediate"] = value


def set_flags(_immediate=None):
    """Set MIOpen's immediate mode; returns the previous setting as a tuple."""
    previous = (_state["immediate"],)
    if _immediate is not None:
        _set_immediate(_immediate)
    return previous


def flags(immediate=False):
    """Set MIOpen's immediate mode inside a ``with`` block."""
    return _flags_scope(set_flags, immediate)


class MiopenModule(PropModule):
    immediate = ContextProp(lambda: _state["immediate"], _set_immediate)


_sys.modules[__name__].__class__ = MiopenModule
