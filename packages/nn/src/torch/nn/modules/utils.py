"""Small argument helpers shared by the layer families."""

from __future__ import annotations

import collections.abc
from itertools import repeat

__all__ = []


def _ntuple(n: int, name: str = "parse"):
    def parse(x):
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(repeat(x, n))

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n: int) -> tuple:
    """(a, b) -> (b, b, a, a) for n=2: the F.pad order of per-dim paddings."""
    return tuple(x for x in reversed(t) for _ in range(n))
