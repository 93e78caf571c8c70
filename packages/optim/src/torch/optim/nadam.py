"""NAdam: Adam with Nesterov momentum."""

from __future__ import annotations

from torch._interface import optim as native_optim

from ._common import adam_kernel_options, adam_moments, as_float, counter, decay_mode, zeros
from .optimizer import Optimizer

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam: Adam whose first-moment step looks ahead (Nesterov momentum), with a
    momentum schedule ``mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))``.

    {args}
        lr (float): learning rate. Default: ``2e-3``.
        {moments}
        weight_decay (float): L2 penalty (or decoupled decay). Default: ``0``.
        momentum_decay (float): speed of the momentum schedule. Default: ``4e-3``.
        decoupled_weight_decay (bool): shrink the parameters directly (NAdamW).
            Default: ``False``.
        {maximize}

    ``foreach``, ``capturable`` and ``differentiable`` are accepted for compatibility.

    {example [1.0] | [1.0] | NAdam([w], lr=0.1) | tensor([0.8944])}
    """

    _group_keys = (
        "lr betas eps weight_decay momentum_decay decoupled_weight_decay maximize foreach "
        "capturable differentiable"
    )

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):  # fmt: skip
        self._take_options(params, locals(), "lr eps betas weight_decay momentum_decay")

    _state_spec = (counter(), counter("mu_product", 1.0), zeros("exp_avg"), zeros("exp_avg_sq"))
    # the step is counted with the momentum product, parameter by parameter
    _counts_steps = False
    _kernel = native_optim.NAdamStep
    _kernel_state_keys = ("exp_avg", "exp_avg_sq")

    def _scalars(self, p, state, group) -> tuple:
        """Count the step and update the momentum product; returns the step's Python
        scalars ``(bias_correction2, mu, mu_next, product)`` as PyTorch computes them."""
        beta1, beta2 = group["betas"]
        decay = group["momentum_decay"]
        state["step"] += 1
        step = state["step"].item()
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        # NOTE: the product of the momenta is kept in a scalar-state tensor (float32 by
        # default) and rounded there each step, as PyTorch does
        mu_product = state["mu_product"]
        mu_product *= mu
        return 1 - beta2**step, mu, mu_next, mu_product.item()

    def _native(self, group, columns, steps):
        lr = as_float(group["lr"])
        return native_optim.NAdamStep(
            *columns,
            [bc2 for bc2, _, _, _ in steps],
            [-lr * (1.0 - mu) / (1.0 - product) for _, mu, _, product in steps],
            [(-lr * mu_next) / (1.0 - product * mu_next) for _, _, mu_next, product in steps],
            *adam_kernel_options(group),
            group["maximize"],
            decay_mode(group),
        )

    def _writes(self, group, scalars) -> tuple:
        return ((None, 3 if decay_mode(group) == 2 else 2), ("exp_avg", 1), ("exp_avg_sq", 2))

    def _reference(self, p, state, group, scalars) -> None:
        lr = as_float(group["lr"])
        bias_correction2, mu, mu_next, product = scalars
        grad = adam_moments(p, state, group, lr)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        denom = exp_avg_sq.div(bias_correction2).sqrt().add_(group["eps"])
        product_next = product * mu_next
        p.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - product))
        p.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - product_next))
