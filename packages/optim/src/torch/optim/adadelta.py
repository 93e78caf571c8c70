"""Adadelta: steps scaled by the ratio of running RMS of updates and of gradients."""

from __future__ import annotations

from torch._interface import optim as native_optim

from ._common import as_float, counter, direction, zeros
from .optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta: each coordinate's step is its gradient times
    ``RMS[previous updates] / RMS[gradients]``, then scaled by ``lr``.

    {args}
        lr (float): factor applied to the update. Default: ``1.0``.
        rho (float): decay of the running averages, in [0, 1]. Default: ``0.9``.
        eps (float): added inside both square roots. Default: ``1e-6``.
        weight_decay (float): L2 penalty. Default: ``0``.
        {maximize}

    ``foreach``, ``capturable`` and ``differentiable`` are accepted for compatibility.

    {example [1.0] | [1.0] | Adadelta([w], lr=1.0, rho=0.0, eps=1.0) | tensor([0.2929])}
    """

    _group_keys = "lr rho eps weight_decay maximize capturable foreach differentiable"

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):  # fmt: skip
        self._take_options(params, locals(), "lr rho eps weight_decay")

    _state_spec = (counter(), zeros("square_avg"), zeros("acc_delta"))
    _kernel = native_optim.AdadeltaStep
    _kernel_state_keys = ("square_avg", "acc_delta")

    def _native(self, group, columns, scalars):
        return native_optim.AdadeltaStep(
            *columns,
            group["rho"],
            1 - group["rho"],
            group["eps"],
            group["weight_decay"],
            -as_float(group["lr"]),
            group["maximize"],
        )

    def _writes(self, group, scalars) -> tuple:
        return ((None, 1), ("square_avg", 2), ("acc_delta", 2))

    def _reference(self, p, state, group, scalars) -> None:
        rho, eps = group["rho"], group["eps"]
        grad = direction(p, group["maximize"])
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        p.add_(delta, alpha=-as_float(group["lr"]))
