"""The standard's element-wise functions."""

from __future__ import annotations

import numpy as np

import torch

from ._helpers import array, errstate, needs_grad, operand, wrap

__all__: list[str] = []

# name -> (NumPy function, the PyTorch function used when an input requires grad)
_UNARY = {
    "abs": (np.abs, torch.abs),
    "acos": (np.arccos, torch.acos),
    "acosh": (np.arccosh, torch.acosh),
    "asin": (np.arcsin, torch.asin),
    "asinh": (np.arcsinh, torch.asinh),
    "atan": (np.arctan, torch.atan),
    "atanh": (np.arctanh, torch.atanh),
    "bitwise_invert": (np.invert, None),
    "conj": (np.conj, torch.conj_physical),
    "cos": (np.cos, torch.cos),
    "cosh": (np.cosh, torch.cosh),
    "exp": (np.exp, torch.exp),
    "expm1": (np.expm1, torch.expm1),
    "imag": (np.imag, None),
    "isfinite": (np.isfinite, None),
    "isinf": (np.isinf, None),
    "isnan": (np.isnan, None),
    "log": (np.log, torch.log),
    "log1p": (np.log1p, torch.log1p),
    "log2": (np.log2, torch.log2),
    "log10": (np.log10, torch.log10),
    "logical_not": (np.logical_not, None),
    "negative": (np.negative, torch.neg),
    "positive": (np.positive, torch.positive),
    "real": (np.real, None),
    "reciprocal": (np.reciprocal, torch.reciprocal),
    "sign": (np.sign, torch.sgn),
    "signbit": (np.signbit, None),
    "sin": (np.sin, torch.sin),
    "sinh": (np.sinh, torch.sinh),
    "square": (np.square, torch.square),
    "sqrt": (np.sqrt, torch.sqrt),
    "tan": (np.tan, torch.tan),
    "tanh": (np.tanh, torch.tanh),
}
# rounding leaves integers as they are (NumPy may give floats for them)
_ROUNDING = {
    "ceil": (np.ceil, torch.ceil),
    "floor": (np.floor, torch.floor),
    "trunc": (np.trunc, torch.trunc),
    "round": (np.round, torch.round),
}
_BINARY = {
    "add": (np.add, torch.add),
    "atan2": (np.arctan2, torch.atan2),
    "bitwise_and": (np.bitwise_and, None),
    "bitwise_left_shift": (np.left_shift, None),
    "bitwise_or": (np.bitwise_or, None),
    "bitwise_right_shift": (np.right_shift, None),
    "bitwise_xor": (np.bitwise_xor, None),
    "copysign": (np.copysign, torch.copysign),
    "divide": (np.divide, torch.div),
    "equal": (np.equal, None),
    "floor_divide": (np.floor_divide, None),
    "greater": (np.greater, None),
    "greater_equal": (np.greater_equal, None),
    "hypot": (np.hypot, torch.hypot),
    "less": (np.less, None),
    "less_equal": (np.less_equal, None),
    "logaddexp": (np.logaddexp, torch.logaddexp),
    "logical_and": (np.logical_and, None),
    "logical_or": (np.logical_or, None),
    "logical_xor": (np.logical_xor, None),
    "maximum": (np.maximum, torch.maximum),
    "minimum": (np.minimum, torch.minimum),
    "multiply": (np.multiply, torch.mul),
    "nextafter": (np.nextafter, None),
    "not_equal": (np.not_equal, None),
    "pow": (np.power, torch.pow),
    "remainder": (np.remainder, None),
    "subtract": (np.subtract, torch.sub),
}


def _unary(name, np_function, torch_function, keeps_integers=False):
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


def _binary(name, np_function, torch_function):
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


for _name, (_np_fn, _torch_fn) in _UNARY.items():
    globals()[_name] = _unary(_name, _np_fn, _torch_fn)
    __all__.append(_name)
for _name, (_np_fn, _torch_fn) in _ROUNDING.items():
    globals()[_name] = _unary(_name, _np_fn, _torch_fn, keeps_integers=True)
    __all__.append(_name)
for _name, (_np_fn, _torch_fn) in _BINARY.items():
    globals()[_name] = _binary(_name, _np_fn, _torch_fn)
    __all__.append(_name)


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
