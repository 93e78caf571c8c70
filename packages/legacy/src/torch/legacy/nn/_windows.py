"""Sliding windows over the last two dimensions of a (N, C, H, W) tensor, shared by the
convolution and the pooling modules, and their adjoint (summing windows back)."""

from __future__ import annotations

import math

import torch


def pooled_size(size, kernel, stride, pad, ceil_mode=False):
    """Output positions of a window of ``kernel`` sliding with ``stride`` over ``size``
    padded by ``pad`` on each side; in ceil mode a last partial window counts if it
    starts inside the input or the left padding."""
    span = size + 2 * pad - kernel
    if span < 0:
        raise RuntimeError(
            f"the kernel size {kernel} is larger than the padded input size {size + 2 * pad}"
        )
    out = (math.ceil(span / stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def pad(input, padH, padW, extraH=0, extraW=0, value=0.0):
    """``input`` (N, C, H, W) in a larger tensor filled with ``value``: ``padH``/``padW``
    on each side plus ``extraH``/``extraW`` more at the bottom/right."""
    n, c, h, w = input.shape
    out = torch.full((n, c, h + 2 * padH + extraH, w + 2 * padW + extraW), value, dtype=input.dtype)
    out[:, :, padH : padH + h, padW : padW + w] = input
    return out


def windows(padded, kH, kW, dH, dW, oH, oW):
    """A view (N, C, kH, kW, oH, oW) of ``padded``: element [.., i, j, y, x] is
    ``padded[.., y*dH + i, x*dW + j]``."""
    padded = padded.contiguous()
    sN, sC, sH, sW = padded.stride()
    n, c = padded.shape[:2]
    return padded.as_strided(
        (n, c, kH, kW, oH, oW), (sN, sC, sH, sW, sH * dH, sW * dW), padded.storage_offset()
    )


def sum_windows(grads, shape, kH, kW, dH, dW):
    """The adjoint of :func:`windows`: ``grads`` (N, C, kH, kW, oH, oW) added into a zero
    tensor of the padded ``shape``. One step per kernel position, each a strided add."""
    out = torch.zeros(shape, dtype=grads.dtype)
    oH, oW = grads.shape[-2:]
    for i in range(kH):
        for j in range(kW):
            out[:, :, i : i + dH * (oH - 1) + 1 : dH, j : j + dW * (oW - 1) + 1 : dW] += grads[
                :, :, i, j
            ]
    return out


def as_batch(input, name, channels=None):
    """A (C, H, W) or (N, C, H, W) input as 4-D, and whether it had the batch dimension."""
    if input.dim() not in (3, 4):
        raise RuntimeError(
            f"{name}: expected a 3D (C, H, W) or 4D (N, C, H, W) input, got {input.dim()}D "
            f"of size {tuple(input.shape)}"
        )
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)
    if channels is not None and x.size(1) != channels:
        raise RuntimeError(
            f"{name}: expected {channels} input planes, got an input of size {tuple(input.shape)}"
        )
    return x, batched
