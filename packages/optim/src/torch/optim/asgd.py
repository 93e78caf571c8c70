"""ASGD: averaged stochastic gradient descent."""

from __future__ import annotations

import torch
from torch._interface import optim as native_optim

from ._common import (
    State,
    as_float,
    counter,
    direction,
    scalar_dtype,
    zeros,
)
from .optimizer import Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """Averaged SGD: decaying steps ``eta_t = lr / (1 + lambd * lr * t) ** alpha`` and,
    from step ``t0`` on, a running average of the iterates in ``state["ax"]``.

    {args}
        lr (float): learning rate. Default: ``1e-2``.
        lambd (float): decay term. Default: ``1e-4``.
        alpha (float): power of the step-size decay. Default: ``0.75``.
        t0 (float): step at which averaging starts. Default: ``1e6``.
        weight_decay (float): L2 penalty. Default: ``0``.
        {maximize}

    ``foreach``, ``differentiable`` and ``capturable`` are accepted for compatibility.

    {example [1.0] | [1.0] | ASGD([w], lr=0.5, lambd=0.0) | tensor([0.5000])}
    """

    _group_keys = "lr lambd alpha t0 weight_decay foreach maximize differentiable capturable"

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):  # fmt: skip
        self._take_options(params, locals(), "lr weight_decay")

    _state_spec = (
        counter(),
        State("eta", lambda p, group: torch.tensor(as_float(group["lr"]), dtype=scalar_dtype())),
        counter("mu", 1.0),
        zeros("ax"),
    )
    _kernel = native_optim.ASGDStep
    _kernel_state_keys = ("ax",)

    def _scalars(self, p, state, group) -> tuple:
        """``(eta, mu)``: this step's rate and averaging weight, from the scalar state."""
        return state["eta"].item(), state["mu"].item()

    def _native(self, group, columns, scalars):
        lambd = group["lambd"]
        return native_optim.ASGDStep(
            *columns,
            [1 - lambd * eta for eta, _ in scalars],
            [-eta for eta, _ in scalars],
            [mu for _, mu in scalars],
            group["weight_decay"],
            group["maximize"],
        )

    def _writes(self, group, scalars) -> tuple:
        return ((None, 2), ("ax", 1))

    def _reference(self, p, state, group, scalars) -> None:
        eta, mu = scalars
        grad = direction(p, group["maximize"])
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        p.mul_(1 - group["lambd"] * eta)
        p.add_(grad, alpha=-eta)
        ax = state["ax"]
        if mu != 1:
            ax.add_(p.sub(ax).mul_(state["mu"]))
        else:
            ax.copy_(p)

    def _finish(self, states, group) -> None:
        """The learning rate and averaging weight of the next step, kept in scalar-state
        tensors (their rounding is part of the rule)."""
        lr, lambd = as_float(group["lr"]), group["lambd"]
        for state in states:
            step = state["step"].item()
            state["eta"].copy_(torch.tensor(lr / ((1 + lambd * lr * step) ** group["alpha"])))
            state["mu"].copy_(torch.tensor(1 / max(1, step - group["t0"])))
