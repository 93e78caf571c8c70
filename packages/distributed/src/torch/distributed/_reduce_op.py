"""ReduceOp: how a reducing collective combines the ranks' values."""

from __future__ import annotations

import enum

__all__ = ["ReduceOp"]


class ReduceOp:
    """The reductions of ``all_reduce``, ``reduce`` and ``reduce_scatter``.

    ``SUM``, ``PRODUCT``, ``MIN`` and ``MAX`` work on every dtype (``MIN``/``MAX`` not
    on complex ones); ``AVG`` is the sum divided by the group's size (floating point
    only); ``BAND``, ``BOR`` and ``BXOR`` are bitwise (integers and bool).

    Examples::

        >>> import torch.distributed as dist
        >>> dist.ReduceOp.SUM
        <RedOpType.SUM: 0>
    """

    class RedOpType(enum.IntEnum):
        __str__ = enum.Enum.__str__  # "RedOpType.SUM", as PyTorch prints it

        SUM = 0
        AVG = 1
        PRODUCT = 2
        MIN = 3
        MAX = 4
        BAND = 5
        BOR = 6
        BXOR = 7
        PREMUL_SUM = 8
        UNUSED = 9

    def __init__(self, op: RedOpType = RedOpType.SUM) -> None:
        self.op = ReduceOp.RedOpType(op)

    def __eq__(self, other) -> bool:
        other_op = other.op if isinstance(other, ReduceOp) else other
        return self.op == other_op

    def __hash__(self) -> int:
        return hash(self.op)

    def __repr__(self) -> str:
        return f"ReduceOp({self.op.name})"


# each reduction is a class attribute too (``ReduceOp.SUM``), as in PyTorch
for _op in ReduceOp.RedOpType:
    setattr(ReduceOp, _op.name, _op)
del _op


def as_red_op(op) -> ReduceOp.RedOpType:
    """The enum member of ``op`` (a member, a ReduceOp, or an int)."""
    if type(op) is ReduceOp.RedOpType:
        return op
    if isinstance(op, ReduceOp):
        return op.op
    try:
        return ReduceOp.RedOpType(op)
    except ValueError:
        raise TypeError(f"op should be a torch.distributed.ReduceOp, got {op!r}") from None
