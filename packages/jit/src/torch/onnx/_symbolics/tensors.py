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


def _new(fill):
    def translate(g, self, *args, **kwargs):
        # the size is a constant of the trace: the result is a constant
        sizes = g.out_sizes()
        return g.constant(torch.full(sizes, fill(args, kwargs), dtype=g.out_dtype()))

    return translate


symbolic("new_zeros")(_new(lambda a, k: 0))
symbolic("new_ones")(_new(lambda a, k: 1))
symbolic("new_empty")(_new(lambda a, k: 0))
symbolic("new_full")(_new(lambda a, k: a[1] if len(a) > 1 else k["fill_value"]))


@symbolic("new_tensor")
def new_tensor(g, self, data, *args, **kwargs):
    return g.constant(torch.tensor(data, dtype=g.out_dtype()))
