"""Derivatives of core's ``torch._ops.math_extras`` family (``logcumsumexp``,
``nextafter``, ``heaviside``; the rest of the family are composites)."""

from __future__ import annotations

import torch

from ._entry import Derivative, not_implemented, shape_of, sum_to_shape


def _reverse_logcumsumexp(x, dim):
    return torch.logcumsumexp(x.flip(dim), dim).flip(dim)


def _logcumsumexp(grad, inputs, saved):
    # d out_i / d x_j = exp(x_j - out_i) for j <= i. Summing grad_i exp(x_j - out_i) over
    # i >= j in log space keeps it finite: positive and negative parts of grad apart.
    (x,) = inputs
    (dim,) = saved
    out = torch.logcumsumexp(x.detach(), dim)
    positive = _reverse_logcumsumexp(torch.log(grad.clamp(min=0)) - out, dim)
    negative = _reverse_logcumsumexp(torch.log((-grad).clamp(min=0)) - out, dim)
    return torch.exp(x + positive) - torch.exp(x + negative)


def _nextafter_input(grad, inputs, saved):
    # a step of one ulp: PyTorch passes the gradient through for the input
    return sum_to_shape(grad, shape_of(inputs[0]))


def _nextafter_other(grad, inputs, saved):
    return torch.zeros(shape_of(inputs[1]), dtype=grad.dtype)


MATH_EXTRAS = {
    "logcumsumexp": Derivative("LogcumsumexpBackward0", (_logcumsumexp,)),
    "nextafter": Derivative(
        "NextafterBackward0", (_nextafter_input, _nextafter_other), saved_inputs=()
    ),
    # recorded (float results require grad) but not differentiable, as in PyTorch
    "heaviside": Derivative("NotImplemented", (not_implemented("heaviside"),) * 2, saved_inputs=()),
    "heaviside_": Derivative(
        "NotImplemented", (not_implemented("heaviside_"),) * 2, saved_inputs=()
    ),
}
