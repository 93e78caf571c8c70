"""Casts (``.float()``, ``.to(dtype)``, ``type_as`` ...) and tensors made like others
(``zeros_like``, ``new_zeros`` ...). A cast converts to the dtype the trace gives its
output, whatever form the call took."""

from __future__ import annotations

import torch

from .._graph import GraphContext
from .._registry import symbolic


@symbolic("to", "type", "type_as", "float", "double", "half", "bfloat16", "long", "int",
          "short", "char", "byte", "bool", "cpu", "cuda")  # fmt: skip
def cast(g: GraphContext, self, *_args, **_kwargs):
    return g.cast(self, g.out_dtype())


def _like(fill):
    def translate(g, input, *args, **kwargs):
        value = fill(args, kwargs)
        dtype = g.out_dtype()
        shape = g.op("Shape", input)
        return g.op("ConstantOfShape", shape, value_t=torch.tensor([value], dtype=dtype))

    return translate


symbolic("zeros_like")(_like(lambda a, k: 0))
symbolic("ones_like")(_like(lambda a, k: 1))
symbolic("full_like")(_like(lambda a, k: a[0] if a else k["fill_value"]))
symbolic("empty_like")(_like(lambda a, k: 0))


def _filled(g: GraphContext, size: list, value):
    """A tensor of ``size`` (recorded sizes among the numbers) filled with ``value``."""
    dtype = g.out_dtype()
    return g.op("ConstantOfShape", g.shape_tensor(size), value_t=torch.tensor([value], dtype=dtype))


def _size_arg(args: tuple) -> list:
    if len(args) == 1 and isinstance(args[0], (list, tuple, torch.Size)):
        return list(args[0])
    return list(args)


def _factory(fill):
    """``zeros(*size, dtype=...)`` and the like, on recorded sizes (on numbers only they
    are constants of the export and never get here)."""

    def translate(g, *args, **kwargs):
        sizes = _size_arg(args[:1] if fill is None else args)
        if fill is None:  # full(size, fill_value)
            value = args[1] if len(args) > 1 else kwargs["fill_value"]
        else:
            value = fill
        return _filled(g, sizes, value)

    return translate


symbolic("zeros", "empty")(_factory(0))
symbolic("ones")(_factory(1))
symbolic("full")(_factory(None))


def _new(fill):
    def translate(g, self, *args, **kwargs):
        if fill is None:  # new_full(size, fill_value)
            return _filled(
                g, _size_arg(args[:1]), args[1] if len(args) > 1 else kwargs["fill_value"]
            )
        return _filled(g, _size_arg(args), fill)

    return translate


symbolic("new_zeros", "new_empty")(_new(0))
symbolic("new_ones")(_new(1))
symbolic("new_full")(_new(None))


@symbolic("arange")
def arange(g, *args, **kwargs):
    numbers = [a for a in args if not isinstance(a, torch.dtype)]
    start, end, step = (0, numbers[0], 1) if len(numbers) == 1 else (*numbers, 1)[:3]
    dtype = g.out_dtype()
    bounds = [g.cast(v, dtype) for v in (start, end, step)]
    return g.op("Range", *bounds)


@symbolic("new_tensor")
def new_tensor(g, self, data, *args, **kwargs):
    return g.constant(torch.tensor(data, dtype=g.out_dtype()))
