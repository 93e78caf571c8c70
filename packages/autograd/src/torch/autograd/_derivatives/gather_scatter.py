"""Derivatives of the gather/scatter family."""

from __future__ import annotations

import torch

from ._entry import Derivative


def _gather(grad, inputs, saved):
    x, index = inputs
    return torch.zeros_like(x).scatter_add(saved.dim, index, grad)


def _scatter_self(grad, inputs, saved):
    _, index, _ = inputs
    return grad.scatter(saved.dim, index, 0.0)


def _scatter_src(grad, inputs, saved):
    _, index, src = inputs
    return grad.gather(saved.dim, index)


def _scatter_add_self(grad, inputs, saved):
    return grad


def _flip(grad, inputs, saved):
    return torch.flip(grad, saved.dims)


def _no_grad(grad, inputs, saved):
    return None


GATHER_SCATTER = {
    "gather": Derivative("GatherBackward0", (_gather, _no_grad)),
    # the index is read, not the values of self or src
    "scatter": Derivative(
        "ScatterBackward0", (_scatter_self, _no_grad, _scatter_src), saved_inputs=(1,)
    ),
    "scatter_add": Derivative(
        "ScatterAddBackward0", (_scatter_add_self, _no_grad, _scatter_src), saved_inputs=(1,)
    ),
    "flip": Derivative("FlipBackward0", (_flip,), saved_inputs=()),
}
