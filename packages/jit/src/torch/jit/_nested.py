"""The nested lists, tuples and dicts that ops take and return, and that traced and
exported programs receive: their leaves, and whether one is of a kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["leaves", "contains"]


def leaves(value: Any) -> Iterator[Any]:
    """What ``value`` holds below its lists, tuples and dicts (a dict's values), in order;
    ``value`` itself when it is none of them."""
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from leaves(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    else:
        yield value


def contains(value: Any, kind) -> bool:
    """Whether a leaf of ``value`` is an instance of ``kind`` (a class or a tuple of them)."""
    return any(isinstance(leaf, kind) for leaf in leaves(value))
