"""Reductions: mean, sum, prod, max/min (values, and values with indices), argmax/argmin,
var/std, norm, logsumexp."""

from __future__ import annotations

import math

from .._registry import symbolic
from ._helpers import ints, normalize_dim, rank_of, sizes_of, unsupported


def _axes(input, dim) -> list[int] | None:
    if dim is None or dim == [] or dim == ():
        return None
    rank = rank_of(input)
    return [normalize_dim(d, rank) for d in ints(dim)]


def _reduction(op_type: str):
    def translate(g, input, dim=None, keepdim=False, dtype=None):
        if dtype is not None or op_type in ("ReduceMean",):
            input = g.cast(input, dtype or g.out_dtype())
        elif op_type == "ReduceSum" and g.out_dtype() is not None:
            input = g.cast(input, g.out_dtype())  # sum of bools or ints is int64
        return g.reduce(op_type, input, _axes(input, dim), keepdims=bool(keepdim))

    return translate


symbolic("mean")(_reduction("ReduceMean"))
symbolic("sum")(_reduction("ReduceSum"))
symbolic("logsumexp")(_reduction("ReduceLogSumExp"))


@symbolic("prod")
def prod(g, input, dim=None, keepdim=False, dtype=None):
    input = g.cast(input, dtype or g.out_dtype())
    return g.reduce("ReduceProd", input, _axes(input, dim), keepdims=bool(keepdim))


@symbolic("amax")
def amax(g, input, dim=(), keepdim=False):
    return g.reduce("ReduceMax", input, _axes(input, dim), keepdims=bool(keepdim))


@symbolic("amin")
def amin(g, input, dim=(), keepdim=False):
    return g.reduce("ReduceMin", input, _axes(input, dim), keepdims=bool(keepdim))


def _extreme(reduce_op: str, arg_op: str, elementwise: str):
    def translate(g, input, dim=None, keepdim=False):
        if dim is None:  # the whole tensor
            return g.reduce(reduce_op, input, None, keepdims=False)
        if not isinstance(dim, int):  # max(a, b): elementwise
            return g.op(elementwise, input, g.cast(dim, g.out_dtype()))
        axis = normalize_dim(dim, rank_of(input))
        values = g.reduce(reduce_op, input, [axis], keepdims=bool(keepdim))
        indices = g.op(arg_op, input, axis_i=axis, keepdims_i=int(keepdim))
        return values, indices

    return translate


symbolic("max")(_extreme("ReduceMax", "ArgMax", "Max"))
symbolic("min")(_extreme("ReduceMin", "ArgMin", "Min"))


def _arg(op_type: str):
    def translate(g, input, dim=None, keepdim=False):
        if dim is None:
            flat = g.op("Reshape", input, g.int64s([-1]))
            out = g.op(op_type, flat, axis_i=0, keepdims_i=0)
            if keepdim:
                out = g.op("Reshape", out, g.int64s([1] * rank_of(input)))
            return out
        axis = normalize_dim(dim, rank_of(input))
        return g.op(op_type, input, axis_i=axis, keepdims_i=int(keepdim))

    return translate


symbolic("argmax")(_arg("ArgMax"))
symbolic("argmin")(_arg("ArgMin"))


def _correction(unbiased, correction) -> float:
    if correction is not None:
        return float(correction)
    return 1.0 if unbiased in (None, True) else 0.0


def _variance(g, input, dim, unbiased, keepdim, correction):
    if isinstance(dim, bool):  # var(x, False): the unbiased flag in dim's place
        dim, unbiased = None, dim
    axes = _axes(input, dim)
    sizes = sizes_of(input)
    count = math.prod(sizes[a] for a in (axes if axes is not None else range(len(sizes))))
    dtype = g.out_dtype()
    mean = g.reduce("ReduceMean", input, axes, keepdims=True)
    centered = g.op("Sub", input, mean)
    total = g.reduce("ReduceSum", g.op("Mul", centered, centered), axes, keepdims=bool(keepdim))
    divisor = max(count - _correction(unbiased, correction), 0.0)
    return g.op("Div", total, g.constant(divisor, dtype))


@symbolic("var")
def var(g, input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _variance(g, input, dim, unbiased, keepdim, correction)


@symbolic("std")
def std(g, input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return g.op("Sqrt", _variance(g, input, dim, unbiased, keepdim, correction))


@symbolic("norm")
def norm(g, input, p="fro", dim=None, keepdim=False, dtype=None):
    ops = {2: "ReduceL2", "fro": "ReduceL2", 1: "ReduceL1"}  # 2.0 == 2 finds the same
    if p not in ops:
        raise unsupported(f"norm with p={p!r}")
    return g.reduce(ops[p], input, _axes(input, dim), keepdims=bool(keepdim))
