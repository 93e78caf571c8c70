"""Affine layers: ``Identity``, ``Linear``, ``Bilinear`` and ``LazyLinear``."""

from __future__ import annotations

import math

import torch

from .. import functional as F  # noqa: N812
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

__all__ = ["Identity", "Linear", "Bilinear", "LazyLinear"]


class Identity(Module):
    """Returns its input; accepts and ignores any constructor arguments.

    Examples::

        >>> nn.Identity(54, unused="x")(torch.ones(2))
        tensor([1., 1.])
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input):
        return input


def _uniform_bias(bias, fan_in: int) -> None:
    bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
    init.uniform_(bias, -bound, bound)


def _add_weight_and_bias(module, weight_shape: tuple, bias: bool, dtype) -> None:
    """Register ``weight`` of ``weight_shape`` and ``bias`` (one per output feature, or
    None), then draw them with the module's ``reset_parameters``."""
    module.weight = Parameter(torch.empty(weight_shape, dtype=dtype))
    if bias:
        module.bias = Parameter(torch.empty(weight_shape[0], dtype=dtype))
    else:
        module.register_parameter("bias", None)
    module.reset_parameters()


class Linear(Module):
    """``y = x W^T + b``.

    Args:
        in_features (int): size of each input sample.
        out_features (int): size of each output sample.
        bias (bool): learn an additive bias. Default: ``True``.

    Shape:
        - Input: (*, in_features).
        - Output: (*, out_features).

    Attributes:
        weight: (out_features, in_features), initialised from
            U(-1/sqrt(in_features), 1/sqrt(in_features)) (kaiming-uniform, a=sqrt(5)).
        bias: (out_features,), from the same distribution.

    Examples::

        >>> m = nn.Linear(20, 30)
        >>> m(torch.randn(128, 20)).shape
        torch.Size([128, 30])
    """

    _non_full_hook_style = "linear"  # see _hooks.NonFullBackwardHook

    def __init__(
        self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        _add_weight_and_bias(self, (out_features, in_features), bias, dtype)

    def reset_parameters(self) -> None:
        """Draw the initial weight and bias."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            _uniform_bias(self.bias, init._calculate_fan_in_and_fan_out(self.weight)[0])

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Bilinear(Module):
    """``y = x1^T A x2 + b``.

    Args:
        in1_features (int), in2_features (int): sizes of the two inputs.
        out_features (int): size of the output.
        bias (bool): learn an additive bias. Default: ``True``.

    Shape:
        - Input1: (*, in1_features); Input2: (*, in2_features).
        - Output: (*, out_features).

    Examples::

        >>> m = nn.Bilinear(20, 30, 40)
        >>> m(torch.randn(128, 20), torch.randn(128, 30)).shape
        torch.Size([128, 40])
    """

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        _add_weight_and_bias(self, (out_features, in1_features, in2_features), bias, dtype)

    def reset_parameters(self) -> None:
        """Draw weight and bias from U(-1/sqrt(in1_features), 1/sqrt(in1_features))."""
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )


class LazyLinear(LazyModuleMixin, Linear):
    """A :class:`Linear` whose ``in_features`` is read from the first input.

    Examples::

        >>> m = nn.LazyLinear(3)
        >>> m(torch.ones(2, 5)).shape
        torch.Size([2, 3])
        >>> m
        Linear(in_features=5, out_features=3, bias=True)
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter()
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            with torch.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class NonDynamicallyQuantizableLinear(Linear):
    """A :class:`Linear` (the output projection of :class:`MultiheadAttention`), named
    apart only so that quantisation tools can tell it from other linear layers."""
