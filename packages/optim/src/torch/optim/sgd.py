"""Stochastic gradient descent, with momentum and Nesterov momentum."""

from __future__ import annotations

import torch

from . import _fused
from ._common import as_float, check_fused, check_min, with_grads
from .optimizer import Optimizer, required

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent.

    Args:
        params (iterable): tensors to optimize or parameter-group dicts.
        lr (float): learning rate. Default: ``1e-3``.
        momentum (float): momentum factor. Default: ``0``.
        dampening (float): dampening of the momentum. Default: ``0``.
        weight_decay (float): L2 penalty. Default: ``0``.
        nesterov (bool): Nesterov momentum (needs momentum > 0 and no dampening).
            Default: ``False``.
        maximize (bool): maximize the objective instead of minimizing. Default: ``False``.

    ``foreach=True`` updates all parameters of a dtype in one native call and ``fused=True``
    is accepted: the arithmetic is the same (as in PyTorch); ``differentiable`` is accepted
    for compatibility.

    Examples::

        >>> import torch
        >>> w = torch.tensor([1.0, -2.0])
        >>> w.grad = torch.tensor([0.5, 0.5])
        >>> torch.optim.SGD([w], lr=0.1).step()
        >>> w
        tensor([ 0.9500, -2.0500])
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        momentum=0,
        dampening=0,
        weight_decay=0,
        nesterov=False,
        *,
        maximize=False,
        foreach=None,
        differentiable=False,
        fused=None,
    ):
        if lr is not required:
            check_min("learning rate", lr)
        check_min("momentum value", momentum)
        check_min("weight_decay value", weight_decay)
        check_fused(fused, foreach, differentiable)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
            foreach=foreach,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)

    @torch.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient.

        Args:
            closure (callable, optional): re-evaluates the model and returns the loss,
                which ``step`` returns.
        """
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            items = [(p, self.state[p]) for p in with_grads(group, "SGD", sparse_ok=True)]
            _sgd_group(items, group)
        return loss


def _sgd_group(items, group) -> None:
    """Update every ``(param, state)`` of a group: by the fused native kernel where it
    applies (one call per parameter, or per dtype with ``foreach=True``), else with tensor
    ops one parameter at a time."""
    momentum = group["momentum"]
    if momentum != 0:
        # a new buffer is filled by the kernel (PyTorch clones the gradient into it)
        fresh = {id(p) for p, state in items if state.get("momentum_buffer") is None}
        for p, state in items:
            if id(p) in fresh:
                state["momentum_buffer"] = torch.empty_like(p)

    def tensors_of(item):
        p, state = item
        return (p, p.grad, state["momentum_buffer"]) if momentum != 0 else (p, p.grad)

    batches, rest = _fused.batches(items, tensors_of, bool(group.get("foreach")))
    for chosen, columns in batches:
        _fused.kernels().sgd_step(
            columns[0],
            columns[1],
            columns[2] if momentum != 0 else None,
            [id(p) in fresh for p, _ in chosen] if momentum != 0 else [],
            group["weight_decay"],
            momentum,
            1 - group["dampening"],
            -as_float(group["lr"]),
            group["maximize"],
            group["nesterov"],
        )
        for p, state in chosen:
            _fused.bump(p)
            if momentum != 0 and id(p) not in fresh:
                _fused.bump(state["momentum_buffer"], 2)
    for p, state in rest:
        if momentum != 0 and id(p) in fresh:
            del state["momentum_buffer"]
        _sgd_update(p, state, group)


def _sgd_update(p, state, group) -> None:
    grad = p.grad if not group["maximize"] else -p.grad
    if group["weight_decay"] != 0:
        grad = grad.add(p, alpha=group["weight_decay"])
    momentum = group["momentum"]
    if momentum != 0:
        buf = state.get("momentum_buffer")
        if buf is None:
            buf = state["momentum_buffer"] = grad.detach().clone()
        else:
            buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
        grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
    p.add_(grad, alpha=-as_float(group["lr"]))
