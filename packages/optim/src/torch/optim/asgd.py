"""ASGD: averaged stochastic gradient descent."""

from __future__ import annotations

import torch

from . import _fused
from ._common import as_float, check_min, direction, new_counter, scalar_dtype, with_grads
from .optimizer import Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """Averaged SGD: decaying steps ``eta_t = lr / (1 + lambd * lr * t) ** alpha`` and,
    from step ``t0`` on, a running average of the iterates in ``state["ax"]``.

    Args:
        params (iterable): tensors to optimize or parameter-group dicts.
        lr (float): learning rate. Default: ``1e-2``.
        lambd (float): decay term. Default: ``1e-4``.
        alpha (float): power of the step-size decay. Default: ``0.75``.
        t0 (float): step at which averaging starts. Default: ``1e6``.
        weight_decay (float): L2 penalty. Default: ``0``.
        maximize (bool): maximize the objective instead. Default: ``False``.

    ``foreach``, ``differentiable`` and ``capturable`` are accepted for compatibility.

    Examples::

        >>> import torch
        >>> w = torch.tensor([1.0])
        >>> w.grad = torch.tensor([1.0])
        >>> torch.optim.ASGD([w], lr=0.5, lambd=0.0).step()
        >>> w
        tensor([0.5000])
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        lambd=1e-4,
        alpha=0.75,
        t0=1e6,
        weight_decay=0,
        foreach=None,
        maximize=False,
        differentiable=False,
        capturable=False,
    ):
        check_min("learning rate", lr)
        check_min("weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            lambd=lambd,
            alpha=alpha,
            t0=t0,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _state_of(self, p, group) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = new_counter()
            state["eta"] = torch.tensor(as_float(group["lr"]), dtype=scalar_dtype())
            state["mu"] = new_counter(1.0)
            state["ax"] = torch.zeros_like(p)
        return state

    @torch.no_grad()
    def step(self, closure=None):
        """One ASGD update of every parameter that has a gradient.

        Args:
            closure (callable, optional): re-evaluates the model and returns the loss.
        """
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            items = [(p, self._state_of(p, group)) for p in with_grads(group, "ASGD")]
            for _, state in items:
                state["step"] += 1
            _asgd_group(items, group)
            for _, state in items:
                _next_eta_mu(state, group)
        return loss


def _asgd_group(items, group) -> None:
    """Update every ``(param, state)`` of a group: by the fused native kernel where it
    applies (one call per parameter, or per dtype with ``foreach=True``), else with tensor
    ops one parameter at a time."""
    batches, rest = _fused.batches(
        items, lambda item: (item[0], item[0].grad, item[1]["ax"]), bool(group.get("foreach"))
    )
    lambd = group["lambd"]
    for chosen, columns in batches:
        etas = [state["eta"].item() for _, state in chosen]
        _fused.kernels().asgd_step(
            *columns,
            [1 - lambd * eta for eta in etas],
            [-eta for eta in etas],
            [state["mu"].item() for _, state in chosen],
            group["weight_decay"],
            group["maximize"],
        )
        for p, state in chosen:  # as many version bumps as PyTorch's in-place ops make
            _fused.bump(p, 2)
            _fused.bump(state["ax"])
    for p, state in rest:
        _asgd_update(p, state, group)


def _next_eta_mu(state, group) -> None:
    """The learning rate and averaging weight of the next step, kept in scalar-state
    tensors (their rounding is part of the rule)."""
    lr, lambd = as_float(group["lr"]), group["lambd"]
    step = state["step"].item()
    state["eta"].copy_(torch.tensor(lr / ((1 + lambd * lr * step) ** group["alpha"])))
    state["mu"].copy_(torch.tensor(1 / max(1, step - group["t0"])))


def _asgd_update(p, state, group) -> None:
    lambd = group["lambd"]
    grad = direction(p, group["maximize"])
    if group["weight_decay"] != 0:
        grad = grad.add(p, alpha=group["weight_decay"])
    eta = state["eta"].item()
    p.mul_(1 - lambd * eta)
    p.add_(grad, alpha=-eta)
    ax = state["ax"]
    if state["mu"].item() != 1:
        ax.add_(p.sub(ax).mul_(state["mu"]))
    else:
        ax.copy_(p)
