"""Derivatives of the conversion family (dtype casts and copies)."""

from __future__ import annotations

import torch

from ._entry import Derivative, sum_to_shape


def _to_copy(grad, inputs, saved):
    if grad.is_complex() and not saved.input_dtype.is_complex:  # a real input made complex
        grad = grad.real
    return grad.to(saved.input_dtype)


def _to_device(grad, inputs, saved):
    return grad.to(saved.input_device)  # back to the device the input was on


def _clone(grad, inputs, saved):
    return grad


def _copy_self(grad, inputs, saved):
    return torch.zeros_like(grad)


def _copy_src(grad, inputs, saved):
    return sum_to_shape(grad, tuple(inputs[1].shape)).to(saved.src_dtype)


CONVERSION = {
    # shapes and dtypes only: writing into an input afterwards leaves backward as it is
    "_to_copy": Derivative("ToCopyBackward0", (_to_copy,), saved_inputs=()),
    "_to_device": Derivative("ToCopyBackward0", (_to_device,), saved_inputs=()),
    "clone": Derivative("CloneBackward0", (_clone,), saved_inputs=()),
    "copy_": Derivative("CopyBackwards", (_copy_self, _copy_src), saved_inputs=()),
}
