"""Stochastic gradient descent, with momentum and Nesterov momentum."""

from __future__ import annotations

import torch

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
        momentum=0.0,
        dampening=0.0,
        weight_decay=0.0,
        nesterov=False,
        *,
        maximize=False,
    ):
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
        )
        super().__init__(params, defaults)

    @torch.no_grad()
    def _update(self, group) -> None:
        for p in group["params"]:
            if p.grad is None:
                continue
            d_p = p.grad if not group["maximize"] else -p.grad
            if group["weight_decay"] != 0:
                d_p = d_p + group["weight_decay"] * p
            if group["momentum"] != 0:
                state = self.state.setdefault(p, {})
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = state["momentum_buffer"] = d_p.detach() * 1
                else:
                    buf.mul_(group["momentum"]).add_(d_p, alpha=1 - group["dampening"])
                d_p = d_p + group["momentum"] * buf if group["nesterov"] else buf
            p.add_(d_p, alpha=-group["lr"])

    def step(self, closure=None):
        """One update of every parameter; ``closure`` re-evaluates the model and returns
        the loss, which ``step`` returns."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            self._update(group)
        return loss
