"""Fold an inference-mode batch norm into the convolution that feeds it:
``bn(conv(x, W, b))`` = ``conv(x, W * s, (b - mean) * s + beta)`` with
``s = gamma / sqrt(var + eps)`` per output channel. Needs the convolution's weight and
bias and the batch norm's statistics and affine parameters as constants (a frozen
graph), and the convolution's output read by the batch norm alone."""

from __future__ import annotations

import torch

from .._ir import Graph, Node
from ._util import arguments, constant_value, is_constant

__all__ = ["fold_conv_batch_norm"]

_CONVOLUTIONS = {"aten::convolution", "aten::conv1d", "aten::conv2d", "aten::conv3d"}
_BATCH_NORMS = {"aten::batch_norm"}


def fold_conv_batch_norm(graph: Graph) -> int:
    """Fold every conv -> batch norm pair it can; returns how many were folded."""
    folded = 0
    for node in list(graph.nodes):
        if node.kind in _BATCH_NORMS and node.owner is graph.block and _fold(graph, node):
            folded += 1
    return folded


def _constant_tensor(args: dict, name: str):
    value = args.get(name)
    if value is None:
        return None
    if not is_constant(value):
        return False
    return constant_value(value)


def _fold(graph: Graph, bn: Node) -> bool:
    bn_args = arguments(bn)
    if bn_args is None or "input" not in bn_args:
        return False
    source = bn_args["input"]
    conv = source.node
    if conv is None or conv.kind not in _CONVOLUTIONS or len(source.uses) != 1:
        return False
    if any(source is v for v in graph.outputs):
        return False
    conv_args = arguments(conv)
    if conv_args is None:
        return False
    training = _constant_tensor(bn_args, "training")
    if training not in (None, False):
        return False
    names = ("running_mean", "running_var", "weight", "bias", "eps")
    mean, var, gamma, beta, eps = (_constant_tensor(bn_args, n) for n in names)
    weight, bias = _constant_tensor(conv_args, "weight"), _constant_tensor(conv_args, "bias")
    if any(v is False for v in (mean, var, gamma, beta, eps, weight, bias)):
        return False
    if mean is None or var is None or weight is None:
        return False
    eps = 1e-5 if eps is None else eps
    with torch.no_grad():
        scale = torch.rsqrt(var + eps)
        if gamma is not None:
            scale = scale * gamma
        shape = (-1,) + (1,) * (weight.dim() - 1)
        new_weight = (weight * scale.reshape(shape)).contiguous()
        new_bias = (torch.zeros_like(mean) if bias is None else bias) - mean
        new_bias = new_bias * scale
        if beta is not None:
            new_bias = new_bias + beta
    _set_argument(graph, conv, conv_args, "weight", new_weight, 1)
    _set_argument(graph, conv, arguments(conv), "bias", new_bias, 2)
    bn.replace_with(source)
    return True


def _set_argument(graph: Graph, node: Node, args: dict, name: str, tensor, position: int):
    constant = graph.constant(tensor, before=node)
    if name in args:
        index = next(i for i, v in enumerate(node.inputs) if v is args[name])
        node.replace_input(index, constant)
        return
    # the argument was left at its default: give it positionally (bias comes third)
    kwnames = node.attrs.get("kwnames", ())
    positional = len(node.inputs) - len(kwnames)
    if positional != position:
        raise RuntimeError(f"cannot set argument {name} of {node.kind}")
    node.inputs.insert(position, constant)
    constant.uses.append(node)
