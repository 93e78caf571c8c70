"""Matrix products: ``matmul``."""

from __future__ import annotations

import numpy as np

from .._interface import OpDef, ops
from .._tensor import Tensor
from ._dispatch import check_tensor, record

__all__ = ["matmul"]

MATMUL = ops.register(
    OpDef(
        name="matmul",
        signature="matmul(Tensor input, Tensor other) -> Tensor",
        kernels={"cpu": np.matmul},
        family="linalg",
    )
)


def matmul(input: Tensor, other: Tensor) -> Tensor:
    """Matrix product with NumPy/PyTorch broadcasting over batch dims (1-D operands are
    treated as vectors).

    Examples::

        >>> import torch
        >>> a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> torch.matmul(a, torch.tensor([1.0, 1.0]))
        tensor([3., 7.])
    """
    check_tensor(input, "matmul")
    check_tensor(other, "matmul", "other")
    if input._np.ndim == 0 or other._np.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are "
            f"{input._np.ndim}D and {other._np.ndim}D"
        )
    if input._dtype is not other._dtype:
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: "
            f"{input._dtype.name} != {other._dtype.name}"
        )
    try:
        result = np.matmul(input._np, other._np)
    except ValueError:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_shape(input)} and {_shape(other)})"
        ) from None
    return record(MATMUL, (input, other), Tensor._from_array(np.asarray(result), input._dtype))


def _shape(t: Tensor) -> str:
    return "x".join(map(str, t._np.shape))


MATMUL.function = matmul
