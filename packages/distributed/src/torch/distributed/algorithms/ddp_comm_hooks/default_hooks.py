"""The built-in communication hooks: averaging all-reduce, and the same over a
float16 or bfloat16 copy of the bucket (half the bytes on the wire).

A hook is called as ``hook(state, bucket)`` with ``state`` the process group (None:
the default group) and returns a :class:`~torch.distributed.Future` of the bucket's
reduced, averaged gradients.
"""

from __future__ import annotations

import torch

from ... import _collectives
from ..._work import Future
from ...distributed_c10d import get_world_size

__all__ = ["allreduce_hook", "fp16_compress_hook", "bf16_compress_hook"]


def _average(process_group, tensor: torch.Tensor) -> Future:
    tensor.div_(get_world_size(process_group))
    work = _collectives.all_reduce(tensor, group=process_group, async_op=True)
    return work.get_future().then(lambda fut: fut.value()[0])


def allreduce_hook(process_group, bucket) -> Future:
    """Average the bucket over the group (DDP's default behaviour).

    Examples::

        >>> from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
        >>> callable(default_hooks.allreduce_hook)
        True
    """
    return _average(process_group, bucket.buffer())


def _compressed(process_group, bucket, dtype) -> Future:
    buffer = bucket.buffer()
    compressed = buffer.to(dtype)
    future = _average(process_group, compressed)

    def decompress(fut):
        buffer.copy_(fut.value())
        return buffer

    return future.then(decompress)


def fp16_compress_hook(process_group, bucket) -> Future:
    """Average the bucket in float16, then copy the result back into its dtype."""
    return _compressed(process_group, bucket, torch.float16)


def bf16_compress_hook(process_group, bucket) -> Future:
    """Average the bucket in bfloat16, then copy the result back into its dtype."""
    return _compressed(process_group, bucket, torch.bfloat16)
