"""Derivatives of the ternary family."""

from __future__ import annotations

import torch

from ._entry import Derivative, holomorphic_entry, shape_of, sum_to_shape


def _where_self(grad, inputs, saved):
    condition, x, _ = inputs
    return sum_to_shape(torch.where(condition, grad, 0.0), shape_of(x))


def _where_other(grad, inputs, saved):
    condition, _, y = inputs
    return sum_to_shape(torch.where(condition, 0.0, grad), shape_of(y))


def _within(x, low, high):
    inside = torch.ones_like(x, dtype=torch.bool)
    if low is not None:
        inside = inside & (x >= low)
    if high is not None:
        inside = inside & (x <= high)
    return inside


def _clamp_self(grad, inputs, saved):
    x, low, high = inputs
    return torch.where(_within(x, low, high), grad, 0.0)


def _clamp_min(grad, inputs, saved):
    x, low, high = inputs
    below = x < low
    if high is not None:
        below = below & (low < high)
    return sum_to_shape(torch.where(below, grad, 0.0), shape_of(low))


def _clamp_max(grad, inputs, saved):
    x, low, high = inputs
    above = x > high
    if low is not None:
        above = above | (high < low)
    return sum_to_shape(torch.where(above, grad, 0.0), shape_of(high))


def _lerp_start(grad, inputs, saved):
    start, _, weight = inputs
    return sum_to_shape(grad * (1 - weight), shape_of(start))


def _lerp_end(grad, inputs, saved):
    _, end, weight = inputs
    return sum_to_shape(grad * weight, shape_of(end))


def _lerp_weight(grad, inputs, saved):
    start, end, weight = inputs
    return sum_to_shape(grad * (end - start), shape_of(weight))


def _add_input(grad, inputs, saved):
    return sum_to_shape(grad, shape_of(inputs[0]))


def _addcmul_t1(grad, inputs, saved):
    _, t1, t2 = inputs
    return sum_to_shape(grad * saved.value * t2, shape_of(t1))


def _addcmul_t2(grad, inputs, saved):
    _, t1, t2 = inputs
    return sum_to_shape(grad * saved.value * t1, shape_of(t2))


def _addcdiv_t1(grad, inputs, saved):
    _, t1, t2 = inputs
    return sum_to_shape(grad * saved.value / t2, shape_of(t1))


def _addcdiv_t2(grad, inputs, saved):
    _, t1, t2 = inputs
    return sum_to_shape(-grad * saved.value * t1 / (t2 * t2), shape_of(t2))


def _no_grad(grad, inputs, saved):
    return None


TERNARY = {
    # only the condition is read (x and y for their shapes)
    "where": Derivative("WhereBackward0", (_no_grad, _where_self, _where_other), saved_inputs=(0,)),
    "clamp": Derivative("ClampBackward1", (_clamp_self, _clamp_min, _clamp_max)),
    # NOTE: holomorphic in every input: complex gradients take the conjugate derivative
    "lerp": holomorphic_entry(Derivative("LerpBackward0", (_lerp_start, _lerp_end, _lerp_weight))),
    "addcmul": holomorphic_entry(
        Derivative(
            "AddcmulBackward0", (_add_input, _addcmul_t1, _addcmul_t2), reads=((), (2,), (1,))
        )
    ),
    "addcdiv": holomorphic_entry(
        Derivative(
            "AddcdivBackward0", (_add_input, _addcdiv_t1, _addcdiv_t2), reads=((), (2,), (1, 2))
        )
    ),
}
