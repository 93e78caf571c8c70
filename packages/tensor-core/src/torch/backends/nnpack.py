"""torch.backends.nnpack: the NNPACK convolution library. It is not built here; the switch
is kept and read back."""

from __future__ import annotations

from contextlib import contextmanager as _contextmanager

from . import ContextProp, PropModule, _mutation_window, _precision

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


@_contextmanager
def flags(enabled=False):
    """Switch NNPACK on or off inside a ``with`` block."""
    with _mutation_window():
        previous = set_flags(enabled)
    try:
        yield
    finally:
        with _mutation_window():
            set_flags(previous[0])
