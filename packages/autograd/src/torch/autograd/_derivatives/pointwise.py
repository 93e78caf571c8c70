"""Derivatives of the pointwise family."""

from __future__ import annotations

from ._entry import Derivative, shape_of, sum_to_shape


def _scaled(grad, factor):
    return grad if factor == 1 else grad * factor


def _add_self(grad, inputs, saved):
    return sum_to_shape(grad, shape_of(inputs[0]))


def _add_other(grad, inputs, saved):
    return sum_to_shape(_scaled(grad, saved[0]), shape_of(inputs[1]))


def _sub_other(grad, inputs, saved):
    return sum_to_shape(_scaled(-grad, saved[0]), shape_of(inputs[1]))


def _mul_self(grad, inputs, saved):
    return sum_to_shape(grad * inputs[1], shape_of(inputs[0]))


def _mul_other(grad, inputs, saved):
    return sum_to_shape(grad * inputs[0], shape_of(inputs[1]))


def _div_self(grad, inputs, saved):
    return sum_to_shape(grad / inputs[1], shape_of(inputs[0]))


def _div_other(grad, inputs, saved):
    a, b = inputs
    # NOTE: -grad * a / (b * b) rather than -grad * (a / b) / b: one rounding fewer
    return sum_to_shape(-grad * a / (b * b), shape_of(b))


def _neg(grad, inputs, saved):
    return -grad


POINTWISE = {
    "add": Derivative("AddBackward0", (_add_self, _add_other)),
    "sub": Derivative("SubBackward0", (_add_self, _sub_other)),
    "mul": Derivative("MulBackward0", (_mul_self, _mul_other)),
    "div": Derivative("DivBackward0", (_div_self, _div_other)),
    "neg": Derivative("NegBackward0", (_neg,)),
    "add_": Derivative("AddBackward0", (_add_self, _add_other)),
    "sub_": Derivative("SubBackward0", (_add_self, _sub_other)),
}
