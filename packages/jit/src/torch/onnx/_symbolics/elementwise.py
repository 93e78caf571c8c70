"""Elementwise ops: arithmetic, comparisons, activations, ``where`` / ``masked_fill``,
``clamp``. Binary ops compute in the dtype the trace gives their output (comparisons:
in the promoted dtype of their operands), so Python numbers become constants of it."""

from __future__ import annotations

import math

import torch

from .._graph import GraphContext
from .._registry import symbolic
from ._helpers import promote, same_dtype

# ------------------------------------------------------------------------- arithmetic


def _arith(g: GraphContext, op_type: str, a, b):
    dtype = g.out_dtype() or promote(a, b)
    if op_type == "Pow" and not isinstance(b, (int, float)):
        return g.op("Pow", g.cast(a, dtype), g.cast(b, promote(b)))
    a, b = same_dtype(g, dtype, a, b)
    return g.op(op_type, a, b)


def _scaled(g: GraphContext, value, alpha):
    if alpha == 1:
        return value
    return g.op("Mul", value, g.constant(alpha, g.out_dtype() or promote(value)))


@symbolic("add")
def add(g, self, other, alpha=1):
    return _arith(g, "Add", self, _scaled(g, other, alpha) if alpha != 1 else other)


@symbolic("sub")
def sub(g, self, other, alpha=1):
    return _arith(g, "Sub", self, _scaled(g, other, alpha) if alpha != 1 else other)


@symbolic("rsub")
def rsub(g, self, other, alpha=1):
    return _arith(g, "Sub", other, _scaled(g, self, alpha) if alpha != 1 else self)


@symbolic("mul", "multiply")
def mul(g, self, other):
    if g.out_dtype() == torch.bool:
        return g.op("And", self, g.cast(other, torch.bool))
    return _arith(g, "Mul", self, other)


@symbolic("div", "true_divide", "divide")
def div(g, self, other, rounding_mode=None):
    dtype = g.out_dtype() or promote(self, other)
    if rounding_mode is None:
        return _arith(g, "Div", self, other)
    compute = dtype if dtype.is_floating_point else torch.float64
    quotient = g.op("Div", *same_dtype(g, compute, self, other))
    rounded = g.op("Floor" if rounding_mode == "floor" else "Trunc" if g.opset >= 22 else "Floor",
                   quotient)  # fmt: skip
    if rounding_mode == "trunc" and g.opset < 22:  # trunc(q) = sign(q) * floor(|q|)
        rounded = g.op("Mul", g.op("Sign", quotient), g.op("Floor", g.op("Abs", quotient)))
    return g.cast(rounded, dtype)


@symbolic("rdiv")
def rdiv(g, self, other):
    return _arith(g, "Div", other, self)


@symbolic("floor_divide")
def floor_divide(g, self, other):
    return div(g, self, other, rounding_mode="floor")


@symbolic("remainder")
def remainder(g, self, other):
    # Python's modulo: a - floor(a / b) * b (the sign of the divisor)
    dtype = g.out_dtype() or promote(self, other)
    a, b = same_dtype(g, dtype, self, other)
    if not dtype.is_floating_point:
        return g.op("Mod", a, b, fmod_i=0)
    floor = g.op("Floor", g.op("Div", a, b))
    return g.op("Sub", a, g.op("Mul", floor, b))


@symbolic("pow")
def pow_(g, self, exponent):
    return _arith(g, "Pow", self, exponent)


@symbolic("rpow")
def rpow(g, self, other):
    return _arith(g, "Pow", other, self)


@symbolic("maximum", "max_elementwise")
def maximum(g, self, other):
    return g.op("Max", *same_dtype(g, g.out_dtype(), self, other))


@symbolic("minimum")
def minimum(g, self, other):
    return g.op("Min", *same_dtype(g, g.out_dtype(), self, other))


# ------------------------------------------------------------------------------ unary

_UNARY = {
    "neg": "Neg",
    "negative": "Neg",
    "exp": "Exp",
    "log": "Log",
    "sqrt": "Sqrt",
    "abs": "Abs",
    "sin": "Sin",
    "cos": "Cos",
    "tan": "Tan",
    "asin": "Asin",
    "acos": "Acos",
    "atan": "Atan",
    "sinh": "Sinh",
    "cosh": "Cosh",
    "erf": "Erf",
    "reciprocal": "Reciprocal",
    "floor": "Floor",
    "ceil": "Ceil",
    "round": "Round",
    "sign": "Sign",
    "sigmoid": "Sigmoid",
    "tanh": "Tanh",
    "relu": "Relu",
    "logical_not": "Not",
    "isnan": "IsNaN",
}


def _unary(op_type: str):
    def translate(g, self, *_ignored, **_kw):
        dtype = g.out_dtype()
        if dtype is not None and dtype.is_floating_point and op_type not in ("Not", "IsNaN"):
            self = g.cast(self, dtype)  # exp(int tensor) is float
        return g.op(op_type, self)

    translate.__name__ = op_type.lower()
    return translate


for _name, _op_type in _UNARY.items():
    symbolic(_name)(_unary(_op_type))


@symbolic("bitwise_not")
def bitwise_not(g, self):
    if g.out_dtype() == torch.bool:
        return g.op("Not", self)
    return g.op("BitwiseNot", self) if g.opset >= 18 else _unsupported_bitwise(g)


def _unsupported_bitwise(g):
    from ..errors import UnsupportedOperatorError

    raise UnsupportedOperatorError("aten::bitwise_not", g.opset, 18)


def _logical(op_type: str):
    def translate(g, self, other):
        return g.op(op_type, g.cast(self, torch.bool), g.cast(other, torch.bool))

    return translate


for _name, _op_type in (("and", "And"), ("or", "Or"), ("xor", "Xor")):
    symbolic(f"logical_{_name}")(_logical(_op_type))
    symbolic(f"bitwise_{_name}")(_logical(_op_type))  # bool tensors (masks)


@symbolic("rsqrt")
def rsqrt(g, self):
    return g.op("Reciprocal", g.op("Sqrt", g.cast(self, g.out_dtype())))


@symbolic("square")
def square(g, self):
    return g.op("Mul", self, self)


@symbolic("log1p")
def log1p(g, self):
    return g.op("Log", g.op("Add", self, g.constant(1, g.out_dtype())))


@symbolic("expm1")
def expm1(g, self):
    return g.op("Sub", g.op("Exp", self), g.constant(1, g.out_dtype()))


@symbolic("log2", "log10")
def log_base(g, self):
    base = 2 if g.current_kind == "Log2" else 10
    return g.op("Div", g.op("Log", self), g.constant(math.log(base), g.out_dtype()))


# ------------------------------------------------------------------------ activations


@symbolic("gelu", since=13)
def gelu(g, self, approximate="none"):
    dtype = g.out_dtype()
    half, one = g.constant(0.5, dtype), g.constant(1.0, dtype)
    if approximate == "tanh":
        inner = g.op("Add", self, g.op("Mul", g.constant(0.044715, dtype),
                                       g.op("Mul", self, g.op("Mul", self, self))))  # fmt: skip
        inner = g.op("Mul", g.constant(math.sqrt(2 / math.pi), dtype), inner)
        gate = g.op("Add", one, g.op("Tanh", inner))
    else:
        gate = g.op("Add", one, g.op("Erf", g.op("Div", self, g.constant(math.sqrt(2), dtype))))
    return g.op("Mul", g.op("Mul", half, self), gate)


@symbolic("gelu", since=20)
def gelu_20(g, self, approximate="none"):
    return g.op("Gelu", self, approximate_s=approximate)


@symbolic("silu")
def silu(g, input, inplace=False):
    return g.op("Mul", input, g.op("Sigmoid", input))


@symbolic("mish")
def mish(g, input, inplace=False):
    return g.op("Mul", input, g.op("Tanh", g.op("Softplus", input)))


@symbolic("leaky_relu")
def leaky_relu(g, input, negative_slope=0.01, inplace=False):
    return g.op("LeakyRelu", input, alpha_f=float(negative_slope))


@symbolic("elu")
def elu(g, input, alpha=1.0, inplace=False):
    return g.op("Elu", input, alpha_f=float(alpha))


@symbolic("selu")
def selu(g, input, inplace=False):
    return g.op("Selu", input)


@symbolic("softplus")
def softplus(g, input, beta=1.0, threshold=20.0):
    if beta == 1:
        return g.op("Softplus", input)
    dtype = g.out_dtype()
    scaled = g.op("Mul", input, g.constant(beta, dtype))
    return g.op("Div", g.op("Softplus", scaled), g.constant(beta, dtype))


@symbolic("hardtanh")
def hardtanh(g, input, min_val=-1.0, max_val=1.0, inplace=False):
    dtype = g.out_dtype()
    return g.op("Clip", input, g.constant(min_val, dtype), g.constant(max_val, dtype))


@symbolic("relu6")
def relu6(g, input, inplace=False):
    return hardtanh(g, input, 0.0, 6.0)


@symbolic("hardsigmoid")
def hardsigmoid(g, input, inplace=False):
    return g.op("HardSigmoid", input, alpha_f=1 / 6, beta_f=0.5)


@symbolic("hardswish")
def hardswish(g, input, inplace=False):
    return g.op("HardSwish", input)


@symbolic("clamp", "clip")
def clamp(g, self, min=None, max=None):
    dtype = g.out_dtype()
    low = None if min is None else g.cast(min, dtype)
    high = None if max is None else g.cast(max, dtype)
    return g.op("Clip", g.cast(self, dtype), low, high)


@symbolic("clamp_min")
def clamp_min(g, self, min):
    return clamp(g, self, min=min)


@symbolic("clamp_max")
def clamp_max(g, self, max):
    return clamp(g, self, max=max)


# ------------------------------------------------------------------------ comparisons

_COMPARISONS = {
    "eq": ("Equal", False),
    "ne": ("Equal", True),
    "lt": ("Less", False),
    "le": ("LessOrEqual", False),
    "gt": ("Greater", False),
    "ge": ("GreaterOrEqual", False),
}
_COMPARISON_ALIASES = {
    "eq": ["equal"],
    "ne": ["not_equal"],
    "lt": ["less"],
    "le": ["less_equal"],
    "gt": ["greater"],
    "ge": ["greater_equal"],
}


def _comparison(op_type: str, negate: bool):
    def translate(g, self, other):
        a, b = same_dtype(g, promote(self, other), self, other)
        out = g.op(op_type, a, b)
        return g.op("Not", out) if negate else out

    return translate


for _name, (_op_type, _negate) in _COMPARISONS.items():
    symbolic(_name, *_COMPARISON_ALIASES[_name])(_comparison(_op_type, _negate))


# --------------------------------------------------------------------------- selection


@symbolic("where")
def where(g, condition, input=None, other=None):
    if input is None:
        from ._helpers import unsupported

        raise unsupported("torch.where(condition) with one argument (use nonzero)")
    dtype = g.out_dtype() or promote(input, other)
    x, y = same_dtype(g, dtype, input, other)
    return g.op("Where", g.cast(condition, torch.bool), x, y)


@symbolic("masked_fill")
def masked_fill(g, self, mask, value):
    dtype = g.out_dtype() or self.dtype
    return g.op("Where", g.cast(mask, torch.bool), g.cast(value, dtype), self)
