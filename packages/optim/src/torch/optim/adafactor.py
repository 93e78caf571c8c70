"""Adafactor (Shazeer and Stern, 2018): Adam-like steps whose second-moment estimate of
a matrix is factored into its row and column means (memory linear in the sides)."""

from __future__ import annotations

import math

import torch

from ._common import as_float, counter, direction
from .optimizer import Optimizer

__all__ = ["Adafactor"]


def _check(lr, beta2_decay, eps, d, weight_decay) -> None:
    """PyTorch's refusals of bad options, in its order."""
    if not 0.0 <= as_float(lr):
        raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
    if not beta2_decay <= 0.0:
        raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
    if eps[0] is not None and not 0.0 <= eps[0]:
        raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
    if not 0.0 <= eps[1]:
        raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
    if not 1.0 <= d:
        raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")


class Adafactor(Optimizer):
    """Adafactor: at step ``t`` the second-moment estimate moves towards the squared
    gradient by ``t ** beta2_decay``; for a parameter of two or more dims it is kept as
    row and column means of the squared gradient (their outer product over their mean
    is the estimate). The update ``grad / sqrt(estimate)`` is scaled down to an RMS of
    at most ``d``, and the step size is ``min(lr, 1 / sqrt(t))`` times the parameter's
    RMS (at least ``eps[1]``).

    {args}
        lr (float or Tensor): the largest relative step size. Default: ``1e-2``.
        beta2_decay (float): the exponent of the second-moment decay (<= 0).
            Default: ``-0.8``.
        eps (Tuple[float or None, float]): the floor of the estimate's root (None:
            the dtype's machine epsilon) and of the parameter's RMS.
            Default: ``(None, 1e-3)``.
        d (float): the largest RMS of an update (>= 1). Default: ``1.0``.
        weight_decay (float): decoupled weight decay, ``p *= 1 - lr * weight_decay``.
            Default: ``0``.
        {maximize}

    ``foreach`` is accepted for compatibility.

    {example [1.0, 1.0] | [2.0, -4.0] | Adafactor([w], lr=0.5) | tensor([0.5000, 1.5000])}
    """

    _group_keys = "lr beta2_decay eps d weight_decay foreach maximize"

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):  # fmt: skip
        _check(lr, beta2_decay, eps, d, weight_decay)
        self._take_options(params, locals(), "")

    _state_spec = (counter(),)

    def _moments(self, p, state) -> None:
        """The second-moment state, made at the first step: the row and column means of
        a matrix (or of each matrix of a batch), else one value per element."""
        if "row_var" in state or "variance" in state:
            return
        if p.grad.dim() > 1:
            state["row_var"] = p.grad.new_zeros((*p.grad.shape[:-1], 1))
            state["col_var"] = p.grad.new_zeros((*p.grad.shape[:-2], 1, p.grad.shape[-1]))
        else:
            state["variance"] = torch.zeros_like(p.grad)

    def _reference(self, p, state, group, scalars) -> None:
        if p.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        self._moments(p, state)
        grad = direction(p, group["maximize"])
        lr, eps1, eps2 = as_float(group["lr"]), group["eps"][0], group["eps"][1]
        if eps1 is None:
            eps1 = torch.finfo(p.dtype).eps
        t = state["step"].item()
        blend = t ** group["beta2_decay"]  # 1 - beta2 at step t
        rho = min(lr, 1 / t**0.5)
        alpha = max(eps2, p.norm(2).item() / math.sqrt(p.numel())) * rho
        if group["weight_decay"] != 0:
            p.mul_(1 - lr * group["weight_decay"])
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(torch.norm(grad, dim=-1, keepdim=True).square_() / grad.size(-1), blend)
            col_var.lerp_(torch.norm(grad, dim=-2, keepdim=True).square_() / grad.size(-2), blend)
            estimate = row_var @ col_var
            estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            variance = state["variance"]
            variance.lerp_(grad * grad, blend)
            estimate = variance.clone()
        update = estimate.clamp_(min=eps1 * eps1).rsqrt_().mul_(grad)
        shrink = max(1.0, update.norm(2).item() / (math.sqrt(update.numel()) * group["d"]))
        p.add_(update, alpha=-alpha / shrink)
