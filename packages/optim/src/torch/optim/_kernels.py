"""NumPy kernels for Adam/AdamW, used where torch-core has no native optimizer kernels
(releases before them; see :mod:`._fused`).

They compute exactly what the tensor-op formulation in each optimizer's file computes,
operation by operation in the parameter's dtype, but on NumPy views of the tensors,
in cache-sized chunks (every intermediate stays in cache; each ufunc writes into a
preallocated buffer with ``out=``), so a step costs a few passes over memory instead of
one allocation and one pass per op. They serve dense, C-contiguous float32/float64 CPU
tensors; everything else (and ``TORCH_OPTIM_KERNELS=0``) takes the tensor-op path, which
stays the reference (the tests run both).

NOTE: writing through NumPy views does not bump the tensors' version counters: the
caller does (adam.py).
"""

from __future__ import annotations

import os

import numpy as np

import torch

__all__ = ["ENABLED", "arrays", "adam"]

ENABLED = os.environ.get("TORCH_OPTIM_KERNELS", "1") != "0"

# 16K elements: the ~8 live chunks (64 KiB each in float32) stay in the L2 cache
CHUNK = 1 << 14
_FLOATS = (torch.float32, torch.float64)


def arrays(*tensors):
    """Flat NumPy views of ``tensors`` when the kernels can serve them all (same dtype
    float32/float64, same shape, C-contiguous, no autograd), else ``None``."""
    if not ENABLED:
        return None
    first = tensors[0]
    dtype, shape = first.dtype, first.shape
    if dtype not in _FLOATS or first.device.type != "cpu":
        return None
    views = []
    for t in tensors:
        if t.dtype != dtype or t.shape != shape or t.requires_grad or not t.is_contiguous():
            return None
        views.append(t.numpy().reshape(-1))
    return views


def _buffers(dtype, count: int):
    return [np.empty(CHUNK, dtype=dtype) for _ in range(count)]


def _lerp(start, end, weight, tmp):
    """``start`` moved ``weight`` of the way to ``end``, in place (PyTorch's two-sided
    formula: from ``start`` for small weights, from ``end`` otherwise)."""
    np.subtract(end, start, out=tmp)
    if abs(weight) < 0.5:
        np.multiply(tmp, weight, out=tmp)
        np.add(start, tmp, out=start)
    else:
        np.multiply(tmp, weight.dtype.type(1) - weight, out=tmp)
        np.subtract(end, tmp, out=start)


def adam(param, grad, exp_avg, exp_avg_sq, max_sq, *, hyper) -> None:
    """One Adam/AdamW step over flat arrays, in place.

    ``hyper``: dict of ``maximize``, ``weight_decay``, ``decay_factor`` (the multiplier
    of decoupled weight decay, or None), ``beta1``, ``beta2``, ``bc2_sqrt``,
    ``neg_step_size`` and ``eps``, as Python numbers.
    """
    kind = param.dtype.type
    wd = kind(hyper["weight_decay"])
    decay = hyper["decay_factor"]
    decay = kind(decay) if decay is not None else None
    w1 = kind(1 - hyper["beta1"])
    beta2, one_minus_beta2 = kind(hyper["beta2"]), kind(1 - hyper["beta2"])
    bc2_sqrt, eps = kind(hyper["bc2_sqrt"]), kind(hyper["eps"])
    neg_step = kind(hyper["neg_step_size"])
    maximize = hyper["maximize"]
    g_buf, t1, t2 = _buffers(param.dtype, 3)
    n = param.size
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        k = stop - start
        p, m, v = param[start:stop], exp_avg[start:stop], exp_avg_sq[start:stop]
        g, a, b = grad[start:stop], t1[:k], t2[:k]
        if maximize:
            g = np.negative(g, out=g_buf[:k])
        if decay is not None:
            np.multiply(p, decay, out=p)
        elif wd != 0:
            np.multiply(p, wd, out=a)
            g = np.add(g, a, out=g_buf[:k])
        _lerp(m, g, w1, a)
        np.multiply(v, beta2, out=v)
        np.multiply(g, one_minus_beta2, out=a)
        np.multiply(a, g, out=a)
        np.add(v, a, out=v)
        if max_sq is not None:
            top = max_sq[start:stop]
            np.maximum(top, v, out=top)
            np.sqrt(top, out=a)
        else:
            np.sqrt(v, out=a)
        np.divide(a, bc2_sqrt, out=a)
        np.add(a, eps, out=a)
        np.multiply(m, neg_step, out=b)
        np.divide(b, a, out=b)
        np.add(p, b, out=p)
