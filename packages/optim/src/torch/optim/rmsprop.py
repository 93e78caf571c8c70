"""RMSprop: steps divided by a running root-mean-square of the gradient."""

from __future__ import annotations

import torch

from . import _fused
from ._common import as_float, check_min, direction, new_counter, with_grads
from .optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop, optionally centered (dividing by an estimate of the gradient's standard
    deviation instead of its root mean square) and with momentum.

    Args:
        params (iterable): tensors to optimize or parameter-group dicts.
        lr (float): learning rate. Default: ``1e-2``.
        alpha (float): decay of the running averages. Default: ``0.99``.
        eps (float): added to the denominator. Default: ``1e-8``.
        weight_decay (float): L2 penalty. Default: ``0``.
        momentum (float): momentum factor. Default: ``0``.
        centered (bool): subtract the squared running mean of the gradient.
            Default: ``False``.
        maximize (bool): maximize the objective instead. Default: ``False``.

    ``foreach=True`` updates all parameters of a dtype in one native call (the same
    arithmetic); ``capturable`` and ``differentiable`` are accepted for compatibility.

    Examples::

        >>> import torch
        >>> w = torch.tensor([1.0])
        >>> w.grad = torch.tensor([1.0])
        >>> torch.optim.RMSprop([w], lr=0.01, alpha=0.75).step()
        >>> w
        tensor([0.9800])
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        alpha=0.99,
        eps=1e-8,
        weight_decay=0,
        momentum=0,
        centered=False,
        capturable=False,
        foreach=None,
        maximize=False,
        differentiable=False,
    ):
        check_min("learning rate", lr)
        check_min("epsilon value", eps)
        check_min("momentum value", momentum)
        check_min("weight_decay value", weight_decay)
        check_min("alpha value", alpha)
        defaults = dict(
            lr=lr,
            momentum=momentum,
            alpha=alpha,
            eps=eps,
            centered=centered,
            weight_decay=weight_decay,
            capturable=capturable,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _state_of(self, p, group) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = new_counter()
            state["square_avg"] = torch.zeros_like(p)
            if group["momentum"] > 0:
                state["momentum_buffer"] = torch.zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = torch.zeros_like(p)
        return state

    @torch.no_grad()
    def step(self, closure=None):
        """One RMSprop update of every parameter that has a gradient.

        Args:
            closure (callable, optional): re-evaluates the model and returns the loss.
        """
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            items = [(p, self._state_of(p, group)) for p in with_grads(group, "RMSprop")]
            for _, state in items:
                state["step"] += 1
            _rmsprop_group(items, group)
        return loss


def _rmsprop_group(items, group) -> None:
    """Update every ``(param, state)`` of a group: by the fused native kernel where it
    applies (one call per parameter, or per dtype with ``foreach=True``), else with tensor
    ops one parameter at a time."""
    centered, momentum = group["centered"], group["momentum"] > 0

    def tensors_of(item):
        p, state = item
        extra = (state["grad_avg"],) if centered else ()
        extra += (state["momentum_buffer"],) if momentum else ()
        return (p, p.grad, state["square_avg"], *extra)

    batches, rest = _fused.batches(items, tensors_of, bool(group.get("foreach")))
    for chosen, columns in batches:
        _fused.kernels().rmsprop_step(
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
        for p, state in chosen:  # as many version bumps as PyTorch's in-place ops make
            _fused.bump(p)
            _fused.bump(state["square_avg"], 2)
            if centered:
                _fused.bump(state["grad_avg"])
            if momentum:
                _fused.bump(state["momentum_buffer"], 2)
    for p, state in rest:
        _rmsprop_update(p, state, group)


def _rmsprop_update(p, state, group) -> None:
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
