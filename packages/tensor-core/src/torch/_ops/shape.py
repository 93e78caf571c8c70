"""Shape ops that return views where PyTorch does: ``reshape``, ``expand``, ``transpose``,
``t``."""

from __future__ import annotations

import math

import numpy as np

from .._interface import OpDef, ops
from .._tensor import Tensor
from ._dispatch import check_tensor, record

__all__ = ["reshape", "expand", "transpose", "t"]

RESHAPE = ops.register(
    OpDef(
        name="reshape",
        signature="reshape(Tensor(a) input, SymInt[] shape) -> Tensor(a)",
        kernels={"cpu": np.reshape},
        family="shape",
    )
)
EXPAND = ops.register(
    OpDef(
        name="expand",
        signature="expand(Tensor(a) self, SymInt[] size) -> Tensor(a)",
        kernels={"cpu": np.broadcast_to},
        family="shape",
        view=True,
    )
)
TRANSPOSE = ops.register(
    OpDef(
        name="transpose",
        signature="transpose(Tensor(a) input, int dim0, int dim1) -> Tensor(a)",
        kernels={"cpu": np.swapaxes},
        family="shape",
        view=True,
    )
)


def _shape_arg(shape) -> tuple:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _infer_shape(shape: tuple, numel: int) -> tuple:
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if unknown:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = shape[: unknown[0]] + (numel // known,) + shape[unknown[0] + 1 :]
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def reshape(input: Tensor, *shape) -> Tensor:
    """``input`` with a new shape: a view when the strides allow it, else a copy. One
    dimension may be ``-1``.

    Examples::

        >>> import torch
        >>> torch.arange(6).reshape(2, -1)
        tensor([[0, 1, 2],
                [3, 4, 5]])
    """
    check_tensor(input, "reshape")
    target = _infer_shape(_shape_arg(shape), input._np.size)
    result = input._view_from_array(input._np.reshape(target))
    return record(RESHAPE, (input,), result, (tuple(input._np.shape),))


def expand(input: Tensor, *sizes) -> Tensor:
    """A view of ``input`` with size-1 dims repeated (stride 0) to ``sizes``; ``-1``
    keeps a dim's size.

    Examples::

        >>> import torch
        >>> torch.tensor([[1], [2]]).expand(2, 3)
        tensor([[1, 1, 1],
                [2, 2, 2]])
    """
    check_tensor(input, "expand")
    sizes = _shape_arg(sizes)
    ndim = input._np.ndim
    if len(sizes) < ndim:
        raise RuntimeError(
            f"expand(torch.FloatTensor{{{list(input._np.shape)}}}, size="
            f"{list(sizes)}): the number of sizes provided ({len(sizes)}) must "
            f"be greater or equal to the number of dimensions in the tensor "
            f"({ndim})"
        )
    lead = len(sizes) - ndim
    target = tuple(
        input._np.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(sizes)
    )
    try:
        array = np.broadcast_to(input._np, target)
    except ValueError:
        raise RuntimeError(
            f"The expanded size of the tensor must match the existing size at "
            f"non-singleton dimensions. Target sizes: {list(sizes)}. Tensor "
            f"sizes: {list(input._np.shape)}"
        ) from None
    return record(EXPAND, (input,), input._view_from_array(array), (tuple(input._np.shape),))


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """A view of ``input`` with dims ``dim0`` and ``dim1`` swapped."""
    check_tensor(input, "transpose")
    if input._np.ndim == 0:
        return input._view_from_array(input._np.view())
    d0, d1 = input._wrap_dim(dim0), input._wrap_dim(dim1)
    result = input._view_from_array(np.swapaxes(input._np, d0, d1))
    return record(TRANSPOSE, (input,), result, (d0, d1))


def t(input: Tensor) -> Tensor:
    """Transpose of a tensor of at most 2 dims (a view)."""
    if input._np.ndim > 2:
        raise RuntimeError(
            f"t() expects a tensor with <= 2 dimensions, but self is {input._np.ndim}D"
        )
    return transpose(input, 0, 1) if input._np.ndim == 2 else transpose(input, 0, 0)
