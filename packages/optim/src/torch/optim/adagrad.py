"""Adagrad: steps divided by the root of the accumulated squared gradients."""

from __future__ import annotations

import torch
from torch._interface import optim as native_optim

from . import _fused
from ._common import State, as_float, counter, direction
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad: each coordinate's step shrinks with the sum of its squared gradients.

    {args}
        lr (float): learning rate. Default: ``1e-2``.
        lr_decay (float): the rate at step ``t`` is ``lr / (1 + (t - 1) * lr_decay)``.
            Default: ``0``.
        weight_decay (float): L2 penalty. Default: ``0``.
        initial_accumulator_value (float): starting value of the sums. Default: ``0``.
        eps (float): added to the denominator. Default: ``1e-10``.
        {maximize}

    ``foreach=True`` updates all parameters of a dtype in one native call (the same
    arithmetic); ``fused=True`` takes correctly rounded square roots, as PyTorch's fused
    CPU kernel does; ``differentiable`` is accepted for compatibility.

    {example [1.0, 1.0] | [2.0, -4.0] | Adagrad([w], lr=0.5) | tensor([0.5000, 1.5000])}
    """

    _group_keys = (
        "lr lr_decay eps weight_decay initial_accumulator_value foreach maximize "
        "differentiable fused"
    )

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False,
                 fused=None):  # fmt: skip
        self._take_options(
            params, locals(), "lr lr_decay weight_decay initial_accumulator_value eps fused"
        )
        # the sums exist from construction on (``share_memory`` relies on it)
        for group in self.param_groups:
            for p in group["params"]:
                self._state_of(p, group)

    _state_spec = (
        counter(),
        State("sum", lambda p, group: torch.full_like(p, group["initial_accumulator_value"])),
    )
    _sparse_error = None
    _kernel = native_optim.AdagradStep
    _kernel_state_keys = ("sum",)

    def share_memory(self) -> None:
        """Move the accumulated sums to shared memory (for Hogwild-style training)."""
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    def _scalars(self, p, state, group) -> float:
        """The decayed learning rate of the step, in double precision as PyTorch's."""
        step = state["step"].item()
        return as_float(group["lr"]) / (1 + (step - 1) * group["lr_decay"])

    def _native(self, group, columns, clrs):
        return native_optim.AdagradStep(
            *columns,
            [-clr for clr in clrs],
            group["weight_decay"],
            group["eps"],
            group["maximize"],
            exact_sqrt=bool(group.get("fused")),  # as PyTorch's fused=True kernel
        )

    def _writes(self, group, scalars) -> tuple:
        return ((None, 1), ("sum", 1))

    def _reference(self, p, state, group, clr) -> None:
        if getattr(p.grad, "is_sparse", False):
            _sparse_update(p, state, group, clr)
            return
        grad = direction(p, group["maximize"])
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        total = state["sum"]
        total.addcmul_(grad, grad, value=1)
        std = total.sqrt().add_(group["eps"])
        p.addcdiv_(grad, std, value=-clr)


def _sparse_update(p, state, group, clr) -> None:
    """Adagrad on the slices of ``p`` that its sparse gradient names (PyTorch's order of
    operations: the squared values enter the sum, then the step divides by the roots of
    the updated sums at those slices)."""
    grad = -p.grad if group["maximize"] else p.grad
    if group["weight_decay"] != 0:
        raise RuntimeError("weight_decay option is not compatible with sparse gradients")
    # the update is not linear in the gradient: duplicate indices must be summed first
    grad = grad.coalesce()
    values = grad._values()
    indices = grad._indices()
    where = tuple(indices[d] for d in range(grad.sparse_dim()))
    total = state["sum"]
    total.index_put_(where, values.pow(2), accumulate=True)
    std = _fused.sqrt_(total[where]).add_(group["eps"])
    p.index_put_(where, (values / std).mul_(-clr), accumulate=True)
