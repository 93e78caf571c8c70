"""Differentiable collectives: the gradient of a collective's output flows back to every
rank's input (the backward is itself a collective).

torch-nn's ``SyncBatchNorm`` shares its batch statistics with :func:`all_reduce`.
"""

from __future__ import annotations

from torch.autograd import Function

from .. import _collectives
from .._reduce_op import ReduceOp, as_red_op

__all__ = ["all_reduce"]


class _AllReduceSum(Function):
    @staticmethod
    def forward(ctx, group, tensor):
        ctx.group = group
        result = tensor.clone()
        _collectives.all_reduce(result, group=group)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        # every rank used the sum: each input's gradient is the sum of the ranks' gradients
        grad = grad_output.contiguous().clone()
        _collectives.all_reduce(grad, group=ctx.group)
        return None, grad


def all_reduce(tensor, op=ReduceOp.SUM, group=None):
    """The reduction of ``tensor`` over the group, as a new tensor that autograd can
    differentiate (``ReduceOp.SUM`` only). The input is left unchanged.

    Examples::

        >>> import torch, torch.distributed as dist
        >>> from torch.distributed.nn.functional import all_reduce
        >>> dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
        >>> x = torch.ones(2, requires_grad=True)
        >>> all_reduce(x * 3).sum().backward()
        >>> x.grad
        tensor([3., 3.])
        >>> dist.destroy_process_group()
    """
    if as_red_op(op) != ReduceOp.SUM:
        raise RuntimeError(f"distributed.nn.functional.all_reduce supports SUM only, got {op}")
    return _AllReduceSum.apply(group, tensor.contiguous())
