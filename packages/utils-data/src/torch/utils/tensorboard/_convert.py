"""Turning what users log (tensors, arrays, Python numbers) into NumPy arrays laid out as
the summaries need them."""

from __future__ import annotations

import numpy as np

import torch


def make_np(x) -> np.ndarray:
    """A NumPy array of ``x``: a tensor (detached, bfloat16 as float16, which NumPy
    knows), an array, or a Python/NumPy scalar (as a 1-element array)."""
    if isinstance(x, np.ndarray):
        return x
    if np.isscalar(x):
        return np.array([x])
    if isinstance(x, torch.Tensor):
        if x.dtype == torch.bfloat16:
            x = x.to(torch.float16)
        return x.detach().cpu().numpy()
    raise NotImplementedError(f"Got {type(x)}, but numpy array or torch tensor are expected.")


def make_grid(images: np.ndarray, ncols: int = 8) -> np.ndarray:
    """N images of shape (N, 1 or 3, H, W) tiled into one (3, H*rows, W*cols) image,
    row by row, at most ``ncols`` per row (grey images repeated over RGB)."""
    if not isinstance(images, np.ndarray):
        raise AssertionError("plugin error, should pass numpy array here")
    if images.shape[1] == 1:
        images = np.concatenate([images] * 3, 1)
    if images.ndim != 4 or images.shape[1] != 3:
        raise AssertionError("Input should be a 4D numpy array with 3 channels")
    count, _, height, width = images.shape
    ncols = min(count, ncols)
    nrows = -(-count // ncols)
    canvas = np.zeros((3, height * nrows, width * ncols), dtype=images.dtype)
    for i in range(count):
        row, col = divmod(i, ncols)
        canvas[:, row * height : (row + 1) * height, col * width : (col + 1) * width] = images[i]
    return canvas


def convert_to_HWC(array: np.ndarray, input_format: str) -> np.ndarray:  # noqa: N802
    """An image array in the layout ``input_format`` (letters from N, C, H, W) as one
    (H, W, 3 or 4) image: a batch is tiled with :func:`make_grid`, grey repeated to RGB."""
    if len(set(input_format)) != len(input_format):
        raise AssertionError(
            f"You can not use the same dimension shorthand twice. input_format: {input_format}"
        )
    if array.ndim != len(input_format):
        raise AssertionError(
            "size of input tensor and input format are different. "
            f"tensor shape: {array.shape}, input_format: {input_format}"
        )
    input_format = input_format.upper()
    if len(input_format) == 4:
        nchw = array.transpose([input_format.find(c) for c in "NCHW"])
        return make_grid(nchw).transpose(1, 2, 0)
    if len(input_format) == 3:
        hwc = array.transpose([input_format.find(c) for c in "HWC"])
        return np.concatenate([hwc] * 3, 2) if hwc.shape[2] == 1 else hwc
    hw = array.transpose([input_format.find(c) for c in "HW"])
    return np.stack([hw] * 3, 2)
