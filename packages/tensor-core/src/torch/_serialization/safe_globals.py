"""The registry behind ``torch.serialization.add_safe_globals``: classes and functions a
user trusts ``weights_only`` loading to use, keyed by the ``module.name`` a pickle calls
them by."""

from __future__ import annotations

import threading

__all__ = [
    "add_safe_globals",
    "clear_safe_globals",
    "get_safe_globals",
    "lookup_safe_global",
    "safe_global_name",
]

_lock = threading.Lock()
_registered: list = []  # what users passed: objects or (object, "module.name") pairs


def safe_global_name(entry) -> str:
    """The ``module.name`` under which a pickle refers to ``entry``."""
    if isinstance(entry, tuple):
        return entry[1]
    return f"{entry.__module__}.{entry.__qualname__}"


def _check_entry(entry) -> None:
    if isinstance(entry, tuple):
        if len(entry) != 2 or not isinstance(entry[1], str):
            raise ValueError(
                f"safe global {entry!r} must be an object, or a pair (object, "
                f"'module.name') naming it"
            )
        return
    if not (hasattr(entry, "__module__") and hasattr(entry, "__qualname__")):
        raise ValueError(
            f"safe global {entry!r} has no __module__/__qualname__; pass it as a pair "
            f"(object, 'module.name')"
        )


def add_safe_globals(safe_globals: list) -> None:
    """Allow each of ``safe_globals`` in ``weights_only`` loads (see
    ``torch.serialization.add_safe_globals``)."""
    if not isinstance(safe_globals, (list, tuple)):
        raise TypeError(f"add_safe_globals expects a list, got {type(safe_globals).__name__}")
    for entry in safe_globals:
        _check_entry(entry)
    with _lock:
        _registered.extend(safe_globals)


def get_safe_globals() -> list:
    """A copy of the user-registered safe globals."""
    with _lock:
        return list(_registered)


def clear_safe_globals() -> None:
    """Forget every user-registered safe global."""
    with _lock:
        _registered.clear()


def set_safe_globals(entries: list) -> None:
    with _lock:
        _registered[:] = entries


def lookup_safe_global(qualified_name: str):
    """The registered object a pickle means by ``qualified_name``, or None."""
    with _lock:
        entries = list(_registered)
    for entry in reversed(entries):
        if safe_global_name(entry) == qualified_name:
            return entry[0] if isinstance(entry, tuple) else entry
    return None
