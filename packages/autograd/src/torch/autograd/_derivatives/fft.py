"""Derivatives of core's fft primitives (``torch._ops.fft``); the public ``torch.fft``
functions are composites of these (and of ``narrow``, ``cat``, ``conj``), so these three
entries cover them all.

Each primitive is linear, so its gradient is the adjoint applied to the output
gradient (PyTorch's convention for complex tensors: for a real loss, the gradient is
dL/d(re) + i dL/d(im)). The adjoint of a transform is the transform in the other
direction with the same normalization number (the scale is real).
"""

from __future__ import annotations

import torch
from torch._interface import ops

from ._entry import Derivative, shape_of


def _op(name: str):
    return ops[name].function


def _c2c(grad, inputs, saved):
    return _op("_fft_c2c")(grad, saved.dim, saved.normalization, not saved.forward)


def _as_complex(grad):
    return grad if grad.is_complex() else grad.to(grad.dtype.to_complex())


def _r2c(grad, inputs, saved):
    # the one-sided spectrum left out the upper half: it gets no gradient, so zeros fill
    # it before the inverse transform; a real input keeps the real part
    dims, normalization = saved.dim, saved.normalization
    grad = _as_complex(grad)
    if saved.onesided:
        last = dims[-1]
        missing = shape_of(inputs[0])[last] - grad.shape[last]
        if missing > 0:
            shape = list(grad.shape)
            shape[last] = missing
            grad = torch.cat([grad, torch.zeros(shape, dtype=grad.dtype)], last)
    return torch.real(_op("_fft_c2c")(grad, dims, normalization, False))


def _c2r(grad, inputs, saved):
    # each value of the one-sided input but the first (and the middle one for an even
    # length) stands for itself and its mirrored conjugate: its gradient counts twice
    spectrum = _op("_fft_r2c")(grad, saved.dim, saved.normalization, True)
    last = saved.dim[-1]
    half = spectrum.shape[last]
    doubled = saved.last_dim_size - half
    if doubled <= 0:
        return spectrum
    weights = [1.0] + [2.0] * doubled + [1.0] * (half - 1 - doubled)
    shape = [1] * spectrum.dim()
    shape[last] = half
    return spectrum * torch.tensor(weights, dtype=grad.dtype).reshape(shape)


FFT = {
    "_fft_c2c": Derivative("FftC2CBackward0", (_c2c,), saved_inputs=(), drops_inputs=True),
    "_fft_r2c": Derivative("FftR2CBackward0", (_r2c,), saved_inputs=(), drops_inputs=True),
    "_fft_c2r": Derivative("FftC2RBackward0", (_c2r,), saved_inputs=(), drops_inputs=True),
}
