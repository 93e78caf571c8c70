"""Derivatives of the fill family (``torch.fill``, ``fill_``, ``zero_``): the result does
not depend on the filled tensor; a 0-dim tensor value gets the sum of the gradient."""

from __future__ import annotations

import torch

from ._entry import Derivative, shape_of


def _fill_self(grad, inputs, saved):
    return torch.zeros_like(grad)


def _fill_value(grad, inputs, saved):
    return grad.sum().reshape(shape_of(inputs[1]))


FILL = {
    "fill": Derivative(
        "FillBackward0", (_fill_self, _fill_value), saved_inputs=(), drops_inputs=True
    ),
}
