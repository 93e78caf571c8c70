"""Derivatives of the binary math family."""

from __future__ import annotations

import torch

from ._entry import Derivative, shape_of, sum_to_shape


def _share(grad, mine, theirs, wins):
    """``grad`` where this operand was chosen; half of it on ties."""
    chosen = torch.where(wins, grad, 0.0)
    return torch.where(mine == theirs, grad / 2, chosen)


def _maximum_self(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(_share(grad, a, b, a > b), shape_of(a))


def _maximum_other(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(_share(grad, b, a, b > a), shape_of(b))


def _minimum_self(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(_share(grad, a, b, a < b), shape_of(a))


def _minimum_other(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(_share(grad, b, a, b < a), shape_of(b))


def _fmax_self(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(torch.where((a >= b) | torch.isnan(b), grad, 0.0), shape_of(a))


def _fmax_other(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(torch.where(~((a >= b) | torch.isnan(b)), grad, 0.0), shape_of(b))


def _fmin_self(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(torch.where((a <= b) | torch.isnan(b), grad, 0.0), shape_of(a))


def _fmin_other(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(torch.where(~((a <= b) | torch.isnan(b)), grad, 0.0), shape_of(b))


def _atan2_self(grad, inputs, saved):
    y, x = inputs
    return sum_to_shape(grad * x / (x * x + y * y), shape_of(y))


def _atan2_other(grad, inputs, saved):
    y, x = inputs
    return sum_to_shape(-grad * y / (x * x + y * y), shape_of(x))


def _hypot_self(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(grad * a / torch.hypot(a, b), shape_of(a))


def _hypot_other(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(grad * b / torch.hypot(a, b), shape_of(b))


def _fmod_self(grad, inputs, saved):
    return sum_to_shape(grad, shape_of(inputs[0]))


def _fmod_other(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(-grad * torch.trunc(a / b), shape_of(b))


BINARY_MATH = {
    "maximum": Derivative("MaximumBackward0", (_maximum_self, _maximum_other)),
    "minimum": Derivative("MinimumBackward0", (_minimum_self, _minimum_other)),
    "fmax": Derivative("FmaxBackward0", (_fmax_self, _fmax_other)),
    "fmin": Derivative("FminBackward0", (_fmin_self, _fmin_other)),
    "atan2": Derivative("Atan2Backward0", (_atan2_self, _atan2_other)),
    "hypot": Derivative("HypotBackward0", (_hypot_self, _hypot_other)),
    "fmod": Derivative("FmodBackward0", (_fmod_self, _fmod_other)),
}
