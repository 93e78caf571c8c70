"""``torch.nn.init``: fill tensors in place with the initial values that layers use.

Each initialiser runs without recording gradients and returns its argument. The random
ones draw from the same generator as ``torch.rand``/``torch.randn``, in the same order
as PyTorch, so a seed gives the same weights.
"""

from __future__ import annotations

import math
import warnings

import torch

from ._deprecation import deprecated_alias

__all__ = [
    "calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_",
    "zeros_", "eye_", "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
    "kaiming_normal_", "orthogonal_", "sparse_", "uniform", "normal", "constant",
    "eye", "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform",
    "kaiming_normal", "orthogonal", "sparse",
]  # fmt: skip

_UNIT_GAIN = (
    "linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "sigmoid",
)  # fmt: skip


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended scale of initial weights for a nonlinearity.

    Args:
        nonlinearity (str): ``'linear'``, ``'conv2d'``, ``'sigmoid'``, ``'tanh'``,
            ``'relu'``, ``'leaky_relu'``, ``'selu'``, ...
        param (float, optional): the negative slope of ``'leaky_relu'``. Default: 0.01.

    Examples::

        >>> nn.init.calculate_gain("tanh")
        1.6666666666666667
    """
    if nonlinearity in _UNIT_GAIN:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fill(tensor, value: float):
    tensor.copy_(torch.full(tuple(tensor.shape), value, dtype=tensor.dtype))
    return tensor


def uniform_(tensor, a: float = 0.0, b: float = 1.0, generator=None):
    """Fill with values drawn uniformly from ``[a, b)``.

    Examples::

        >>> w = nn.init.uniform_(torch.empty(2, 3), -1, 1)
        >>> bool((w.abs() <= 1).all())
        True
    """
    with torch.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean: float = 0.0, std: float = 1.0, generator=None):
    """Fill with values drawn from N(mean, std^2)."""
    with torch.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with N(mean, std^2) truncated to ``[a, b]``, by rejection sampling (so a seed
    gives PyTorch's values): when the interval holds more than 30% of the mass, normal
    draws outside it are redrawn; otherwise uniform proposals on ``[a, b]`` are accepted
    with probability ``pdf(x) / pdf(mode)``.

    Examples::

        >>> w = nn.init.trunc_normal_(torch.empty(100), a=-1.0, b=1.0)
        >>> bool((w.abs() <= 1).all())
        True
    """

    def cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
            "distribution of values may be incorrect.",
            stacklevel=2,
        )
    with torch.no_grad():
        if cdf((b - mean) / std) - cdf((a - mean) / std) > 0.3:
            _redraw_outside(tensor, mean, std, a, b, generator)
        else:
            _accept_uniform(tensor, mean, std, a, b, generator)
    return tensor


def _redraw_outside(tensor, mean, std, a, b, generator) -> None:
    result = tensor.normal_(mean, std, generator=generator)
    while True:
        outside = (result < a) | (result > b)
        if not bool(outside.any()):
            break
        fresh = torch.empty_like(result).normal_(mean, std, generator=generator)
        result = torch.where(outside, fresh, result)
    if result is not tensor:
        tensor.copy_(result)


def _accept_uniform(tensor, mean, std, a, b, generator) -> None:
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2

    def rejected(candidates):
        log_ratio = -0.5 * ((candidates - mean) / std) ** 2 - log_peak
        draw = torch.empty_like(tensor).uniform_(generator=generator).log()
        return draw > log_ratio

    tensor.uniform_(a, b, generator=generator)
    pending = rejected(tensor)
    result = tensor
    while bool(pending.any()):
        candidates = torch.empty_like(tensor).uniform_(a, b, generator=generator)
        result = torch.where(pending, candidates, result)
        pending = torch.where(pending, rejected(candidates), pending)
    if result is not tensor:
        tensor.copy_(result)


def constant_(tensor, val: float):
    """Fill with ``val``."""
    with torch.no_grad():
        return _fill(tensor, val)


def ones_(tensor):
    """Fill with ones."""
    return constant_(tensor, 1.0)


def zeros_(tensor):
    """Fill with zeros."""
    return constant_(tensor, 0.0)


def eye_(tensor):
    """Fill a 2-D tensor with the identity matrix."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        tensor.copy_(torch.eye(*tensor.shape, dtype=tensor.dtype))
    return tensor


def dirac_(tensor, groups: int = 1):
    """Fill a 3-, 4- or 5-D convolution weight so that the convolution is the identity
    on (each group's) first channels."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    smallest = min(out_per_group, sizes[1])
    values = torch.zeros(tuple(sizes), dtype=tensor.dtype)
    centre = tuple(s // 2 for s in sizes[2:])
    for g in range(groups):
        for d in range(smallest):
            values[(g * out_per_group + d, d) + centre] = 1
    with torch.no_grad():
        tensor.copy_(values)
    return tensor


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = math.prod(tensor.shape[2:]) if tensor.dim() > 2 else 1
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor, gain: float = 1.0, generator=None):
    """Glorot uniform: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = gain * math.sqrt(6.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain: float = 1.0, generator=None):
    """Glorot normal: ``N(0, std^2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor, a, mode, nonlinearity):
    if 0 in tuple(tensor.shape):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return None
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(
    tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator=None
):
    """He uniform: ``U(-b, b)`` with ``b = gain * sqrt(3 / fan)``.

    Args:
        a (float): the negative slope of the rectifier after this layer. Default: 0.
        mode (str): ``'fan_in'`` or ``'fan_out'``. Default: ``'fan_in'``.
        nonlinearity (str): as for :func:`calculate_gain`. Default: ``'leaky_relu'``.
    """
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator=None
):
    """He normal: ``N(0, std^2)`` with ``std = gain / sqrt(fan)``."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return normal_(tensor, 0.0, std, generator)


def orthogonal_(tensor, gain: float = 1, generator=None):
    """Fill with a (semi-)orthogonal matrix (the trailing dims flattened), scaled by
    ``gain``."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = torch.empty(rows, cols, dtype=tensor.dtype).normal_(0, 1, generator=generator)
    if rows < cols:
        flat = flat.t()
    q, r = torch.linalg.qr(flat)
    q = q * torch.diagonal(r, 0).sign()
    if rows < cols:
        q = q.t()
    with torch.no_grad():
        tensor.copy_(q.reshape(tensor.shape) * gain)
    return tensor


def sparse_(tensor, sparsity: float, std: float = 0.01, generator=None):
    """Fill a 2-D tensor with N(0, std^2) values and zero a ``sparsity`` fraction of
    each column."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = int(math.ceil(sparsity * rows))
    with torch.no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            order = torch.randperm(rows, generator=generator)
            tensor[order[:zeros], col] = 0
    return tensor


def _deprecated(new):
    return deprecated_alias(new, new.__name__[:-1], "nn.init.")


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
