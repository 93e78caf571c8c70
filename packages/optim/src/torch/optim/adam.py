"""Adam: adaptive moment estimation (with AMSGrad and decoupled weight decay)."""

from __future__ import annotations

import torch

from . import _fused, _kernels
from ._common import as_float, check_betas, check_fused, check_min, new_counter, with_grads
from .optimizer import Optimizer

__all__ = ["Adam"]


class Adam(Optimizer):
    """Adam: steps scaled by running averages of the gradient and of its square, with
    bias correction.

    Args:
        params (iterable): tensors to optimize or parameter-group dicts.
        lr (float): learning rate. Default: ``1e-3``.
        betas (Tuple[float, float]): decay rates of the two running averages.
            Default: ``(0.9, 0.999)``.
        eps (float): added to the denominator for stability. Default: ``1e-8``.
        weight_decay (float): L2 penalty (or decoupled decay, see below). Default: ``0``.
        amsgrad (bool): divide by the running maximum of the second moment (AMSGrad).
            Default: ``False``.
        maximize (bool): maximize the objective instead. Default: ``False``.
        decoupled_weight_decay (bool): shrink the parameters directly by
            ``lr * weight_decay`` (AdamW) instead of adding an L2 term to the gradient.
            Default: ``False``.

    ``foreach=True`` updates all parameters of a dtype in one native call (the same
    arithmetic); ``fused=True`` takes correctly rounded square roots, as PyTorch's fused
    CPU kernel does; ``capturable`` and ``differentiable`` are accepted for compatibility.

    Examples::

        >>> import torch
        >>> w = torch.tensor([1.0, -1.0])
        >>> w.grad = torch.tensor([0.5, -2.0])
        >>> torch.optim.Adam([w], lr=0.1).step()
        >>> w
        tensor([ 0.9000, -0.9000])
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        amsgrad=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
        fused=None,
        decoupled_weight_decay=False,
    ):
        check_min("learning rate", lr)
        check_min("epsilon value", eps)
        check_betas(betas)
        check_min("weight_decay value", weight_decay)
        check_fused(fused, foreach, differentiable)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=decoupled_weight_decay,
        )
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("decoupled_weight_decay", False)

    def _state_of(self, p, amsgrad: bool) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = new_counter()
            state["exp_avg"] = torch.zeros_like(p)
            state["exp_avg_sq"] = torch.zeros_like(p)
            if amsgrad:
                state["max_exp_avg_sq"] = torch.zeros_like(p)
        return state

    @torch.no_grad()
    def step(self, closure=None):
        """One Adam update of every parameter that has a gradient.

        Args:
            closure (callable, optional): re-evaluates the model and returns the loss.
        """
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            items = [
                (p, self._state_of(p, group["amsgrad"]))
                for p in with_grads(group, "Adam", hint=", please consider SparseAdam instead")
            ]
            for _, state in items:
                state["step"] += 1
            _adam_group(items, group)
        return loss


def _adam_group(items, group) -> None:
    """Update every ``(param, state)`` of a group: by the fused native kernel where it
    applies (one call per parameter, or per dtype with ``foreach=True``: the same
    arithmetic either way), else one parameter at a time below."""
    amsgrad = group["amsgrad"]

    def tensors_of(item):
        p, state = item
        moments = (state["exp_avg"], state["exp_avg_sq"])
        return (p, p.grad, *moments, state["max_exp_avg_sq"]) if amsgrad else (p, p.grad, *moments)

    batches, rest = _fused.batches(items, tensors_of, bool(group.get("foreach")))
    for chosen, columns in batches:
        _adam_native(chosen, columns, group)
    for p, state in rest:
        _adam_update(p, state, group)


def _adam_native(items, columns, group) -> None:
    hypers = [_hyper(group, state["step"].item()) for _, state in items]
    first = hypers[0]
    decay = 0 if first["weight_decay"] == 0 else (2 if first["decay_factor"] is not None else 1)
    _fused.kernels().adam_step(
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
        # PyTorch's fused=True kernel takes correctly rounded roots, its other paths MKL's
        exact_sqrt=bool(group.get("fused")),
    )
    # as many version bumps as PyTorch's in-place ops make
    for p, state in items:
        _fused.bump(p, 2 if decay == 2 else 1)
        _fused.bump(state["exp_avg"])
        _fused.bump(state["exp_avg_sq"], 2)
        if group["amsgrad"]:
            _fused.bump(state["max_exp_avg_sq"])


def _hyper(group, step: float) -> dict:
    """The Python scalars of one step, computed as PyTorch does (in double precision)."""
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


def _adam_update(p, state, group) -> None:
    hyper = _hyper(group, state["step"].item())
    max_sq = state.get("max_exp_avg_sq") if group["amsgrad"] else None
    tensors = (p, p.grad, state["exp_avg"], state["exp_avg_sq"])
    views = _kernels.arrays(*tensors, *(() if max_sq is None else (max_sq,)))
    if views is not None:
        _kernels.adam(*views[:4], views[4] if max_sq is not None else None, hyper=hyper)
        for t in (p, *tensors[2:], *(() if max_sq is None else (max_sq,))):
            _fused.bump(t)
    else:
        _adam_tensor_ops(*tensors, max_sq, hyper)


def _adam_tensor_ops(param, grad, exp_avg, exp_avg_sq, max_sq, hyper) -> None:
    """The update in core tensor ops: the reference for :func:`_kernels.adam`."""
    if hyper["maximize"]:
        grad = -grad
    if hyper["decay_factor"] is not None:
        param.mul_(hyper["decay_factor"])
    elif hyper["weight_decay"] != 0:
        grad = grad.add(param, alpha=hyper["weight_decay"])
    exp_avg.lerp_(grad, 1 - hyper["beta1"])
    exp_avg_sq.mul_(hyper["beta2"]).addcmul_(grad, grad, value=1 - hyper["beta2"])
    if max_sq is not None:
        torch.maximum(max_sq, exp_avg_sq, out=max_sq)
        denom = (max_sq.sqrt() / hyper["bc2_sqrt"]).add_(hyper["eps"])
    else:
        denom = (exp_avg_sq.sqrt() / hyper["bc2_sqrt"]).add_(hyper["eps"])
    param.addcdiv_(exp_avg, denom, value=hyper["neg_step_size"])
