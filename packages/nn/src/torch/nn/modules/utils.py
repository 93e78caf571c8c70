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


def _layer(base: type, name: str, summary: str, example: str, **attrs) -> type:
    """The public layer class ``name``: ``base`` with the class attributes ``attrs`` (its
    functional, dims, mode, ...), for the families whose layers differ only in those. Its
    docstring is ``summary`` then an Examples block: the doctest lines of ``example``
    (one a line, after the imports the example uses)."""
    lines = example.strip("\n").split("\n")
    imports = [">>> import torch"] if "torch." in example else []
    body = "".join(f"        {line}\n" for line in imports + [">>> from torch import nn"] + lines)
    namespace = {
        "__doc__": f"{summary}\n\n    Examples::\n\n{body}    ",
        "__module__": base.__module__,
        "__qualname__": name,
        **attrs,
    }
    return type(base)(name, (base,), namespace)


def _extra_repr_of(*options: str):
    """The ``extra_repr`` of a layer whose repr lists some of its stored options, in this
    order: ``"name=value, ..."`` (for each name in ``options``)."""

    def extra_repr(self) -> str:
        return ", ".join(f"{name}={getattr(self, name)}" for name in options)

    return extra_repr
