"""``F.pad``: its argument checks (PyTorch's messages) and the reflect, replicate and
circular modes as one ``index_select`` per padded dim (so autograd differentiates the
gather). The constant mode is core's ``torch.constant_pad_nd``."""

from __future__ import annotations

import numpy as np

import torch

__all__ = []


def pad(input, pad, mode: str = "constant", value=None):
    """Pad the last ``len(pad) // 2`` dims: ``pad`` lists (left, right) for the last dim
    first."""
    if mode == "constant":
        try:  # core checks the same (but for the messages below) and pads
            return torch.constant_pad_nd(input, pad, 0 if value is None else value)
        except RuntimeError:
            _check_length(_pad_ints(pad), input.dim())  # F.pad's message for a bad length
            raise
    pad = _pad_ints(pad)
    ndim = input.dim()
    _check_length(pad, ndim)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    spatial = len(pad) // 2
    if spatial not in (1, 2, 3) or ndim not in (spatial + 1, spatial + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {ndim}D input tensor."
        )
    if mode == "circular":
        _check_circular(input, pad, spatial)
    else:
        _check_reflect_replicate(input, pad, spatial, mode)
    result = input
    for k in range(spatial):
        dim = ndim - 1 - k
        positions = _source_positions(mode, result.shape[dim], pad[2 * k], pad[2 * k + 1])
        result = result.index_select(dim, torch.from_numpy(positions.astype(np.int64)))
    return result


def _check_length(pad: tuple, ndim: int) -> None:
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension "
            f"but got padding length {len(pad)} and input of dimension {ndim}"
        )


def _source_positions(mode: str, size: int, left: int, right: int):
    """The input index each output position of one padded dim reads."""
    positions = np.arange(-left, size + right)
    if mode == "reflect":
        period = 2 * (size - 1)
        positions = np.abs((positions + period) % period if period else positions * 0)
        return np.where(positions >= size, period - positions, positions)
    if mode == "replicate":
        return np.clip(positions, 0, size - 1)
    return positions % size if size else positions


def _check_circular(input, pad, spatial: int) -> None:
    shape, ndim = list(input.shape), input.dim()
    for k in range(spatial):
        left, right = pad[2 * k], pad[2 * k + 1]
        size = shape[ndim - 1 - k]
        if left > size or right > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if size + left + right < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")


def _check_reflect_replicate(input, pad, spatial: int, mode: str) -> None:
    """The checks of PyTorch's reflection_pad{n}d / replication_pad{n}d kernels."""
    shape, ndim = list(input.shape), input.dim()
    kernel = ("reflection" if mode == "reflect" else "replication") + f"_pad{spatial}d"
    if input.dtype == torch.bool:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    inner = shape[1:] if ndim == spatial + 2 else shape
    if 0 in inner:
        raise RuntimeError(
            f"Expected {spatial + 1}D or {spatial + 2}D (batch mode) tensor with possibly 0 "
            f"batch size and other non-zero dimensions for input, but got: {_size_str(shape)}"
        )
    for k in range(spatial):
        left, right = pad[2 * k], pad[2 * k + 1]
        size = shape[ndim - 1 - k]
        if mode == "reflect" and (left >= size or right >= size):
            raise RuntimeError(
                f"Argument #{4 + 2 * k}: Padding size should be less than the "
                f"corresponding input dimension, but got: padding ({left}, {right}) at "
                f"dimension {ndim - 1 - k} of input {_size_str(shape)}"
            )
    outs = [shape[ndim - 1 - k] + pad[2 * k] + pad[2 * k + 1] for k in range(spatial)]
    if spatial == 1 and outs[0] < 1:
        raise RuntimeError(f"input (W: {shape[-1]}) is too small. Calculated output W: {outs[0]}")
    if spatial > 1 and min(outs) < 0:
        new_shape = shape[: ndim - spatial] + outs[::-1]
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {min(outs)}: {new_shape}"
        )


def _pad_ints(pad) -> tuple:
    """``pad`` as a tuple of ints, refused as PyTorch's argument parser refuses it."""
    if isinstance(pad, torch.Tensor):
        raise TypeError("pad(): argument 'pad' (position 2) must be tuple of ints, not Tensor")
    items = tuple(pad)
    bad = next((k for k, p in enumerate(items) if not _is_int(p)), None)
    if bad is not None:
        raise TypeError(
            "pad(): argument 'pad' (position 2) must be tuple of ints, but found element "
            f"of type {type(items[bad]).__name__} at pos {bad}"
        )
    return tuple(int(p) for p in items)


def _is_int(p) -> bool:
    if isinstance(p, torch.Tensor):  # a 0-dim integer tensor counts as an int
        return p.dim() == 0 and not p.dtype.is_floating_point
    return isinstance(p, (int, np.integer)) and not isinstance(p, bool)


def _size_str(shape) -> str:
    return "[" + ", ".join(str(int(n)) for n in shape) + "]"
