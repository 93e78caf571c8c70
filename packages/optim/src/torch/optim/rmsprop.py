"""RMSprop: steps divided by a running root-mean-square of the gradient."""

from __future__ import annotations

from torch._interface import optim as native_optim

from ._common import as_float, counter, direction, zeros
from .optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop, optionally centered (dividing by an estimate of the gradient's standard
    deviation instead of its root mean square) and with momentum.

    {args}
        lr (float): learning rate. Default: ``1e-2``.
        alpha (float): decay of the running averages. Default: ``0.99``.
        eps (float): added to the denominator. Default: ``1e-8``.
        weight_decay (float): L2 penalty. Default: ``0``.
        momentum (float): momentum factor. Default: ``0``.
        centered (bool): subtract the squared running mean of the gradient.
            Default: ``False``.
        {maximize}

    ``foreach=True`` updates all parameters of a dtype in one native call (the same
    arithmetic); ``capturable`` and ``differentiable`` are accepted for compatibility.

    {example [1.0] | [1.0] | RMSprop([w], lr=0.01, alpha=0.75) | tensor([0.9800])}
    """

    _group_keys = (
        "lr momentum alpha eps centered weight_decay capturable foreach maximize differentiable"
    )

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):  # fmt: skip
        self._take_options(params, locals(), "lr eps momentum weight_decay alpha")

    _state_spec = (
        counter(),
        zeros("square_avg"),
        zeros("momentum_buffer", when="momentum"),
        zeros("grad_avg", when="centered"),
    )
    _kernel = native_optim.RMSpropStep

    def _kernel_state(self, group) -> tuple:
        names = ("square_avg",)
        names += ("grad_avg",) if group["centered"] else ()
        return names + (("momentum_buffer",) if group["momentum"] > 0 else ())

    def _native(self, group, columns, scalars):
        centered, momentum = group["centered"], group["momentum"] > 0
        return native_optim.RMSpropStep(
            columns[0],
            columns[1],
            columns[2],
            columns[3] if centered else None,
            columns[-1] if momentum else None,
            group["alpha"],
            1 - group["alpha"],
            group["eps"],
            group["weight_decay"],
            group["momentum"],
            -as_float(group["lr"]),
            group["maximize"],
            centered,
        )

    def _writes(self, group, scalars) -> tuple:
        writes = ((None, 1), ("square_avg", 2))
        writes += (("grad_avg", 1),) if group["centered"] else ()
        return writes + ((("momentum_buffer", 2),) if group["momentum"] > 0 else ())

    def _reference(self, p, state, group, scalars) -> None:
        alpha, lr = group["alpha"], as_float(group["lr"])
        grad = direction(p, group["maximize"])
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(group["eps"])
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            buf.mul_(group["momentum"]).addcdiv_(grad, avg)
            p.add_(buf, alpha=-lr)
        else:
            p.addcdiv_(grad, avg, value=-lr)
