"""RAdam: Adam with a rectified (variance-aware) adaptive learning rate."""

from __future__ import annotations

from torch._interface import optim as native_optim

from ._common import adam_kernel_options, adam_moments, as_float, counter, decay_mode, zeros
from .optimizer import Optimizer

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam: while the second-moment estimate is too young to trust (its approximated
    length ``rho_t <= 5``) the step is plain bias-corrected momentum; afterwards it is
    Adam's step scaled by a rectification factor.

    {args}
        lr (float): learning rate. Default: ``1e-3``.
        {moments}
        weight_decay (float): L2 penalty (or decoupled decay). Default: ``0``.
        decoupled_weight_decay (bool): shrink the parameters directly. Default: ``False``.
        {maximize}

    ``foreach``, ``capturable`` and ``differentiable`` are accepted for compatibility.

    {example [1.0] | [2.0] | RAdam([w], lr=0.1) | tensor([0.8000])}
    """

    _group_keys = (
        "lr betas eps weight_decay maximize foreach capturable decoupled_weight_decay "
        "differentiable"
    )

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):  # fmt: skip
        self._take_options(params, locals(), "lr eps betas weight_decay")

    _state_spec = (counter(), zeros("exp_avg"), zeros("exp_avg_sq"))
    _kernel = native_optim.RAdamStep
    _kernel_state_keys = ("exp_avg", "exp_avg_sq")

    def _scalars(self, p, state, group) -> tuple:
        """The Python scalars of one step: ``(bias_correction1, bias_correction2, rho_t,
        rho_inf)``, in double precision as PyTorch computes them."""
        beta1, beta2 = group["betas"]
        step = state["step"].item()
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        return bias_correction1, bias_correction2, rho_t, rho_inf

    def _native(self, group, columns, steps):
        return native_optim.RAdamStep(
            *columns,
            [bc1 for bc1, _, _, _ in steps],
            [bc2**0.5 for _, bc2, _, _ in steps],
            [
                _rectification(rho_t, rho_inf) if rho_t > 5.0 else 0.0
                for *_, rho_t, rho_inf in steps
            ],
            [rho_t > 5.0 for *_, rho_t, _ in steps],
            *adam_kernel_options(group),
            as_float(group["lr"]),
            group["maximize"],
            decay_mode(group),
        )

    def _writes(self, group, scalars) -> tuple:
        return ((None, 2 if decay_mode(group) == 2 else 1), ("exp_avg", 1), ("exp_avg_sq", 2))

    def _reference(self, p, state, group, scalars) -> None:
        lr = as_float(group["lr"])
        bias_correction1, bias_correction2, rho_t, rho_inf = scalars
        adam_moments(p, state, group, lr)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        corrected = exp_avg / bias_correction1
        if rho_t > 5.0:
            # NOTE: ``number / tensor`` is ``tensor.reciprocal() * number`` in PyTorch: the
            # same order here keeps the rounding identical
            adaptive = exp_avg_sq.sqrt().add_(group["eps"]).reciprocal() * bias_correction2**0.5
            p.add_(corrected * lr * adaptive * _rectification(rho_t, rho_inf), alpha=-1.0)
        else:
            p.add_(corrected * lr, alpha=-1.0)


def _rectification(rho_t: float, rho_inf: float) -> float:
    ratio = (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
    return ratio**0.5
