"""SparseAdam: Adam for sparse gradients (only the rows present are updated)."""

from __future__ import annotations

import torch

from ._common import check_betas, check_min
from .optimizer import Optimizer

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Adam restricted to the entries present in sparse gradients (e.g. of an embedding
    with ``sparse=True``): the moments of the other entries are left untouched.

    NOTE: torch-core has no sparse tensors yet, so every gradient reaching ``step`` is
    dense and is refused, as PyTorch refuses dense gradients here.

    Args:
        params (iterable): dense tensors to optimize or parameter-group dicts.
        lr (float): learning rate. Default: ``1e-3``.
        betas (Tuple[float, float]): decay rates of the running averages.
            Default: ``(0.9, 0.999)``.
        eps (float): added to the denominator. Default: ``1e-8``.
        maximize (bool): maximize the objective instead. Default: ``False``.

    Examples::

        >>> import torch
        >>> w = torch.zeros(3)
        >>> opt = torch.optim.SparseAdam([w], lr=0.01)
        >>> opt.param_groups[0]["betas"]
        (0.9, 0.999)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        check_min("learning rate", lr)
        check_min("epsilon value", eps)
        check_betas(betas)
        defaults = dict(lr=lr, betas=betas, eps=eps, maximize=maximize)
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

    @torch.no_grad()
    def step(self, closure=None):
        """One update from the sparse gradients (dense ones raise ``RuntimeError``).

        Args:
            closure (callable, optional): re-evaluates the model and returns the loss.
        """
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None and not getattr(p.grad, "is_sparse", False):
                    raise RuntimeError(
                        "SparseAdam does not support dense gradients, please consider Adam instead"
                    )
        return loss
