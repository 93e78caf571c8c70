"""Normalisation and dropout with PyTorch's signatures; the math is core's."""

from __future__ import annotations

import numpy as np

import torch

from ._common import apply_inplace, core
from ._padding import pad

__all__ = [
    "batch_norm", "instance_norm", "layer_norm", "group_norm", "rms_norm",
    "local_response_norm", "dropout", "alpha_dropout", "feature_alpha_dropout",
    "dropout1d", "dropout2d", "dropout3d",
]  # fmt: skip


def batch_norm(
    input,
    running_mean,
    running_var,
    weight=None,
    bias=None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
):
    """Normalise each channel (dim 1) with the batch's statistics (``training``, which
    also updates the running ones) or with the running statistics."""
    return core("batch_norm")(
        input, running_mean, running_var, weight, bias, training, momentum, eps
    )


def instance_norm(
    input,
    running_mean=None,
    running_var=None,
    weight=None,
    bias=None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
):
    """Normalise each channel of each sample over its spatial dims."""
    return core("instance_norm")(
        input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps
    )


def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-5):
    """Normalise over the last ``len(normalized_shape)`` dims."""
    return core("layer_norm")(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-5):
    """Normalise groups of channels."""
    if input.dim() < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.dim()}"
        )
    size = [input.size(0) * input.size(1) // num_groups, num_groups, *input.size()[2:]]
    if size[0] * int(np.prod(size[2:])) == 1:  # PyTorch's _verify_batch_size
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {size}"
        )
    return core("group_norm")(input, num_groups, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Divide by the root mean square over the last ``len(normalized_shape)`` dims."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.dim() - len(shape) :]) != shape or len(shape) > input.dim():
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(map(str, shape))}], but got input of size{list(input.shape)}"
        )
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    out = input * torch.rsqrt((input * input).mean(dims, keepdim=True) + eps)
    return out if weight is None else out * weight


def local_response_norm(input, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
    """Divide each value by ``(k + alpha / size * sum of squares of its ``size``
    neighbouring channels) ** beta``."""
    dim = input.dim()
    if size <= 0:
        raise RuntimeError(f"local_response_norm: size should be greater than zero, but got {size}")
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    squares = (input * input).unsqueeze(1)
    if dim == 3:
        padded = pad(squares, (0, 0, size // 2, (size - 1) // 2))
        div = core("avg_pool")(padded, (size, 1), 1, nd=2).squeeze(1)
    else:
        shape = input.shape
        squares = squares.reshape(shape[0], 1, shape[1], shape[2], -1)
        padded = pad(squares, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = core("avg_pool")(padded, (size, 1, 1), 1, nd=3).squeeze(1)
        div = div.reshape(shape)
    return input / (div * alpha + k).pow(beta)


def _cross_map_lrn2d(input, size: int, alpha: float, beta: float, k: float):
    """Lua Torch's cross-channel LRN (``nn.CrossMapLRN2d``): its running window starts
    with channels [0, (size - 1) // 2] and, as it slides, drops channels from 1 on;
    channel 0 is never dropped (kept here for identical results)."""
    channels = input.shape[1]
    reach = (size - 1) // 2 + 1
    cumulative = (input * input).cumsum(1)
    upper = np.minimum(np.arange(channels) + reach - 1, channels - 1)
    dropped = np.arange(channels) - reach  # channels 1..dropped leave the window
    total = cumulative.index_select(1, torch.from_numpy(upper))
    if (dropped >= 1).any():
        first = cumulative.narrow(1, 0, 1)
        at = torch.from_numpy(np.maximum(dropped, 0))
        removed = cumulative.index_select(1, at) - first
        keep = torch.from_numpy(dropped >= 1).reshape(1, -1, 1, 1)
        total = total - torch.where(keep, removed, 0.0)
    return input * (total * (alpha / size) + k).pow(-beta)


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)``
    (only when ``training``).

    Examples::

        >>> F.dropout(torch.ones(3), p=0.5, training=False)
        tensor([1., 1., 1.])
    """
    _check_p(p)
    return apply_inplace(core("dropout"), input, inplace and training, p, training)


def alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """Dropout that keeps the SELU activations' mean and variance."""
    _check_p(p)
    return apply_inplace(core("alpha_dropout"), input, inplace and training, p, training)


def feature_alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """Alpha dropout of whole channels."""
    _check_p(p)
    if not training or p == 0:
        return input
    alpha_prime = -1.7580993408473766
    shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2)
    keep = torch.empty(shape, dtype=input.dtype).bernoulli_(1 - p)
    a = (1 - p + p * alpha_prime**2 * (1 - p)) ** -0.5
    b = -a * alpha_prime * p
    return apply_inplace(lambda x: (x * keep + alpha_prime * (1 - keep)) * a + b, input, inplace)


def _feature_dropout(input, p, training, inplace, nd):
    _check_p(p)
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"dropout{nd}d: Expected {nd + 1}D or {nd + 2}D input, but received a "
            f"{input.dim()}D input."
        )
    unbatched = input.dim() == nd + 1

    def drop(x):
        out = core("feature_dropout")(x.unsqueeze(0) if unbatched else x, p, training)
        return out.squeeze(0) if unbatched else out

    return apply_inplace(drop, input, inplace and training)


def dropout1d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of (N, C, L) or (C, L) inputs with probability ``p``."""
    return _feature_dropout(input, p, training, inplace, 1)


def dropout2d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of (N, C, H, W) inputs with probability ``p``."""
    return _feature_dropout(input, p, training, inplace, 2)


def dropout3d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of (N, C, D, H, W) inputs with probability ``p``."""
    return _feature_dropout(input, p, training, inplace, 3)
