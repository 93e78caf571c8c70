"""The standard's element-wise functions."""

from __future__ import annotations

import numpy as np

import torch

from ._helpers import array, errstate, needs_grad, operand, wrap

__all__: list[str] = []

# Each function computes with NumPy's function of the standard's name (NumPy 2 adopted the
# standard's names). Where PyTorch has an op of the same meaning, an input that requires
# grad goes through that op instead, so gradients flow; the rest (boolean, integer and
# real/imag results) have no gradient here.
_UNARY_WITH_GRAD = (
    "abs acos acosh asin asinh atan atanh conj cos cosh exp expm1 log log1p log2 log10 "
    "negative positive reciprocal sign sin sinh square sqrt tan tanh"
).split()
_UNARY_WITHOUT_GRAD = "bitwise_invert imag isfinite isinf isnan logical_not real signbit".split()
# rounding leaves integers as they are (NumPy may give floats for them)
_ROUNDING = ["ceil", "floor", "trunc", "round"]
_BINARY_WITH_GRAD = (
    "add atan2 copysign divide hypot logaddexp maximum minimum multiply pow subtract"
).split()
_BINARY_WITHOUT_GRAD = (
    "bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor equal "
    "floor_divide greater greater_equal less less_equal logical_and logical_or logical_xor "
    "nextafter not_equal remainder"
).split()
# the standard's names that PyTorch spells otherwise
_TORCH_NAMES = {
    "conj": "conj_physical",
    "divide": "div",
    "multiply": "mul",
    "negative": "neg",
    "sign": "sgn",
    "subtract": "sub",
}


def _torch_op(name):
    """PyTorch's op for the standard's ``name``."""
    return getattr(torch, _TORCH_NAMES.get(name, name))


def _unary(name, torch_function, keeps_integers=False):
    np_function = getattr(np, name)

    def function(x, /):
        if torch_function is not None and needs_grad(x):
            return torch_function(x)
        a = array(x)
        if keeps_integers and a.dtype.kind in "biu":
            return wrap(a.copy())
        with errstate():
            return wrap(np_function(a))

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"The array API standard's ``{name}(x)``, element-wise."
    return function


def _binary(name, torch_function):
    np_function = getattr(np, name)

    def function(x1, x2, /):
        if not (isinstance(x1, torch.Tensor) or isinstance(x2, torch.Tensor)):
            raise TypeError(f"{name}() needs at least one array argument")
        if torch_function is not None and needs_grad(x1, x2):
            return torch_function(x1, x2)
        a, b = operand(x1), operand(x2)
        with errstate():
            return wrap(np_function(a, b))

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"The array API standard's ``{name}(x1, x2)``, element-wise."
    return function


def _define(function):
    globals()[function.__name__] = function
    __all__.append(function.__name__)


for _name in _UNARY_WITH_GRAD:
    _define(_unary(_name, _torch_op(_name)))
for _name in _UNARY_WITHOUT_GRAD:
    _define(_unary(_name, None))
for _name in _ROUNDING:
    _define(_unary(_name, _torch_op(_name), keeps_integers=True))
for _name in _BINARY_WITH_GRAD:
    _define(_binary(_name, _torch_op(_name)))
for _name in _BINARY_WITHOUT_GRAD:
    _define(_binary(_name, None))


def clip(x, /, min=None, max=None):  # noqa: A002 - the standard's names
    """``x`` with values below ``min`` raised to it and above ``max`` lowered to it
    (bounds are arrays or scalars; the result keeps ``x``'s dtype)."""
    if needs_grad(x, min, max):
        return torch.clamp(x, min, max)
    a = array(x)
    low, high = (_bound(a, value) for value in (min, max))
    with errstate():
        return wrap(np.asarray(np.clip(a, low, high)).astype(a.dtype, copy=False))


def _bound(a, value):
    """A bound of :func:`clip` as NumPy takes it: an integer array's Python-int bound
    limited to its dtype's range (NumPy refuses out-of-range ints)."""
    if value is None or isinstance(value, torch.Tensor):
        return None if value is None else array(value, "bound")
    if a.dtype.kind in "iu" and isinstance(value, int):
        info = np.iinfo(a.dtype)
        return int(np.clip(value, info.min, info.max))
    return value


__all__.append("clip")
