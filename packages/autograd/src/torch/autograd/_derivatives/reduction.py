"""Derivatives of the reduction family."""

from __future__ import annotations

import math

from ._entry import Derivative


def _restore_dims(grad, input_shape, dims, keepdim):
    """``grad`` of a reduction, broadcast back to the input's shape."""
    if not keepdim:
        kept = tuple(1 if i in dims else s for i, s in enumerate(input_shape))
        grad = grad.reshape(kept)
    return grad.expand(input_shape)


def _sum(grad, inputs, saved):
    dims, keepdim = saved
    return _restore_dims(grad, tuple(inputs[0].shape), dims, keepdim)


def _mean(grad, inputs, saved):
    dims, keepdim = saved
    shape = tuple(inputs[0].shape)
    count = math.prod(shape[d] for d in dims)
    return _restore_dims(grad, shape, dims, keepdim) / count


REDUCTION = {
    "sum": Derivative("SumBackward0", (_sum,)),
    "mean": Derivative("MeanBackward0", (_mean,)),
}
