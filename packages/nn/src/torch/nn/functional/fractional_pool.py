"""Fractional max pooling (Graham, 2014): max pooling whose window starts follow a
pseudo-random sequence, so that the output size need not divide the input size.

Each (sample, channel) plane draws one number u in [0, 1) per spatial dim (the
``_random_samples``, from ``torch.rand`` as PyTorch draws them); the windows of a dim
of input size n, output size m and kernel k start at ``int((i + u) a) - int(u a)``
with ``a = (n - k) / (m - 1)``, the last at ``n - k``, computed in the input's dtype as
PyTorch's kernels do. The maxima are gathered from the input, so gradients flow to
them."""

from __future__ import annotations

import numpy as np

import torch

__all__ = [
    "fractional_max_pool2d",
    "fractional_max_pool3d",
    "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d_with_indices",
]

#: the spatial dims by name, as PyTorch's errors call them
_DIM_NAMES = {2: ("height", "width"), 3: ("time", "height", "width")}


def _ntuple(value, nd: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * nd


def _starts(samples: np.ndarray, size: int, out: int, kernel: int) -> np.ndarray:
    """The window starts along one dim for each plane: ``samples`` (N, C) in the input's
    dtype; returns (N, C, out) integers."""
    dtype = samples.dtype.type
    starts = np.empty(samples.shape + (out,), dtype=np.int64)
    if out > 1:
        alpha = dtype(size - kernel) / dtype(out - 1)
        steps = np.arange(out - 1, dtype=samples.dtype)
        ahead = ((steps + samples[..., None]) * alpha).astype(np.int64)
        starts[..., :-1] = ahead - (samples * alpha).astype(np.int64)[..., None]
    if out > 0:
        starts[..., -1] = size - kernel
    return starts


def _check(x, kernel, out, samples, nd: int) -> None:
    name = f"fractional_max_pool{nd}d" + ("_out" if nd == 3 else "")
    for d, dim_name in enumerate(_DIM_NAMES[nd]):
        if out[d] + kernel[d] - 1 > x.shape[2 + d]:
            raise RuntimeError(
                f"{name}(): pool {dim_name} {kernel[d]} too large relative to input "
                f"{dim_name} {x.shape[2 + d]}"
            )
    if samples.shape[0] < x.shape[0]:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != x.shape[1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != nd:
        raise RuntimeError(
            f"Expect _random_samples.size(2) equals to {nd}; got {samples.shape[2]}."
        )


def _window_indices(x, kernel, out, samples, nd: int) -> np.ndarray:
    """For each output position, the flat spatial index of every element of its window:
    (N, C, *out, prod(kernel)), the window's elements in row-major order (the order
    PyTorch's loops visit them)."""
    spatial = x.shape[2:]
    n, c = x.shape[:2]
    draws = samples._np[:n]
    # PyTorch's 2-d kernel reads the draws as (width, height); the 3-d one as (t, h, w)
    order = (1, 0) if nd == 2 else (0, 1, 2)
    flat = np.zeros((n, c) + tuple(out) + tuple(kernel), dtype=np.int64)
    stride = 1
    for d in reversed(range(nd)):
        starts = _starts(draws[:, :, order[d]], spatial[d], out[d], kernel[d])
        positions = starts[..., None] + np.arange(kernel[d])  # (N, C, out_d, k_d)
        shape = [n, c] + [1] * (2 * nd)
        shape[2 + d], shape[2 + nd + d] = out[d], kernel[d]
        flat += positions.reshape(shape) * stride
        stride *= spatial[d]
    return flat.reshape((n, c) + tuple(out) + (-1,))


def _argmax_like_pytorch(values: np.ndarray) -> np.ndarray:
    """The first maximum of each window, or its last NaN (PyTorch replaces the running
    maximum on ``value > max or isnan(value)``)."""
    nan = np.isnan(values)
    first_max = np.argmax(np.where(nan, -np.inf, values), axis=-1)
    last_nan = values.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
    return np.where(nan.any(axis=-1), last_nan, first_max)


def _fractional_max_pool(input, kernel_size, output_size, samples, nd: int):
    kernel = _ntuple(kernel_size, nd)
    out = tuple(int(s) for s in _ntuple(output_size, nd))
    batched = input.dim() == nd + 2
    x = input if batched else input.unsqueeze(0)
    _check(x, kernel, out, samples, nd)
    windows = _window_indices(x, kernel, out, samples, nd)
    n, c = x.shape[:2]
    planes = x.detach()._np.reshape(n, c, -1)
    values = np.take_along_axis(planes, windows.reshape(n, c, -1), axis=-1)
    best = _argmax_like_pytorch(values.reshape(windows.shape))
    index = np.take_along_axis(windows, best[..., None], axis=-1)[..., 0]
    indices = torch.from_numpy(np.ascontiguousarray(index))
    output = x.reshape(n, c, -1).gather(2, indices.reshape(n, c, -1)).reshape((n, c) + out)
    if not batched:
        output, indices = output.squeeze(0), indices.squeeze(0)
    return output, indices


def _pool_with_indices(input, kernel_size, output_size, output_ratio, samples, nd: int):
    """The checks and defaults of the public functions, then the pooling."""
    if output_size is None and output_ratio is None:
        raise ValueError(
            f"fractional_max_pool{nd}d requires specifying either an output_size or an output_ratio"
        )
    if output_size is None:
        if nd == 2 and len(output_ratio) > 2:
            raise ValueError(
                "fractional_max_pool2d requires output_ratio to either be a single Int or "
                "tuple of Ints."
            )
        ratio = _ntuple(output_ratio, nd)
        output_size = [int(input.size(-nd + d) * ratio[d]) for d in range(nd)]
    if samples is None:
        n_batch = 1 if input.dim() == nd + 1 else input.size(0)
        samples = torch.rand(
            n_batch, input.size(-nd - 1), nd, dtype=input.dtype, device=input.device
        )
    return _fractional_max_pool(input, kernel_size, output_size, samples, nd)


_WITH_INDICES_DOC = """{nd}-d fractional max pooling, returning ``(output, indices)``
    (the flat spatial index of each maximum in its input plane).

    Args:
        kernel_size (int or tuple): the window size.
        output_size (int or tuple, optional): the output's spatial size.
        output_ratio (float or tuple, optional): the output size as a fraction of the
            input's (one of the two is needed).
        return_indices (bool): ignored here (the indices are always returned).
        _random_samples (Tensor, optional): (N, C, {nd}) draws in [0, 1); drawn with
            ``torch.rand`` by default.
    """

_DOC = """{nd}-d fractional max pooling: max pooling over windows of
    ``kernel_size`` whose starts follow a random sequence, giving an ``output_size`` (or
    ``output_ratio`` of the input size) that need not divide the input size. With
    ``return_indices``, also the flat spatial index of each maximum.

    Examples::

        >>> F.fractional_max_pool2d(torch.randn(1, 1, 5, 5), 2, output_size=3).shape
        torch.Size([1, 1, 3, 3])
    """


def _public(nd: int, with_indices: bool):
    """``fractional_max_pool{nd}d``, or its ``_with_indices`` form (which always returns
    the indices too)."""

    def pool(
        input,
        kernel_size,
        output_size=None,
        output_ratio=None,
        return_indices: bool = False,
        _random_samples=None,
    ):
        output, indices = _pool_with_indices(
            input, kernel_size, output_size, output_ratio, _random_samples, nd
        )
        return (output, indices) if with_indices or return_indices else output

    suffix = "_with_indices" if with_indices else ""
    pool.__name__ = pool.__qualname__ = f"fractional_max_pool{nd}d{suffix}"
    pool.__doc__ = (_WITH_INDICES_DOC if with_indices else _DOC).format(nd=nd)
    return pool


fractional_max_pool2d_with_indices = _public(2, with_indices=True)
fractional_max_pool3d_with_indices = _public(3, with_indices=True)
fractional_max_pool2d = _public(2, with_indices=False)
fractional_max_pool3d = _public(3, with_indices=False)
