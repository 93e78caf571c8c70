"""Derivatives of core's special-function kernels (``torch._ops.special_functions``):
the modified Bessel functions, ``polygamma`` and the incomplete gamma functions."""

from __future__ import annotations

import torch

from ._entry import Derivative, shape_of, sum_to_shape


def _i0(grad, inputs, saved):
    return grad * torch.special.i1(inputs[0])


def _i1_over_x(x, i1):
    """``i1(x) / x``, with its limit 1/2 at 0."""
    zero = x == 0
    safe = torch.where(zero, torch.ones_like(x), x)
    return torch.where(zero, torch.full_like(x, 0.5), i1 / safe)


def _i1(grad, inputs, saved):
    x = inputs[0]
    return grad * (torch.i0(x) - _i1_over_x(x, torch.special.i1(x)))


def _i0e(grad, inputs, saved):
    x = inputs[0]
    return grad * (torch.special.i1e(x) - torch.sign(x) * torch.special.i0e(x))


def _i1e(grad, inputs, saved):
    x = inputs[0]
    i1e = torch.special.i1e(x)
    return grad * (torch.special.i0e(x) - torch.sign(x) * i1e - _i1_over_x(x, i1e))


def _polygamma(grad, inputs, saved):
    return grad * torch.polygamma(saved.n + 1, inputs[0])


def _not_implemented_input(name: str):
    """The formula for ``input`` of an op PyTorch differentiates in its other operand
    only: it raises PyTorch's NotImplementedError."""

    def formula(grad, inputs, saved):
        raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")

    return formula


def _igamma_other(grad, inputs, saved):
    a, x = inputs
    # d/dx P(a, x) = x^(a-1) e^(-x) / Gamma(a), PyTorch's formula (in logs)
    density = torch.exp((a - 1) * torch.log(x) - x - torch.lgamma(a))
    return sum_to_shape(grad * density, shape_of(x))


def _igammac_other(grad, inputs, saved):
    return -_igamma_other(grad, inputs, saved)


SPECIAL = {
    "igamma": Derivative("IgammaBackward0", (_not_implemented_input("igamma"), _igamma_other)),
    "igammac": Derivative("IgammacBackward0", (_not_implemented_input("igammac"), _igammac_other)),
    "i0": Derivative("I0Backward0", (_i0,)),
    "special_i1": Derivative("SpecialI1Backward0", (_i1,)),
    "special_i0e": Derivative("SpecialI0EBackward0", (_i0e,)),
    "special_i1e": Derivative("SpecialI1EBackward0", (_i1e,)),
    "polygamma": Derivative("PolygammaBackward0", (_polygamma,)),
}
