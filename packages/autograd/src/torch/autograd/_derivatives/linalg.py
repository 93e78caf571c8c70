"""Derivatives of the linear-algebra family."""

from __future__ import annotations

import numpy as np

from ._entry import Derivative, conj, fit_dtype, sum_to_shape


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
        return fit_dtype(grad @ conj(b.t()), a)
    grad2, a2, b2 = _as_matrices(grad, a, b)
    result = sum_to_shape(grad2 @ conj(b2.transpose(-1, -2)), tuple(a2.shape))
    return fit_dtype(result.reshape(tuple(a.shape)), a)


def _matmul_other(grad, inputs, saved):
    a, b = inputs
    if a.dim() == 2 and b.dim() == 2:
        return fit_dtype(conj(a.t()) @ grad, b)
    grad2, a2, b2 = _as_matrices(grad, a, b)
    result = sum_to_shape(conj(a2.transpose(-1, -2)) @ grad2, tuple(b2.shape))
    return fit_dtype(result.reshape(tuple(b.shape)), b)


LINALG = {
    "matmul": Derivative("MmBackward0", (_matmul_self, _matmul_other)),
}
