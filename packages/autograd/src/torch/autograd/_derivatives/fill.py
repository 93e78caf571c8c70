"""Derivatives of the fill family (``torch.fill``, ``fill_``, ``zero_``, the random fills
``uniform_``, ``bernoulli_``...): the result does not depend on the filled tensor; a 0-dim
tensor value gets the sum of the gradient, a tensor of probabilities none."""

from __future__ import annotations

import torch

from ._entry import Derivative, shape_of


def _fill_self(grad, inputs, saved):
    return torch.zeros_like(grad)


def _fill_value(grad, inputs, saved):
    return grad.sum().reshape(shape_of(inputs[1]))


def _zero(grad, inputs, saved):
    return torch.zeros(shape_of(inputs[1]), dtype=grad.dtype)


def _nothing(node_name: str, inputs: int = 1) -> Derivative:
    formulas = (_fill_self, _zero)[:inputs]
    return Derivative(node_name, formulas, saved_inputs=(), drops_inputs=True)


FILL = {
    "fill": Derivative(
        "FillBackward0", (_fill_self, _fill_value), saved_inputs=(), drops_inputs=True
    ),
    # in-place fills (PyTorch names their nodes after the in-place overload)
    "fill_": Derivative(
        "FillBackward2", (_fill_self, _fill_value), saved_inputs=(), drops_inputs=True
    ),
    "fill_.Tensor": Derivative(
        "FillBackward3", (_fill_self, _fill_value), saved_inputs=(), drops_inputs=True
    ),
    "zero_": _nothing("ZeroBackward0"),
    "uniform_": _nothing("UniformBackward0"),
    "normal_": _nothing("NormalBackward0"),
    "random_": _nothing("RandomBackward2"),
    "random_.to": _nothing("RandomBackward1"),
    "random_.from": _nothing("RandomBackward0"),
    "exponential_": _nothing("ExponentialBackward0"),
    "geometric_": _nothing("GeometricBackward0"),
    "cauchy_": _nothing("CauchyBackward0"),
    "log_normal_": _nothing("LogNormalBackward0"),
    "bernoulli_.float": _nothing("BernoulliBackward2"),
    "bernoulli_.Tensor": _nothing("BernoulliBackward1", 2),
}
