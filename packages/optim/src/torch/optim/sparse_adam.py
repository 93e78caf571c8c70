"""SparseAdam: Adam for sparse gradients (only the rows present are updated)."""

from __future__ import annotations

import math

from . import _fused
from ._common import State, as_float, check_options, options, zeros
from .optimizer import Optimizer

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Adam restricted to the entries present in sparse gradients (e.g. of an embedding
    with ``sparse=True``): the moments of the other entries are left untouched.

    Each step coalesces the gradient (duplicate indices summed) and updates only the
    parameter slices it names, reading and writing the moments of those slices alone.
    Dense gradients are refused.

    Args:
        params (iterable): dense tensors to optimize or parameter-group dicts.
        lr (float): learning rate. Default: ``1e-3``.
        {moments}
        maximize (bool): maximize the objective instead. Default: ``False``.

    Examples::

        >>> w = torch.zeros(4)
        >>> w.grad = torch.sparse_coo_tensor([[1, 3]], [0.5, -2.0], (4,))
        >>> torch.optim.SparseAdam([w], lr=0.1).step()
        >>> w
        tensor([ 0.0000, -0.1000,  0.0000,  0.1000])
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        check_options(lr=lr, eps=eps, betas=betas)
        defaults = options(locals(), "lr betas eps maximize")
        super().__init__(params, defaults)
        self._check_dense_real()

    def _check_dense_real(self) -> None:
        sparse, complex_ = [], []
        for group in self.param_groups:
            for index, p in enumerate(group["params"]):
                if getattr(p, "is_sparse", False):
                    sparse.append(index)
                if p.is_complex():
                    complex_.append(index)
        if sparse:
            raise ValueError(
                f"Sparse params at indices {sparse}: SparseAdam requires dense parameter tensors"
            )
        if complex_:
            raise ValueError(
                f"Complex params at indices {complex_}: SparseAdam does not support complex "
                "parameters"
            )

    # ``step`` is a Python int, as in PyTorch
    _state_spec = (State("step", lambda p, group: 0), zeros("exp_avg"), zeros("exp_avg_sq"))
    _sparse_error = None

    def _with_grads(self, group) -> list:
        params = [p for p in group["params"] if p.grad is not None]
        for p in params:
            if not getattr(p.grad, "is_sparse", False):
                raise RuntimeError(
                    "SparseAdam does not support dense gradients, please consider Adam instead"
                )
        return params

    def _reference(self, p, state, group, scalars) -> None:
        _sparse_adam_update(p, state, group)


def _sparse_adam_update(p, state, group) -> None:
    """Adam on the slices of ``p`` that its sparse gradient names, in PyTorch's order of
    operations: the moments move by ``(1 - beta) * (new - old)`` and the step divides
    their new values."""
    grad = -p.grad if group["maximize"] else p.grad
    # the update is not linear in the gradient: duplicate indices must be summed first
    grad = grad.coalesce()
    values = grad._values()
    if values.numel() == 0:
        return
    indices = grad._indices()
    where = tuple(indices[d] for d in range(grad.sparse_dim()))
    beta1, beta2 = group["betas"]
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]

    old_avg = exp_avg[where]
    avg_change = values.sub(old_avg).mul_(1 - beta1)
    exp_avg.index_put_(where, avg_change, accumulate=True)
    old_sq = exp_avg_sq[where]
    sq_change = values.pow(2).sub_(old_sq).mul_(1 - beta2)
    exp_avg_sq.index_put_(where, sq_change, accumulate=True)

    numer = avg_change.add_(old_avg)  # the new first moment of the named slices
    denom = _fused.sqrt_(sq_change.add_(old_sq)).add_(group["eps"])
    step = state["step"]
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    step_size = as_float(group["lr"]) * math.sqrt(bias_correction2) / bias_correction1
    p.index_put_(where, numer.div_(denom).mul_(-step_size), accumulate=True)
