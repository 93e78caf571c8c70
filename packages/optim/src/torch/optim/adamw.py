"""AdamW: Adam with decoupled weight decay."""

from __future__ import annotations

from ._common import options
from .adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """Adam whose weight decay shrinks the parameters directly (by ``lr * weight_decay``
    each step) instead of entering the gradient.

    {args}
        lr (float): learning rate. Default: ``1e-3``.
        {moments}
        weight_decay (float): decoupled decay coefficient. Default: ``1e-2``.
        amsgrad (bool): use the running maximum of the second moment. Default: ``False``.
        {maximize}

    ``foreach=True`` updates all parameters of a dtype in one native call (the same
    arithmetic); ``fused=True`` takes correctly rounded square roots, as PyTorch's fused
    CPU kernel does; ``capturable`` and ``differentiable`` are accepted for compatibility.

    {example [1.0] | [0.0] | AdamW([w], lr=0.1, weight_decay=0.5) | tensor([0.9500])}
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):  # fmt: skip
        # Adam's options, but for the decoupled decay that AdamW always takes
        kwargs = options(locals(), self._group_keys.replace(" decoupled_weight_decay", ""))
        super().__init__(params, **kwargs, decoupled_weight_decay=True)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
