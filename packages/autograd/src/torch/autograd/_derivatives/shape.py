"""Derivatives of the shape family."""

from __future__ import annotations

from ._entry import Derivative, sum_to_shape


def _reshape(grad, inputs, saved):
    return grad.reshape(saved[0])


def _expand(grad, inputs, saved):
    return sum_to_shape(grad, saved[0])


def _transpose(grad, inputs, saved):
    return grad.transpose(saved[0], saved[1])


SHAPE = {
    "reshape": Derivative("ViewBackward0", (_reshape,)),
    "expand": Derivative("ExpandBackward0", (_expand,)),
    "transpose": Derivative("TransposeBackward0", (_transpose,)),
}
