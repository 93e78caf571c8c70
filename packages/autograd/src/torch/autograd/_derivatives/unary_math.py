"""Derivatives of the unary math family (``saved`` holds the op's keyword arguments)."""

from __future__ import annotations

import math

import torch
from torch._interface import ops

from ._entry import Derivative, holomorphic_entry


def _x(inputs):
    return inputs[0]


def _zeros(grad, inputs, saved):
    return torch.zeros_like(grad)


def _logit(grad, inputs, saved):
    x = _x(inputs)
    result = grad / (x * (1 - x))
    eps = saved.eps
    if eps is None:
        return result
    return torch.where((x < eps) | (x > 1 - eps), 0.0, result)


def _trigamma(x):
    return ops["_trigamma"].function(x)


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)

_FORMULAS = {
    "sqrt": lambda g, i, s, y: g / (2 * y),
    "rsqrt": lambda g, i, s, y: -0.5 * g * y**3,
    "expm1": lambda g, i, s, y: g * (y + 1),
    "log1p": lambda g, i, s: g / (1 + _x(i)),
    "log2": lambda g, i, s: g / (_x(i) * math.log(2.0)),
    "log10": lambda g, i, s: g / (_x(i) * math.log(10.0)),
    "sin": lambda g, i, s: g * torch.cos(_x(i)),
    "cos": lambda g, i, s: -g * torch.sin(_x(i)),
    "tan": lambda g, i, s, y: g * (1 + y * y),
    "asin": lambda g, i, s: g / torch.sqrt(1 - _x(i) * _x(i)),
    "acos": lambda g, i, s: -g / torch.sqrt(1 - _x(i) * _x(i)),
    "atan": lambda g, i, s: g / (1 + _x(i) * _x(i)),
    "sinh": lambda g, i, s: g * torch.cosh(_x(i)),
    "cosh": lambda g, i, s: g * torch.sinh(_x(i)),
    "tanh": lambda g, i, s, y: g * (1.0 - y * y),
    "asinh": lambda g, i, s: g / torch.sqrt(_x(i) * _x(i) + 1),
    "acosh": lambda g, i, s: g / torch.sqrt((_x(i) - 1) * (_x(i) + 1)),
    "atanh": lambda g, i, s: g / (1 - _x(i) * _x(i)),
    "sigmoid": lambda g, i, s, y: g * y * (1.0 - y),
    "logit": _logit,
    "erf": lambda g, i, s: g * _TWO_OVER_SQRT_PI * torch.exp(-_x(i) * _x(i)),
    "erfc": lambda g, i, s: -g * _TWO_OVER_SQRT_PI * torch.exp(-_x(i) * _x(i)),
    "erfinv": lambda g, i, s: g * (math.sqrt(math.pi) / 2) * torch.exp(torch.erfinv(_x(i)) ** 2),
    "lgamma": lambda g, i, s: g * torch.digamma(_x(i)),
    "digamma": lambda g, i, s: g * _trigamma(_x(i)),
    "reciprocal": lambda g, i, s, y: -g * (y * y),
    "square": lambda g, i, s: 2 * _x(i) * g,
    "frac": lambda g, i, s: g,
    "floor": _zeros,
    "ceil": _zeros,
    "trunc": _zeros,
    "round": _zeros,
    "nan_to_num": lambda g, i, s: g * torch.isfinite(_x(i)),
}


def _node_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + "Backward0"


# PyTorch saves the result of these (not their input): writing into the result in place
# then makes backward raise, as there. Their formulas take the result as a 4th argument
# (a tensor of the graph under create_graph, so double backward differentiates it).
_SAVE_RESULT = frozenset({"sqrt", "rsqrt", "tanh", "sigmoid", "expm1", "tan", "reciprocal"})


# these formulas read nothing of the input: writing into it afterwards is fine
_SHAPES_ONLY = frozenset({"frac", "floor", "ceil", "trunc", "round"})


def _entry(name: str, formula) -> Derivative:
    if name in _SAVE_RESULT:
        return Derivative(
            _node_name(name), (formula,), saved_inputs=(), saves_output=True, drops_inputs=True
        )
    if name in _SHAPES_ONLY:
        return Derivative(_node_name(name), (formula,), saved_inputs=())
    return Derivative(_node_name(name), (formula,))


# NOTE: every formula is grad * f'(x); holomorphic_entry makes it grad * conj(f'(z)) for
# complex inputs (PyTorch's convention), harmless for the real-only ops
UNARY_MATH = {name: holomorphic_entry(_entry(name, f)) for name, f in _FORMULAS.items()}
