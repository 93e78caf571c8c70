"""Derivatives of the linear-algebra family."""

from __future__ import annotations

import numpy as np

from ._entry import Derivative, sum_to_shape


def _as_matrices(grad, a, b):
    """``a`` and ``b`` with 1-D operands made 2-D (as matmul treats them), and ``grad``
    reshaped to the product of those matrices."""
    a2 = a.reshape(1, a.shape[0]) if a.dim() == 1 else a
    b2 = b.reshape(b.shape[0], 1) if b.dim() == 1 else b
    batch = np.broadcast_shapes(tuple(a2.shape[:-2]), tuple(b2.shape[:-2]))
    grad2 = grad.reshape(tuple(batch) + (a2.shape[-2], b2.shape[-1]))
    return grad2, a2, b2


def _matmul_self(grad, inputs, saved):
    a, b = inputs
    if a.dim() == 2 and b.dim() == 2:  # the common case, without reshapes
        return grad @ b.t()
    grad2, a2, b2 = _as_matrices(grad, a, b)
    return sum_to_shape(grad2 @ b2.transpose(-1, -2), tuple(a2.shape)).reshape(tuple(a.shape))


def _matmul_other(grad, inputs, saved):
    a, b = inputs
    if a.dim() == 2 and b.dim() == 2:
        return a.t() @ grad
    grad2, a2, b2 = _as_matrices(grad, a, b)
    return sum_to_shape(a2.transpose(-1, -2) @ grad2, tuple(b2.shape)).reshape(tuple(b.shape))


LINALG = {
    "matmul": Derivative("MmBackward0", (_matmul_self, _matmul_other)),
}
