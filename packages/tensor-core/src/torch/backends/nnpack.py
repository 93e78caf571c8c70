"""torch.backends.nnpack: the NNPACK convolution library. It is not built here; the switch
is kept and read back."""

from __future__ import annotations

from . import ContextProp, PropModule, _flags_scope, _precision

__all__ = ["is_available", "flags", "set_flags", "ContextProp", "PropModule"]

_state = {"enabled": True}


def is_available() -> bool:
    """Whether NNPACK can run convolutions (``False``: it is not built here)."""
    return False


def set_flags(_enabled):
    """Switch NNPACK on or off; returns the previous setting as a tuple."""
    previous = (_state["enabled"],)
    _precision.check_bool("set_enabled_NNPACK", _enabled)
    _state["enabled"] = _enabled
    return previous


def flags(enabled=False):
    """Switch NNPACK on or off inside a ``with`` block."""
    return _flags_scope(set_flags, enabled)
