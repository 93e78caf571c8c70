"""Derivatives of the neural-network kernels; the heavy lifting is core's backward ops."""

from __future__ import annotations

import torch
from torch._interface import ops

from ._entry import Derivative, holomorphic_entry


def _recorded():
    """The Functions whose backward is recorded, used under create_graph (imported
    late: they need torch.autograd.function)."""
    from . import double_backward

    return double_backward


def _geometry(saved) -> tuple:
    """A convolution's saved geometry, in the order ``_conv_backward`` takes it."""
    return saved.stride, saved.pads, saved.dilation, saved.groups


def _conv(which):
    def formula(grad, inputs, saved):
        x, weight, _ = inputs
        if torch.is_grad_enabled() and which != "bias":  # double backward: recorded
            return _recorded().ConvGrad.apply(grad, x, weight, _geometry(saved), which)
        return ops["_conv_backward"].function(grad, x, weight, *_geometry(saved), which)

    return formula


def _conv_transpose_input(grad, inputs, saved):
    # the adjoint of the adjoint: a plain convolution of the gradient
    padding = tuple(p for p, _ in saved.pads)
    return torch.convolution(
        grad, inputs[1], None, saved.stride, padding, saved.dilation, saved.groups
    )


def _conv_transpose_weight(grad, inputs, saved):
    x, weight, _ = inputs
    if torch.is_grad_enabled():
        return _recorded().ConvGrad.apply(x, grad, weight, _geometry(saved), "weight")
    return ops["_conv_backward"].function(x, grad, weight, *_geometry(saved), "weight")


def _conv_transpose_bias(grad, inputs, saved):
    return grad.sum((0,) + tuple(range(2, grad.dim())))


def _max_pool(grad, inputs, saved):
    indices = saved.indices
    if torch.is_grad_enabled():
        return _recorded().MaxPoolGrad.apply(grad, inputs[0], indices)
    return ops["_max_pool_backward"].function(grad, inputs[0], indices)


def _avg_pool(grad, inputs, saved):
    if torch.is_grad_enabled():
        return _recorded().AvgPoolGrad.apply(grad, inputs[0], *_pooling(saved))
    return ops["_avg_pool_backward"].function(grad, inputs[0], *_pooling(saved))


def _pooling(saved) -> tuple:
    """The arguments of ``_avg_pool_backward`` after ``grad`` and the input."""
    return saved.kernel_size, saved.stride, saved.padding, saved.divisors


def _softmax(grad, inputs, saved, y):
    dim = saved.dim
    if not torch.is_grad_enabled():  # one native pass per row (core's op)
        return ops["_softmax_backward"].function(grad, y, dim, False)
    return y * (grad - (grad * y).sum(dim, keepdim=True))


def _log_softmax(grad, inputs, saved, y):
    dim = saved.dim
    if not torch.is_grad_enabled():
        return ops["_softmax_backward"].function(grad, y, dim, True)
    return grad - torch.exp(y) * grad.sum(dim, keepdim=True)


NN_KERNELS = {
    # NOTE: bilinear, so complex gradients take the conjugate of the other operand
    "convolution": holomorphic_entry(
        Derivative("ConvolutionBackward0", (_conv("input"), _conv("weight"), _conv("bias")))
    ),
    "convolution_transpose": holomorphic_entry(
        Derivative(
            "ConvolutionBackward0",
            (_conv_transpose_input, _conv_transpose_weight, _conv_transpose_bias),
        )
    ),
    "max_pool": Derivative("MaxPool2DWithIndicesBackward0", (_max_pool,)),
    "avg_pool": Derivative("AvgPool2DBackward0", (_avg_pool,)),
    # the result is saved, not the input (as in PyTorch)
    "softmax": Derivative(
        "SoftmaxBackward0", (_softmax,), saved_inputs=(), saves_output=True, drops_inputs=True
    ),
    "log_softmax": Derivative(
        "LogSoftmaxBackward0",
        (_log_softmax,),
        saved_inputs=(),
        saves_output=True,
        drops_inputs=True,
    ),
}
