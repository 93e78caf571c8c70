"""RAdam: Adam with a rectified (variance-aware) adaptive learning rate."""

from __future__ import annotations

import torch

from . import _fused
from ._common import as_float, check_betas, check_min, direction, new_counter, with_grads
from .optimizer import Optimizer

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam: while the second-moment estimate is too young to trust (its approximated
    length ``rho_t <= 5``) the step is plain bias-corrected momentum; afterwards it is
    Adam's step scaled by a rectification factor.

    Args:
        params (iterable): tensors to optimize or parameter-group dicts.
        lr (float): learning rate. Default: ``1e-3``.
        betas (Tuple[float, float]): decay rates of the running averages.
            Default: ``(0.9, 0.999)``.
        eps (float): added to the denominator. Default: ``1e-8``.
        weight_decay (float): L2 penalty (or decoupled decay). Default: ``0``.
        decoupled_weight_decay (bool): shrink the parameters directly. Default: ``False``.
        maximize (bool): maximize the objective instead. Default: ``False``.

    ``foreach``, ``capturable`` and ``differentiable`` are accepted for compatibility.

    Examples::

        >>> import torch
        >>> w = torch.tensor([1.0])
        >>> w.grad = torch.tensor([2.0])
        >>> torch.optim.RAdam([w], lr=0.1).step()
        >>> w
        tensor([0.8000])
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        decoupled_weight_decay=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
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
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            decoupled_weight_decay=decoupled_weight_decay,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _state_of(self, p) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = new_counter()
            state["exp_avg"] = torch.zeros_like(p)
            state["exp_avg_sq"] = torch.zeros_like(p)
        return state

    @torch.no_grad()
    def step(self, closure=None):
        """One RAdam update of every parameter that has a gradient.

        Args:
            closure (callable, optional): re-evaluates the model and returns the loss.
        """
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            items = [(p, self._state_of(p)) for p in with_grads(group, "RAdam")]
            for _, state in items:
                state["step"] += 1
            _radam_group(items, group)
        return loss


def _scalars(group, step: float) -> tuple:
    """The Python scalars of one step: ``(bias_correction1, bias_correction2, rho_t,
    rho_inf)``, in double precision as PyTorch computes them."""
    beta1, beta2 = group["betas"]
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
    return bias_correction1, bias_correction2, rho_t, rho_inf


def _radam_group(items, group) -> None:
    """Update every ``(param, state)`` of a group: by the fused native kernel where it
    applies (one call per parameter, or per dtype with ``foreach=True``), else with tensor
    ops one parameter at a time."""
    batches, rest = _fused.batches(
        items,
        lambda item: (item[0], item[0].grad, item[1]["exp_avg"], item[1]["exp_avg_sq"]),
        bool(group.get("foreach")),
    )
    beta1, beta2 = group["betas"]
    lr, wd = as_float(group["lr"]), group["weight_decay"]
    decoupled = group["decoupled_weight_decay"] and wd != 0
    decay = 0 if wd == 0 else (2 if decoupled else 1)
    for chosen, columns in batches:
        steps = [_scalars(group, state["step"].item()) for _, state in chosen]
        _fused.kernels().radam_step(
            *columns,
            [bc1 for bc1, _, _, _ in steps],
            [bc2**0.5 for _, bc2, _, _ in steps],
            [
                _rectification(rho_t, rho_inf) if rho_t > 5.0 else 0.0
                for *_, rho_t, rho_inf in steps
            ],
            [rho_t > 5.0 for *_, rho_t, _ in steps],
            1 - beta1,
            beta2,
            1 - beta2,
            group["eps"],
            wd,
            1 - lr * wd if decoupled else 1.0,
            lr,
            group["maximize"],
            decay,
        )
        for p, state in chosen:  # as many version bumps as PyTorch's in-place ops make
            _fused.bump(p, 2 if decoupled else 1)
            _fused.bump(state["exp_avg"])
            _fused.bump(state["exp_avg_sq"], 2)
    for p, state in rest:
        _radam_update(p, state, group)


def _rectification(rho_t: float, rho_inf: float) -> float:
    ratio = (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
    return ratio**0.5


def _radam_update(p, state, group) -> None:
    beta1, beta2 = group["betas"]
    lr, wd = as_float(group["lr"]), group["weight_decay"]
    grad = direction(p, group["maximize"])
    step = state["step"].item()
    if wd != 0:
        if group["decoupled_weight_decay"]:
            p.mul_(1 - lr * wd)
        else:
            grad = grad.add(p, alpha=wd)
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    corrected = exp_avg / bias_correction1
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
    if rho_t > 5.0:
        # NOTE: ``number / tensor`` is ``tensor.reciprocal() * number`` in PyTorch: the
        # same order here keeps the rounding identical
        adaptive = exp_avg_sq.sqrt().add_(group["eps"]).reciprocal() * bias_correction2**0.5
        p.add_(corrected * lr * adaptive * _rectification(rho_t, rho_inf), alpha=-1.0)
    else:
        p.add_(corrected * lr, alpha=-1.0)
