"""Derivatives of core's ``torch._ops.scans`` family (``logcumsumexp``, and ``logaddexp``
of complex operands; the in-place scans write the out-of-place results)."""

from __future__ import annotations

import torch

from ._entry import Derivative, shape_of, sum_to_shape


def _reverse_logcumsumexp(x, dim):
    return torch.logcumsumexp(x.flip(dim), dim).flip(dim)


def _logcumsumexp(grad, inputs, saved, result):
    # d out_i / d x_j = exp(x_j - out_i) for j <= i: the gradient is
    # sum over i >= j of grad_i exp(x_j - out_i), summed in log space to stay finite for
    # large and small inputs. PyTorch's formula, on the saved result (connected to this
    # node under create_graph, so double backward sees it depend on x) and the input: the
    # backward is itself differentiable in x, the result and grad.
    (x,) = inputs
    dim = saved.dim
    if grad.dim() == 0 or grad.numel() == 0:  # as PyTorch: one element is its own sum
        return grad
    if grad.is_complex():
        # PyTorch's complex branch: one log of the conjugate gradient, no sign split
        total = _reverse_logcumsumexp(torch.log(grad.conj()) - result, dim)
        return torch.exp(total + x).conj()
    # real: the positive and negative parts of grad apart. Entries of the other sign get the
    # lowest finite value, not -inf: exp of it is still 0, and the backward of this backward
    # (a logcumsumexp of them) stays free of -inf - -inf
    lowest = torch.finfo(grad.dtype).min
    log_abs = torch.log(torch.abs(grad))
    positive = torch.where(grad > 0, log_abs, lowest)
    negative = torch.where(grad < 0, log_abs, lowest)
    return torch.exp(_reverse_logcumsumexp(positive - result, dim) + x) - torch.exp(
        _reverse_logcumsumexp(negative - result, dim) + x
    )


def _logaddexp_complex(index):
    # d/da log(e^a + e^b) = 1 / (1 + e^(b - a)), conjugated (PyTorch's convention)
    def formula(grad, inputs, saved):
        mine, theirs = inputs[index], inputs[1 - index]
        if not mine.is_complex():
            # PyTorch's formula gives a real operand a complex gradient, which its engine
            # refuses: a real operand of a complex logaddexp has no backward there
            raise RuntimeError(
                "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == "
                "grad_is_complex) to be true, but got false.  (Could this error message be "
                "improved?  If so, please report an enhancement request to PyTorch.)"
            )
        result = grad / (1 + torch.exp(theirs - mine)).conj()
        if result.dtype != mine.dtype:
            result = result.to(mine.dtype)
        return sum_to_shape(result, shape_of(mine))

    return formula


SCANS = {
    # the result is saved as well as the input (as in PyTorch)
    "logcumsumexp": Derivative("LogcumsumexpBackward0", (_logcumsumexp,), saves_output=True),
    # torch.logaddexp of complex operands (the real form is a composite)
    "_logaddexp_complex": Derivative(
        "LogaddexpBackward0", (_logaddexp_complex(0), _logaddexp_complex(1))
    ),
}
