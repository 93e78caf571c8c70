"""Adamax: Adam with the infinity norm in place of the second moment."""

from __future__ import annotations

import torch
from torch._interface import optim as native_optim

from ._common import as_float, counter, direction, zeros
from .optimizer import Optimizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax: steps scaled by a decaying running maximum of the gradient's magnitude.

    {args}
        lr (float): learning rate. Default: ``2e-3``.
        betas (Tuple[float, float]): decay of the mean and of the running maximum.
            Default: ``(0.9, 0.999)``.
        eps (float): added to the gradient's magnitude. Default: ``1e-8``.
        weight_decay (float): L2 penalty. Default: ``0``.
        {maximize}

    ``foreach``, ``differentiable`` and ``capturable`` are accepted for compatibility.

    {example [1.0, 1.0] | [2.0, -0.5] | Adamax([w], lr=0.1) | tensor([0.9000, 1.1000])}
    """

    _group_keys = "lr betas eps weight_decay foreach maximize differentiable capturable"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None,
                 *, maximize=False, differentiable=False, capturable=False):  # fmt: skip
        self._take_options(params, locals(), "lr eps betas weight_decay")

    _state_spec = (counter(), zeros("exp_avg"), zeros("exp_inf"))
    _kernel = native_optim.AdamaxStep
    _kernel_state_keys = ("exp_avg", "exp_inf")

    def _scalars(self, p, state, group) -> float:
        """The bias-corrected learning rate of the step."""
        return as_float(group["lr"]) / (1 - group["betas"][0] ** state["step"].item())

    def _native(self, group, columns, clrs):
        beta1, beta2 = group["betas"]
        return native_optim.AdamaxStep(
            *columns,
            [-clr for clr in clrs],
            1 - beta1,
            beta2,
            group["eps"],
            group["weight_decay"],
            group["maximize"],
        )

    def _writes(self, group, scalars) -> tuple:
        return ((None, 1), ("exp_avg", 1), ("exp_inf", 2))

    def _reference(self, p, state, group, clr) -> None:
        beta1, beta2 = group["betas"]
        grad = direction(p, group["maximize"])
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        exp_avg.lerp_(grad, 1 - beta1)
        torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(group["eps"]), out=exp_inf)
        p.addcdiv_(exp_avg, exp_inf, value=-clr)
