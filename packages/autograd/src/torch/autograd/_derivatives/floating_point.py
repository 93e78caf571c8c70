"""Derivatives of core's ``torch._ops.floating_point`` family (``nextafter``, ``heaviside``;
the rest of the family are composites)."""

from __future__ import annotations

import torch

from ._entry import Derivative, not_implemented, shape_of, sum_to_shape


def _nextafter_input(grad, inputs, saved):
    # a step of one ulp: PyTorch passes the gradient through for the input
    return sum_to_shape(grad, shape_of(inputs[0]))


def _nextafter_other(grad, inputs, saved):
    return torch.zeros(shape_of(inputs[1]), dtype=grad.dtype)


FLOATING_POINT = {
    "nextafter": Derivative(
        "NextafterBackward0", (_nextafter_input, _nextafter_other), saved_inputs=()
    ),
    # recorded (float results require grad) but not differentiable, as in PyTorch
    "heaviside": Derivative("NotImplemented", (not_implemented("heaviside"),) * 2, saved_inputs=()),
    "heaviside_": Derivative(
        "NotImplemented", (not_implemented("heaviside_"),) * 2, saved_inputs=()
    ),
}
