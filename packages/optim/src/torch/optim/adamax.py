"""Adamax: Adam with the infinity norm in place of the second moment."""

from __future__ import annotations

import torch

from . import _fused
from ._common import as_float, check_betas, check_min, direction, new_counter, with_grads
from .optimizer import Optimizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax: steps scaled by a decaying running maximum of the gradient's magnitude.

    Args:
        params (iterable): tensors to optimize or parameter-group dicts.
        lr (float): learning rate. Default: ``2e-3``.
        betas (Tuple[float, float]): decay of the mean and of the running maximum.
            Default: ``(0.9, 0.999)``.
        eps (float): added to the gradient's magnitude. Default: ``1e-8``.
        weight_decay (float): L2 penalty. Default: ``0``.
        maximize (bool): maximize the objective instead. Default: ``False``.

    ``foreach``, ``differentiable`` and ``capturable`` are accepted for compatibility.

    Examples::

        >>> import torch
        >>> w = torch.tensor([1.0, 1.0])
        >>> w.grad = torch.tensor([2.0, -0.5])
        >>> torch.optim.Adamax([w], lr=0.1).step()
        >>> w
        tensor([0.9000, 1.1000])
    """

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        foreach=None,
        *,
        maximize=False,
        differentiable=False,
        capturable=False,
    ):
        check_min("learning rate", lr)
        check_min("epsilon value", eps)
        check_betas(betas)
        check_min("weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _state_of(self, p) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = new_counter()
            state["exp_avg"] = torch.zeros_like(p)
            state["exp_inf"] = torch.zeros_like(p)
        return state

    @torch.no_grad()
    def step(self, closure=None):
        """One Adamax update of every parameter that has a gradient.

        Args:
            closure (callable, optional): re-evaluates the model and returns the loss.
        """
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            items = [(p, self._state_of(p)) for p in with_grads(group, "Adamax")]
            for _, state in items:
                state["step"] += 1
            _adamax_group(items, group)
        return loss


def _adamax_group(items, group) -> None:
    """Update every ``(param, state)`` of a group: by the fused native kernel where it
    applies (one call per parameter, or per dtype with ``foreach=True``), else with tensor
    ops one parameter at a time."""
    batches, rest = _fused.batches(
        items,
        lambda item: (item[0], item[0].grad, item[1]["exp_avg"], item[1]["exp_inf"]),
        bool(group.get("foreach")),
    )
    beta1, beta2 = group["betas"]
    for chosen, columns in batches:
        _fused.kernels().adamax_step(
            *columns,
            [-_clr(group, state["step"].item()) for _, state in chosen],
            1 - beta1,
            beta2,
            group["eps"],
            group["weight_decay"],
            group["maximize"],
        )
        for p, state in chosen:  # as many version bumps as PyTorch's in-place ops make
            _fused.bump(p)
            _fused.bump(state["exp_avg"])
            _fused.bump(state["exp_inf"], 2)
    for p, state in rest:
        _adamax_update(p, state, group)


def _clr(group, step: float) -> float:
    return as_float(group["lr"]) / (1 - group["betas"][0] ** step)


def _adamax_update(p, state, group) -> None:
    beta1, beta2 = group["betas"]
    grad = direction(p, group["maximize"])
    if group["weight_decay"] != 0:
        grad = grad.add(p, alpha=group["weight_decay"])
    exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
    exp_avg.lerp_(grad, 1 - beta1)
    torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(group["eps"]), out=exp_inf)
    clr = _clr(group, state["step"].item())
    p.addcdiv_(exp_avg, exp_inf, value=-clr)
