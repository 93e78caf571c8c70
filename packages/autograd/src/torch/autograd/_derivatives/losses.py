"""Derivatives of core's loss kernels (``torch._ops.losses``): the CTC loss. Its gradient
is computed by core's ``_ctc_loss_backward`` on arrays; under ``create_graph`` that
backward is recorded as an op whose own derivative raises, as in PyTorch."""

from __future__ import annotations

from torch._interface import ops

from ._entry import Derivative


def _fn(name: str):
    return ops[name].function


def _ctc_loss(grad, inputs, saved):
    # recorded (so that a second derivative raises) only under create_graph
    return _fn("_ctc_loss_backward")(grad, inputs[0], saved.ctc)


def _no_second_derivative(grad, inputs, saved):
    raise RuntimeError("derivative for aten::_ctc_loss_backward is not implemented")


LOSSES = {
    "_ctc_loss": Derivative("CtcLossBackward0", (_ctc_loss, None), saved_inputs=()),
    "_ctc_loss_backward": Derivative(
        "CtcLossBackwardBackward0",
        (_no_second_derivative, _no_second_derivative),
        saved_inputs=(),
    ),
}
