"""Derivatives of the random family's samplers: a standard gamma draw is differentiable in
its concentration through the implicit reparameterisation gradient (the draw's CDF held
fixed), which ``torch._standard_gamma_grad`` computes from the concentration and the draw."""

from __future__ import annotations

from torch._interface import ops

from ._entry import Derivative


def _standard_gamma(grad, inputs, saved, result):
    return grad * ops["_standard_gamma_grad"].function(inputs[0], result)


RANDOM = {
    "_standard_gamma": Derivative("StandardGammaBackward0", (_standard_gamma,), saves_output=True),
}
