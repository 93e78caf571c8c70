"""``torch.nn.grad``: the gradients of a convolution with respect to its input and its
weight, as functions (each is the adjoint of the convolution in that argument)."""

from __future__ import annotations

import torch

from . import functional as F  # noqa: N812

__all__ = [
    "conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input",
    "conv3d_weight",
]  # fmt: skip


def _input_grad(conv, input_size, weight, grad_output, stride, padding, dilation, groups):
    # NOTE: the convolution is linear in its input, so its gradient there does not
    # depend on the input's values: differentiate at zero
    with torch.enable_grad():
        probe = torch.zeros(tuple(input_size), dtype=grad_output.dtype, requires_grad=True)
        out = conv(probe, weight.detach(), None, stride, padding, dilation, groups)
        return torch.autograd.grad(out, probe, grad_output)[0]


def _weight_grad(conv, input, weight_size, grad_output, stride, padding, dilation, groups):
    with torch.enable_grad():
        probe = torch.zeros(tuple(weight_size), dtype=grad_output.dtype, requires_grad=True)
        out = conv(input.detach(), probe, None, stride, padding, dilation, groups)
        return torch.autograd.grad(out, probe, grad_output)[0]


def _pair_of(nd, conv):
    def conv_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
        return _input_grad(conv, input_size, weight, grad_output, stride, padding, dilation, groups)

    def conv_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
        return _weight_grad(
            conv, input, weight_size, grad_output, stride, padding, dilation, groups
        )

    conv_input.__name__ = conv_input.__qualname__ = f"conv{nd}d_input"
    conv_weight.__name__ = conv_weight.__qualname__ = f"conv{nd}d_weight"
    conv_input.__doc__ = f"""The gradient of :func:`~torch.nn.functional.conv{nd}d` with
    respect to an input of shape ``input_size``, given ``grad_output``."""
    conv_weight.__doc__ = f"""The gradient of :func:`~torch.nn.functional.conv{nd}d` with
    respect to a weight of shape ``weight_size``, given ``input`` and ``grad_output``."""
    return conv_input, conv_weight


conv1d_input, conv1d_weight = _pair_of(1, F.conv1d)
conv2d_input, conv2d_weight = _pair_of(2, F.conv2d)
conv3d_input, conv3d_weight = _pair_of(3, F.conv3d)
