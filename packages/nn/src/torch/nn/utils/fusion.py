"""Folding an evaluation-mode batch norm into the preceding convolution or linear
layer: ``bn(conv(x)) == fused(x)``."""

from __future__ import annotations

import copy

import torch

__all__ = [
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
]


def _scale(bn_rv, bn_eps, bn_w):
    weight = torch.ones_like(bn_rv) if bn_w is None else bn_w
    return weight * torch.rsqrt(bn_rv + bn_eps)


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose: bool = False):
    """The weight and bias of one convolution equal to ``conv`` followed by the batch
    norm with these statistics; returns two Parameters.

    Examples::

        >>> conv, bn = nn.Conv2d(1, 2, 3).eval(), nn.BatchNorm2d(2).eval()
        >>> w, b = nn.utils.fuse_conv_bn_weights(conv.weight, conv.bias, bn.running_mean,
        ...     bn.running_var, bn.eps, bn.weight, bn.bias)
        >>> w.shape, b.shape
        (torch.Size([2, 1, 3, 3]), torch.Size([2]))
    """
    dtype = conv_w.dtype
    conv_b = torch.zeros_like(bn_rm) if conv_b is None else conv_b
    bn_b = torch.zeros_like(bn_rm) if bn_b is None else bn_b
    scale = _scale(bn_rv, bn_eps, bn_w)
    shape = [1] * conv_w.dim()
    shape[1 if transpose else 0] = -1
    weight = (conv_w * scale.reshape(shape)).to(dtype)
    bias = ((conv_b - bn_rm) * scale + bn_b).to(dtype)
    return (
        torch.nn.Parameter(weight.detach(), conv_w.requires_grad),
        torch.nn.Parameter(bias.detach(), conv_b.requires_grad),
    )


def fuse_conv_bn_eval(conv, bn, transpose: bool = False):
    """A copy of ``conv`` with ``bn`` (both in evaluation mode) folded in."""
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused = copy.deepcopy(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("fuse_conv_bn_eval needs batch norm running statistics")
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight,
        bn.bias, transpose,
    )  # fmt: skip
    return fused


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """The weight and bias of one linear layer equal to ``linear`` followed by the batch
    norm with these statistics; returns two Parameters."""
    linear_b = torch.zeros_like(bn_rm) if linear_b is None else linear_b
    bn_b = torch.zeros_like(bn_rm) if bn_b is None else bn_b
    scale = _scale(bn_rv, bn_eps, bn_w)
    weight = linear_w * scale.unsqueeze(-1)
    bias = (linear_b - bn_rm) * scale + bn_b
    return (
        torch.nn.Parameter(weight.detach(), linear_w.requires_grad),
        torch.nn.Parameter(bias.detach(), linear_b.requires_grad),
    )


def fuse_linear_bn_eval(linear, bn):
    """A copy of ``linear`` with ``bn`` (both in evaluation mode) folded in."""
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            "To fuse, linear.out_features must equal bn.num_features or bn.num_features "
            "must equal 1"
        )
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias
    )
    return fused
