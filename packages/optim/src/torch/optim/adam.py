"""Adam: adaptive moment estimation (with AMSGrad and decoupled weight decay)."""

from __future__ import annotations

import torch
from torch._interface import optim as native_optim

from ._common import as_float, counter, zeros
from .optimizer import Optimizer

__all__ = ["Adam"]


class Adam(Optimizer):
    """Adam: steps scaled by running averages of the gradient and of its square, with
    bias correction.

    {args}
        lr (float): learning rate. Default: ``1e-3``.
        betas (Tuple[float, float]): decay rates of the two running averages.
            Default: ``(0.9, 0.999)``.
        eps (float): added to the denominator for stability. Default: ``1e-8``.
        weight_decay (float): L2 penalty (or decoupled decay, see below). Default: ``0``.
        amsgrad (bool): divide by the running maximum of the second moment (AMSGrad).
            Default: ``False``.
        {maximize}
        decoupled_weight_decay (bool): shrink the parameters directly by
            ``lr * weight_decay`` (AdamW) instead of adding an L2 term to the gradient.
            Default: ``False``.

    ``foreach=True`` updates all parameters of a dtype in one native call (the same
    arithmetic); ``fused=True`` takes correctly rounded square roots, as PyTorch's fused
    CPU kernel does; ``capturable`` and ``differentiable`` are accepted for compatibility.

    {example [1.0, -1.0] | [0.5, -2.0] | Adam([w], lr=0.1) | tensor([ 0.9000, -0.9000])}
    """

    _group_keys = (
        "lr betas eps weight_decay amsgrad maximize foreach capturable differentiable "
        "fused decoupled_weight_decay"
    )

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False,
                 fused=None, decoupled_weight_decay=False):  # fmt: skip
        self._take_options(params, locals(), "lr eps betas weight_decay fused")

    _unpickled_defaults = {"amsgrad": False, "maximize": False, "decoupled_weight_decay": False}

    _state_spec = (
        counter(),
        zeros("exp_avg"),
        zeros("exp_avg_sq"),
        zeros("max_exp_avg_sq", when="amsgrad"),
    )
    _sparse_error = "Adam does not support sparse gradients, please consider SparseAdam instead"
    _kernel = native_optim.AdamStep

    def _scalars(self, p, state, group) -> dict:
        """The Python scalars of one step, computed as PyTorch does (in double
        precision)."""
        step = state["step"].item()
        lr = as_float(group["lr"])
        beta1, beta2 = (as_float(b) for b in group["betas"])
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        decoupled = group["decoupled_weight_decay"] and group["weight_decay"] != 0
        return dict(
            maximize=group["maximize"],
            weight_decay=group["weight_decay"],
            decay_factor=1 - lr * group["weight_decay"] if decoupled else None,
            beta1=beta1,
            beta2=beta2,
            bc2_sqrt=bias_correction2**0.5,
            neg_step_size=-(lr / bias_correction1),
            eps=group["eps"],
        )

    def _kernel_state(self, group) -> tuple:
        moments = ("exp_avg", "exp_avg_sq")
        return (*moments, "max_exp_avg_sq") if group["amsgrad"] else moments

    def _native(self, group, columns, hypers):
        first = hypers[0]
        decay = 0 if first["weight_decay"] == 0 else (2 if first["decay_factor"] is not None else 1)
        return native_optim.AdamStep(
            *columns[:4],
            columns[4] if group["amsgrad"] else None,
            [h["neg_step_size"] for h in hypers],
            [h["bc2_sqrt"] for h in hypers],
            1 - first["beta1"],
            first["beta2"],
            1 - first["beta2"],
            first["eps"],
            first["weight_decay"],
            first["decay_factor"] if decay == 2 else 1.0,
            first["maximize"],
            decay,
            # PyTorch's fused=True kernel takes correctly rounded roots, its other paths
            # MKL's
            exact_sqrt=bool(group.get("fused")),
        )

    def _writes(self, group, scalars) -> tuple:
        decoupled = group["decoupled_weight_decay"] and group["weight_decay"] != 0
        writes = ((None, 2 if decoupled else 1), ("exp_avg", 1), ("exp_avg_sq", 2))
        return (*writes, ("max_exp_avg_sq", 1)) if group["amsgrad"] else writes

    def _reference(self, p, state, group, hyper) -> None:
        grad = p.grad
        if hyper["maximize"]:
            grad = -grad
        if hyper["decay_factor"] is not None:
            p.mul_(hyper["decay_factor"])
        elif hyper["weight_decay"] != 0:
            grad = grad.add(p, alpha=hyper["weight_decay"])
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, 1 - hyper["beta1"])
        exp_avg_sq.mul_(hyper["beta2"]).addcmul_(grad, grad, value=1 - hyper["beta2"])
        max_sq = state.get("max_exp_avg_sq") if group["amsgrad"] else None
        if max_sq is not None:
            torch.maximum(max_sq, exp_avg_sq, out=max_sq)
            denom = (max_sq.sqrt() / hyper["bc2_sqrt"]).add_(hyper["eps"])
        else:
            denom = (exp_avg_sq.sqrt() / hyper["bc2_sqrt"]).add_(hyper["eps"])
        p.addcdiv_(exp_avg, denom, value=hyper["neg_step_size"])
