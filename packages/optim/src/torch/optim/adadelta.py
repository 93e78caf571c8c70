"""Adadelta: steps scaled by the ratio of running RMS of updates and of gradients."""

from __future__ import annotations

import torch

from . import _fused
from ._common import as_float, check_min, direction, new_counter, with_grads
from .optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta: each coordinate's step is its gradient times
    ``RMS[previous updates] / RMS[gradients]``, then scaled by ``lr``.

    Args:
        params (iterable): tensors to optimize or parameter-group dicts.
        lr (float): factor applied to the update. Default: ``1.0``.
        rho (float): decay of the running averages, in [0, 1]. Default: ``0.9``.
        eps (float): added inside both square roots. Default: ``1e-6``.
        weight_decay (float): L2 penalty. Default: ``0``.
        maximize (bool): maximize the objective instead. Default: ``False``.

    ``foreach``, ``capturable`` and ``differentiable`` are accepted for compatibility.

    Examples::

        >>> import torch
        >>> w = torch.tensor([1.0])
        >>> w.grad = torch.tensor([1.0])
        >>> torch.optim.Adadelta([w], lr=1.0, rho=0.0, eps=1.0).step()
        >>> w
        tensor([0.2929])
    """

    def __init__(
        self,
        params,
        lr=1.0,
        rho=0.9,
        eps=1e-6,
        weight_decay=0,
        foreach=None,
        *,
        capturable=False,
        maximize=False,
        differentiable=False,
    ):
        check_min("learning rate", lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_min("epsilon value", eps)
        check_min("weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            rho=rho,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            capturable=capturable,
            foreach=foreach,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _state_of(self, p) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = new_counter()
            state["square_avg"] = torch.zeros_like(p)
            state["acc_delta"] = torch.zeros_like(p)
        return state

    @torch.no_grad()
    def step(self, closure=None):
        """One Adadelta update of every parameter that has a gradient.

        Args:
            closure (callable, optional): re-evaluates the model and returns the loss.
        """
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            items = [(p, self._state_of(p)) for p in with_grads(group, "Adadelta")]
            for _, state in items:
                state["step"] += 1
            _adadelta_group(items, group)
        return loss


def _adadelta_group(items, group) -> None:
    """Update every ``(param, state)`` of a group: by the fused native kernel where it
    applies (one call per parameter, or per dtype with ``foreach=True``), else with tensor
    ops one parameter at a time."""
    batches, rest = _fused.batches(
        items,
        lambda item: (item[0], item[0].grad, item[1]["square_avg"], item[1]["acc_delta"]),
        bool(group.get("foreach")),
    )
    for chosen, columns in batches:
        _fused.kernels().adadelta_step(
            *columns,
            group["rho"],
            1 - group["rho"],
            group["eps"],
            group["weight_decay"],
            -as_float(group["lr"]),
            group["maximize"],
        )
        for p, state in chosen:  # as many version bumps as PyTorch's in-place ops make
            _fused.bump(p)
            _fused.bump(state["square_avg"], 2)
            _fused.bump(state["acc_delta"], 2)
    for p, state in rest:
        _adadelta_update(p, state, group)


def _adadelta_update(p, state, group) -> None:
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
