"""torch.backends.opt_einsum: contraction-order optimisation of ``torch.einsum`` with the
``opt_einsum`` package. ``enabled`` and ``strategy`` are checked as PyTorch checks them."""

from __future__ import annotations

import sys as _sys
from functools import lru_cache as _lru_cache
from typing import Any as _Any

from . import ContextProp, PropModule, _flags_scope  # noqa: F401 - PyTorch shows ContextProp

__all__ = [
    "is_available",
    "get_opt_einsum",
    "flags",
    "set_flags",
    "ContextProp",
    "OptEinsumModule",
    "PropModule",
]


@_lru_cache
def is_available() -> bool:
    """Whether the ``opt_einsum`` package can be imported."""
    return get_opt_einsum() is not None


def get_opt_einsum() -> _Any:
    """The ``opt_einsum`` module, or ``None`` when it is not installed."""
    try:
        import opt_einsum
    except ImportError:
        return None
    return opt_einsum


def _set_enabled(value: bool) -> None:
    global enabled
    if value and not is_available():
        raise ValueError(
            f"opt_einsum is not available, so setting `enabled` to {value} will not reap the "
            "benefits of calculating an optimal path for einsum. torch.einsum will fall back to "
            "contracting from left to right. To enable this optimal path calculation, please "
            "install opt-einsum."
        )
    enabled = value


def _set_strategy(value: str) -> None:
    global strategy
    if not is_available():
        raise ValueError(
            f"opt_einsum is not available, so setting `strategy` to {value} will not be "
            "meaningful. torch.einsum will bypass path calculation and simply contract from "
            "left to right. Please install opt_einsum or unset `strategy`."
        )
    if not enabled:
        raise ValueError(
            f"opt_einsum is not enabled, so setting a `strategy` to {value} will not be "
            "meaningful. torch.einsum will bypass path calculation and simply contract from "
            "left to right. Please set `enabled` to `True` as well or unset `strategy`."
        )
    if value not in ("auto", "greedy", "optimal"):
        raise ValueError(
            f"`strategy` must be one of the following: [auto, greedy, optimal] but is {value}"
        )
    strategy = value


def set_flags(_enabled=None, _strategy=None):
    """Set ``enabled`` and ``strategy`` (checked); returns the previous values as a tuple."""
    previous = (enabled, strategy if is_available() else None)
    if _enabled is not None:
        _set_enabled(_enabled)
    if _strategy is not None:
        _set_strategy(_strategy)
    return previous


def flags(enabled=None, strategy=None):
    """Set ``enabled`` and ``strategy`` inside a ``with`` block."""
    return _flags_scope(set_flags, enabled, strategy)


class OptEinsumModule(PropModule):
    """The module's type. As in PyTorch, ``enabled`` and ``strategy`` are plain module
    attributes: assigning them directly is not checked (``set_flags``/``flags`` check)."""


_sys.modules[__name__].__class__ = OptEinsumModule
# on by default exactly when opt_einsum is installed
enabled = is_available()
strategy = "auto" if is_available() else None
