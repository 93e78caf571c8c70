"""Binds the registered op functions as ``Tensor`` methods and operators."""

from __future__ import annotations

from ._ops import linalg, pointwise, reduction, shape
from ._tensor import Tensor


def _reflected(function):
    def method(self, other):
        return function(other, self)

    return method


def bind() -> None:
    methods = {
        "add": pointwise.add,
        "sub": pointwise.sub,
        "mul": pointwise.mul,
        "div": pointwise.div,
        "neg": pointwise.neg,
        "matmul": linalg.matmul,
        "sum": reduction.sum,
        "mean": reduction.mean,
        "reshape": shape.reshape,
        "expand": shape.expand,
        "transpose": shape.transpose,
        "t": shape.t,
        "add_": pointwise.add_,
        "sub_": pointwise.sub_,
        "mul_": pointwise.mul_,
        "div_": pointwise.div_,
        "__add__": pointwise.add,
        "__radd__": pointwise.add,
        "__sub__": pointwise.sub,
        "__rsub__": _reflected(pointwise.sub),
        "__mul__": pointwise.mul,
        "__rmul__": pointwise.mul,
        "__truediv__": pointwise.div,
        "__rtruediv__": _reflected(pointwise.div),
        "__neg__": pointwise.neg,
        "__matmul__": linalg.matmul,
        "__rmatmul__": _reflected(linalg.matmul),
        "__iadd__": pointwise.add_,
        "__isub__": pointwise.sub_,
        "__imul__": pointwise.mul_,
        "__itruediv__": pointwise.div_,
    }
    for name, function in methods.items():
        setattr(Tensor, name, function)
