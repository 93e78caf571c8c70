"""Rprop: resilient backpropagation (sign-based steps with adaptive sizes)."""

from __future__ import annotations

import torch

from ._common import State, as_float, counter, direction, zeros
from .optimizer import Optimizer

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop: each coordinate moves by its own step size against the gradient's sign;
    the size grows by ``etas[1]`` while the sign holds and shrinks by ``etas[0]`` when it
    flips (that step is then skipped).

    {args}
        lr (float): initial step size. Default: ``1e-2``.
        etas (Tuple[float, float]): (decrease, increase) factors, with
            ``0 < etas[0] < 1 < etas[1]``. Default: ``(0.5, 1.2)``.
        step_sizes (Tuple[float, float]): (minimum, maximum) step size.
            Default: ``(1e-6, 50)``.
        {maximize}

    ``capturable``, ``foreach`` and ``differentiable`` are accepted for compatibility.

    {example [1.0, 1.0] | [3.0, -0.1] | Rprop([w], lr=0.1) | tensor([0.9000, 1.1000])}
    """

    _group_keys = "lr etas step_sizes foreach maximize differentiable capturable"

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False,
                 foreach=None, maximize=False, differentiable=False):  # fmt: skip
        self._take_options(params, locals(), "lr etas")

    _state_spec = (
        counter(),
        zeros("prev"),
        State("step_size", lambda p, group: torch.full_like(p, as_float(group["lr"]))),
    )

    def _reference(self, p, state, group, scalars) -> None:
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        grad = direction(p, group["maximize"])
        prev, step_size = state["prev"], state["step_size"]
        sign = grad.mul(prev).sign()
        factor = torch.where(sign.gt(0), etaplus, torch.where(sign.lt(0), etaminus, 1.0))
        factor = factor.to(step_size.dtype)
        step_size.mul_(factor).clamp_(step_size_min, step_size_max)
        grad = torch.where(factor.eq(etaminus), 0.0, grad).to(grad.dtype)
        p.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
