"""Differentiable first derivatives of the NN kernels whose backward is a core kernel
that is not itself recorded (``_conv_backward``, ``_avg_pool_backward``,
``_max_pool_backward``). Under ``create_graph`` the formulas of nn_kernels.py go through
these Functions, whose own backward is written with recorded ops (or these Functions
again), so double (and higher) backward is right.

Imported lazily by nn_kernels.py: it needs :mod:`torch.autograd.function`, which needs
the engine, which needs the derivative tables.
"""

from __future__ import annotations

import torch
from torch._interface import ops

from ..function import Function

__all__ = ["ConvGrad", "AvgPoolGrad", "MaxPoolGrad"]


def _convolve(x, weight, geometry):
    stride, pads, dilation, groups = geometry
    padding = tuple(p for p, _ in pads)
    return torch.convolution(x, weight, None, stride, padding, dilation, groups)


class ConvGrad(Function):
    """A gradient of a convolution: with respect to its input (``which="input"``, linear in
    ``grad`` and in ``weight``) or its weight (``which="weight"``, linear in ``x`` and in
    ``grad``; ``weight`` only gives the shape)."""

    @staticmethod
    def forward(ctx, grad, x, weight, geometry, which):
        ctx.save_for_backward(grad, x, weight)
        ctx.geometry, ctx.which = geometry, which
        return ops["_conv_backward"].function(grad, x, weight, *geometry, which)

    @staticmethod
    def backward(ctx, grad_grad):
        grad, x, weight = ctx.saved_tensors
        geometry = ctx.geometry
        if ctx.which == "input":  # of grad and weight
            d_weight = ConvGrad.apply(grad, grad_grad, weight, geometry, "weight")
            return _convolve(grad_grad, weight, geometry), None, d_weight, None, None
        d_x = ConvGrad.apply(grad, x, grad_grad, geometry, "input")  # of grad and x
        return _convolve(x, grad_grad, geometry), d_x, None, None, None


class AvgPoolGrad(Function):
    """The input gradient of average pooling: linear in ``grad``; its adjoint is a sum
    pooling divided by the same divisors."""

    @staticmethod
    def forward(ctx, grad, x, kernel, stride, padding, divisors):
        ctx.pooling = (kernel, stride, padding, divisors, tuple(grad.shape))
        return ops["_avg_pool_backward"].function(grad, x, kernel, stride, padding, divisors)

    @staticmethod
    def backward(ctx, grad_grad_input):
        kernel, stride, padding, divisors, shape = ctx.pooling
        avg_pool = ops["avg_pool"].function
        nd = len(kernel)
        for ceil_mode in (False, True):  # whichever gives the forward's output shape
            sums = avg_pool(grad_grad_input, kernel, stride, padding, ceil_mode, True, 1, nd)
            if tuple(sums.shape) == shape:
                break
        scale = torch.tensor(1.0 / divisors, dtype=sums.dtype)
        return sums * scale, None, None, None, None, None


class MaxPoolGrad(Function):
    """The input gradient of max pooling: linear in ``grad``; its adjoint gathers at the
    maxima."""

    @staticmethod
    def forward(ctx, grad, x, indices):
        ctx.save_for_backward(indices)
        ctx.grad_shape = tuple(grad.shape)
        return ops["_max_pool_backward"].function(grad, x, indices)

    @staticmethod
    def backward(ctx, grad_grad_input):
        (indices,) = ctx.saved_tensors
        n, c = ctx.grad_shape[:2]
        planes = grad_grad_input.reshape(n, c, -1)
        picked = planes.gather(2, indices.reshape(n, c, -1))
        return picked.reshape(ctx.grad_shape), None, None
