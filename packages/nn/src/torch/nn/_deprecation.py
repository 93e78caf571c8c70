"""Deprecated aliases: a public function kept under its old name, warning at each call."""

from __future__ import annotations

import warnings

__all__: list[str] = []


def deprecated_alias(function, old_name: str, namespace: str):
    """``function`` under ``old_name`` (in ``function``'s module), warning with a
    ``FutureWarning`` that ``{namespace}{old_name}`` is deprecated in favour of
    ``{namespace}{function.__name__}``, as PyTorch's aliases do."""

    def alias(*args, **kwargs):
        warnings.warn(
            f"`{namespace}{old_name}` is now deprecated in favor of "
            f"`{namespace}{function.__name__}`.",
            FutureWarning,
            stacklevel=2,
        )
        return function(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old_name
    alias.__module__ = function.__module__
    alias.__doc__ = f"Deprecated alias of :func:`{function.__name__}`."
    return alias
