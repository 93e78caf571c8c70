"""Derivatives of the pointwise family. A binary op saves its ``alpha`` (1 when it has
none; ``saved.alpha``); ``div`` also saves its ``rounding_mode``."""

from __future__ import annotations

import torch

from ._entry import (
    Derivative,
    conj,
    fit_dtype,
    holomorphic_entry,
    not_implemented,
    shape_of,
    sum_to_shape,
)


def _scaled(grad, factor):
    return grad if factor == 1 else grad * factor


def _add_self(grad, inputs, saved):
    # fit_dtype: a real operand of a complex sum gets the real part
    return fit_dtype(sum_to_shape(grad, shape_of(inputs[0])), inputs[0])


def _add_other(grad, inputs, saved):
    return fit_dtype(sum_to_shape(_scaled(grad, saved.alpha), shape_of(inputs[1])), inputs[1])


def _sub_other(grad, inputs, saved):
    return fit_dtype(sum_to_shape(_scaled(-grad, saved.alpha), shape_of(inputs[1])), inputs[1])


def _mul_self(grad, inputs, saved):
    a, b = inputs
    return fit_dtype(sum_to_shape(grad * conj(b), shape_of(a)), a)


def _mul_other(grad, inputs, saved):
    a, b = inputs
    return fit_dtype(sum_to_shape(grad * conj(a), shape_of(b)), b)


def _rounded(saved) -> bool:
    return saved.rounding_mode is not None


def _div_self(grad, inputs, saved):
    if _rounded(saved):
        return torch.zeros_like(inputs[0])  # rounding is flat almost everywhere
    return fit_dtype(sum_to_shape(grad / conj(inputs[1]), shape_of(inputs[0])), inputs[0])


def _div_other(grad, inputs, saved):
    a, b = inputs
    if _rounded(saved):
        return torch.zeros_like(b)
    # NOTE: -grad * a / (b * b) rather than -grad * (a / b) / b: one rounding fewer
    return fit_dtype(sum_to_shape(-grad * conj(a) / conj(b * b), shape_of(b)), b)


def _remainder_other(grad, inputs, saved):
    a, b = inputs
    # NOTE: the quotient is piecewise constant (zero derivative), and floor_divide's own
    # backward raises as PyTorch's does, so it is taken off the graph
    a = a.detach() if isinstance(a, torch.Tensor) else a
    return sum_to_shape(-grad * torch.floor_divide(a, b.detach()), shape_of(b))


def _pow_self(grad, inputs, saved):
    base, exponent = inputs
    return sum_to_shape(grad * exponent * base ** (exponent - 1), shape_of(base))


def _pow_exponent(grad, inputs, saved):
    base, exponent = inputs
    return sum_to_shape(grad * base**exponent * torch.log(base), shape_of(exponent))


def _neg(grad, inputs, saved):
    return -grad


def _abs(grad, inputs, saved):
    x = inputs[0]
    # complex z: d|z| pulls back through z / |z| (sgn), itself recorded for double backward
    return grad * (torch.sgn(x) if x.is_complex() else torch.sign(x))


def _sign(grad, inputs, saved):
    return torch.zeros_like(grad)


def _exp(grad, inputs, saved, result):
    return grad * result


def _log(grad, inputs, saved):
    return grad / inputs[0]


POINTWISE = {
    # recorded (float results require grad) but not differentiable, as in PyTorch
    "floor_divide": Derivative(
        "NotImplemented", (not_implemented("floor_divide"),) * 2, saved_inputs=()
    ),
    "floor_divide_": Derivative(
        "NotImplemented", (not_implemented("floor_divide_"),) * 2, saved_inputs=()
    ),
    "add": Derivative("AddBackward0", (_add_self, _add_other), saved_inputs=()),
    "sub": Derivative("SubBackward0", (_add_self, _sub_other), saved_inputs=()),
    "mul": Derivative("MulBackward0", (_mul_self, _mul_other), reads=((1,), (0,))),
    "div": Derivative("DivBackward0", (_div_self, _div_other), reads=((1,), (0, 1))),
    "remainder": Derivative("RemainderBackward0", (_add_self, _remainder_other)),
    "pow": holomorphic_entry(Derivative("PowBackward1", (_pow_self, _pow_exponent))),
    "neg": Derivative("NegBackward0", (_neg,), saved_inputs=()),
    "abs": Derivative("AbsBackward0", (_abs,)),
    "sign": Derivative("SignBackward0", (_sign,), saved_inputs=()),
    "exp": holomorphic_entry(
        Derivative("ExpBackward0", (_exp,), saved_inputs=(), saves_output=True, drops_inputs=True)
    ),
    "log": holomorphic_entry(Derivative("LogBackward0", (_log,))),
}
