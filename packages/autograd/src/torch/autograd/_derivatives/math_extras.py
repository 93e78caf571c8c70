"""Derivatives of core's ``torch._ops.math_extras`` family (``logcumsumexp``; the rest of
the family are composites)."""

from __future__ import annotations

import torch

from ._entry import Derivative


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


MATH_EXTRAS = {
    "logcumsumexp": Derivative("LogcumsumexpBackward0", (_logcumsumexp,)),
}
