"""Reductions: ``sum`` and ``mean``."""

from __future__ import annotations

import numpy as np

from .. import _dtype
from .._interface import OpDef, ops
from .._tensor import Tensor
from ._dispatch import check_tensor, record

__all__ = ["sum", "mean"]

SUM = ops.register(
    OpDef(
        name="sum",
        signature="sum(Tensor input, int[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor",
        kernels={"cpu": np.sum},
        family="reduction",
    )
)
MEAN = ops.register(
    OpDef(
        name="mean",
        signature="mean(Tensor input, int[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor",
        kernels={"cpu": np.mean},
        family="reduction",
    )
)


def normalize_dims(input: Tensor, dim) -> tuple[int, ...]:
    """``dim`` (None, an int, or a sequence of ints) as a sorted tuple of wrapped dims."""
    if dim is None:
        return tuple(range(input._np.ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    wrapped = tuple(input._wrap_dim(d) for d in dims)
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError(f"dim {wrapped} appears multiple times in the list of dims")
    return tuple(sorted(wrapped))


def sum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Sum of ``input`` over ``dim`` (all dims by default). Integer and bool inputs sum
    to ``torch.int64``.

    Examples::

        >>> import torch
        >>> x = torch.tensor([[1, 2], [3, 4]])
        >>> torch.sum(x), torch.sum(x, 0), torch.sum(x, dim=1, keepdim=True)
        (tensor(10), tensor([4, 6]), tensor([[3],
                [7]]))
    """
    check_tensor(input, "sum")
    dims = normalize_dims(input, dim)
    if dtype is None:
        dtype = input._dtype
        if not (dtype.is_floating_point or dtype.is_complex):
            dtype = _dtype.int64
    result = np.sum(input._np, axis=dims, keepdims=keepdim, dtype=dtype.np_dtype)
    return record(SUM, (input,), Tensor._from_array(np.asarray(result), dtype), (dims, keepdim))


def mean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Mean of ``input`` over ``dim`` (all dims by default); needs a floating or complex
    dtype.

    Examples::

        >>> import torch
        >>> torch.mean(torch.tensor([[1.0, 2.0], [3.0, 5.0]]), dim=0)
        tensor([2.0000, 3.5000])
    """
    check_tensor(input, "mean")
    target = dtype or input._dtype
    if not (target.is_floating_point or target.is_complex):
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a "
            f"floating point or complex dtype. Got: {input._dtype._legacy[:-6]}"
        )
    dims = normalize_dims(input, dim)
    result = np.mean(input._np, axis=dims, keepdims=keepdim, dtype=target.np_dtype)
    return record(
        MEAN,
        (input,),
        Tensor._from_array(np.asarray(result, dtype=target.np_dtype), target),
        (dims, keepdim),
    )


SUM.function = sum

MEAN.function = mean
