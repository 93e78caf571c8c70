"""Stochastic gradient descent, with momentum and Nesterov momentum."""

from __future__ import annotations

import torch
from torch._interface import optim as native_optim

from ._common import as_float
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent.

    {args}
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

    {example [1.0, -2.0] | [0.5, 0.5] | SGD([w], lr=0.1) | tensor([ 0.9500, -2.0500])}
    """

    _group_keys = (
        "lr momentum dampening weight_decay nesterov maximize foreach differentiable fused"
    )

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):  # fmt: skip
        self._take_options(params, locals(), "lr momentum weight_decay fused nesterov")

    _unpickled_defaults = {"nesterov": False, "maximize": False}

    # the state is only the momentum buffer, which PyTorch fills with the first gradient
    _counts_steps = False
    _sparse_error = None
    _kernel = native_optim.SGDStep
    _writes_per_parameter = True  # a new buffer is filled, not updated

    def _with_grads(self, group) -> list:
        params = super()._with_grads(group)
        if group["fused"] and any(p.grad.is_sparse for p in params):
            raise RuntimeError("`_fused_sgd` does not support sparse gradients")
        return params

    def _scalars(self, p, state, group) -> bool:
        """Whether the momentum buffer is new this step: an empty one is made, which the
        kernel fills (the reference replaces it with a copy of the gradient). A parameter
        listed twice finds it new both times, as in PyTorch."""
        if group["momentum"] == 0:
            return False
        buf = state.get("momentum_buffer")
        made = self.__dict__.setdefault("_new_buffers", set())
        if buf is not None and id(buf) not in made:
            return False
        if buf is None:
            buf = state["momentum_buffer"] = torch.empty_like(p)
            made.add(id(buf))
        return True

    def _finish(self, states, group) -> None:
        self.__dict__.pop("_new_buffers", None)

    def _kernel_state(self, group) -> tuple:
        return ("momentum_buffer",) if group["momentum"] != 0 else ()

    def _native(self, group, columns, fresh):
        momentum = group["momentum"]
        return native_optim.SGDStep(
            columns[0],
            columns[1],
            columns[2] if momentum != 0 else None,
            fresh if momentum != 0 else [],
            group["weight_decay"],
            momentum,
            1 - group["dampening"],
            -as_float(group["lr"]),
            group["maximize"],
            group["nesterov"],
        )

    def _writes(self, group, fresh) -> tuple:
        if group["momentum"] == 0 or fresh:
            return ((None, 1),)
        return ((None, 1), ("momentum_buffer", 2))

    def _reference(self, p, state, group, fresh) -> None:
        grad = p.grad if not group["maximize"] else -p.grad
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            if fresh:
                buf = state["momentum_buffer"] = grad.detach().clone()
            else:
                buf = state["momentum_buffer"]
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        p.add_(grad, alpha=-as_float(group["lr"]))
