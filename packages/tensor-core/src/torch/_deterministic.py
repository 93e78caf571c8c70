"""The deterministic-algorithms switch: ``torch.use_deterministic_algorithms`` and its
queries. Every CPU kernel here is deterministic already, so the switch only records the
setting, which libraries read back (torchmetrics, lightning)."""

from __future__ import annotations

__all__ = [
    "are_deterministic_algorithms_enabled",
    "get_deterministic_debug_mode",
    "is_deterministic_algorithms_warn_only_enabled",
    "set_deterministic_debug_mode",
    "use_deterministic_algorithms",
]

_state = {"enabled": False, "warn_only": False}
_DEBUG_MODES = ("default", "warn", "error")


def _require_bool(name: str, value, position: str) -> None:
    if type(value) is not bool:
        raise TypeError(
            f"_set_deterministic_algorithms(): argument '{name}'{position} must be bool, "
            f"not {type(value).__name__}"
        )


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Ask for deterministic algorithms only (``warn_only``: warn instead of raising
    where one has none). Recorded; every kernel here is deterministic.

    Examples::

        >>> torch.use_deterministic_algorithms(True)
        >>> torch.are_deterministic_algorithms_enabled()
        True
        >>> torch.use_deterministic_algorithms(False)
    """
    _require_bool("mode", mode, " (position 1)")
    _require_bool("warn_only", warn_only, "")
    _state["enabled"], _state["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled() -> bool:
    """Whether :func:`use_deterministic_algorithms` turned the switch on."""
    return _state["enabled"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether the switch is on in its warn-only form."""
    return _state["warn_only"]


def set_deterministic_debug_mode(debug_mode) -> None:
    """The switch as one value: ``"default"``/0 (off), ``"warn"``/1 (warn only),
    ``"error"``/2 (on)."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(
                "invalid value of debug_mode, expected one of `default`, `warn`, `error`, "
                f"but got {debug_mode}"
            )
        debug_mode = _DEBUG_MODES.index(debug_mode)
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(
            f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}"
        )
    _state["enabled"], _state["warn_only"] = debug_mode != 0, debug_mode == 1


def get_deterministic_debug_mode() -> int:
    """0 (off), 1 (warn only) or 2 (on)."""
    if not _state["enabled"]:
        return 0
    return 1 if _state["warn_only"] else 2
