"""Derivatives of core's ``torch._ops.math_extras`` family (``logcumsumexp``,
``nextafter``, ``heaviside``, ``logaddexp`` of complex operands; the rest of the family
are composites)."""

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
    if grad.dim() == 0 or grad.numel() == 0:  # as PyTorch: one element is its own sum
        return grad
    if grad.is_complex():
        # PyTorch's complex branch: one log of the conjugate gradient, no sign split (the
        # result depends on x through ``out`` too, for double backward to see)
        out = torch.logcumsumexp(x, dim)
        total = _reverse_logcumsumexp(torch.log(grad.conj()) - out, dim)
        return torch.exp(total + x).conj()
    out = torch.logcumsumexp(x.detach(), dim)
    positive = _reverse_logcumsumexp(torch.log(grad.clamp(min=0)) - out, dim)
    negative = _reverse_logcumsumexp(torch.log((-grad).clamp(min=0)) - out, dim)
    return torch.exp(x + positive) - torch.exp(x + negative)


def _logaddexp_complex(index):
    # d/da log(e^a + e^b) = 1 / (1 + e^(b - a)), conjugated (PyTorch's convention)
    def formula(grad, inputs, saved):
        mine, theirs = inputs[index], inputs[1 - index]
        if not mine.is_complex():
            # PyTorch's formula gives a real operand a complex gradient, which its engine
            # refuses: a real operand of a complex logaddexp has no backward there
            raise RuntimeError(
                "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == "
                "grad_is_complex) to be true, but got false.  (Could this error message be "
                "improved?  If so, please report an enhancement request to PyTorch.)"
            )
        result = grad / (1 + torch.exp(theirs - mine)).conj()
        if result.dtype != mine.dtype:
            result = result.to(mine.dtype)
        return sum_to_shape(result, shape_of(mine))

    return formula


def _nextafter_input(grad, inputs, saved):
    # a step of one ulp: PyTorch passes the gradient through for the input
    return sum_to_shape(grad, shape_of(inputs[0]))


def _nextafter_other(grad, inputs, saved):
    return torch.zeros(shape_of(inputs[1]), dtype=grad.dtype)


MATH_EXTRAS = {
    "logcumsumexp": Derivative("LogcumsumexpBackward0", (_logcumsumexp,)),
    # torch.logaddexp of complex operands (the real form is a composite)
    "_logaddexp_complex": Derivative(
        "LogaddexpBackward0", (_logaddexp_complex(0), _logaddexp_complex(1))
    ),
    "nextafter": Derivative(
        "NextafterBackward0", (_nextafter_input, _nextafter_other), saved_inputs=()
    ),
    # recorded (float results require grad) but not differentiable, as in PyTorch
    "heaviside": Derivative("NotImplemented", (not_implemented("heaviside"),) * 2, saved_inputs=()),
    "heaviside_": Derivative(
        "NotImplemented", (not_implemented("heaviside_"),) * 2, saved_inputs=()
    ),
}
