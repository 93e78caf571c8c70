"""``torch.testing.make_tensor``: a tensor of a given shape and dtype filled with random
values from ``[low, high)``, as test suites (PyTorch's own and libraries') make their
inputs. The values come from the global generator in PyTorch's order, so a seeded call
gives PyTorch's tensor."""

from __future__ import annotations

import collections.abc
import math
import warnings

import torch

__all__ = ["make_tensor"]

_INTEGRAL = (
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.uint16,
    torch.uint32,
    torch.uint64,
)
_FLOATING = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_FLOAT8 = (torch.float8_e4m3fn, torch.float8_e4m3fnuz, torch.float8_e5m2, torch.float8_e5m2fnuz)
_COMPLEX = (torch.complex32, torch.complex64, torch.complex128)


def _bounds(low, high, dtype, lowest, highest_exclusive, default_low, default_high):
    """``low`` and ``high`` with defaults, checked and clamped into the dtype's range;
    rounded up to integers for bool and integral dtypes."""
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low == high and dtype in _FLOATING + _COMPLEX:
        warnings.warn(
            "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types "
            "is deprecated since 2.1 and will be removed in 2.3. "
            "Use `torch.full(...)` instead.",
            FutureWarning,
            stacklevel=3,
        )
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest_exclusive:
        raise ValueError(
            f"The value interval specified by `low` and `high` is [{low}, {high}), but {dtype} "
            f"only supports [{lowest}, {highest_exclusive})"
        )
    low = min(max(low, lowest), highest_exclusive)
    high = min(max(high, lowest), highest_exclusive)
    if dtype is torch.bool or dtype in _INTEGRAL:
        return math.ceil(low), math.ceil(high)
    return low, high


def _uniform_(t: torch.Tensor, low, high) -> torch.Tensor:
    # NOTE: a range wider than the dtype's largest value overflows uniform_; halve it
    if high - low >= torch.finfo(t.dtype).max:
        return t.uniform_(low / 2, high / 2).mul_(2)
    return t.uniform_(low, high)


def _random_values(shape, dtype, device, low, high) -> torch.Tensor:
    if dtype is torch.bool:
        low, high = _bounds(low, high, dtype, 0, 2, 0, 2)
        return torch.randint(low, high, shape, device=device, dtype=dtype)
    if dtype in _INTEGRAL:
        info = torch.iinfo(dtype)
        top = info.max + (1 if dtype is not torch.int64 else 0)
        low, high = _bounds(low, high, dtype, info.min, top, -9, 10)
        return torch.randint(low, high, shape, device=device, dtype=dtype)
    if dtype in _FLOATING + _COMPLEX:
        info = torch.finfo(dtype)
        low, high = _bounds(low, high, dtype, info.min, info.max, -9, 9)
        result = torch.empty(shape, device=device, dtype=dtype)
        _uniform_(torch.view_as_real(result) if dtype in _COMPLEX else result, low, high)
        return result
    if dtype in _FLOAT8:
        info = torch.finfo(dtype)
        low, high = _bounds(low, high, dtype, info.min, info.max, -9, 9)
        result = torch.empty(shape, device=device, dtype=torch.float32)
        return _uniform_(result, low, high).to(dtype)
    raise TypeError(
        f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor(). "
        "To request support, file an issue at: https://github.com/pytorch/pytorch/issues"
    )


def make_tensor(
    *shape,
    dtype: torch.dtype,
    device,
    low: float | None = None,
    high: float | None = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format: torch.memory_format | None = None,
) -> torch.Tensor:
    """A tensor of ``shape`` with values drawn uniformly from ``[low, high)``.

    Args:
        shape (ints or a sequence of ints): the shape.
        dtype (torch.dtype): the dtype (bool, integral, floating, float8 or complex).
        device (str or torch.device): the device.
        low, high (float, optional): the range, clamped to what ``dtype`` holds. Default:
            ``[0, 2)`` for bool, ``[-9, 10)`` for integers (``[0, 10)`` unsigned), ``[-9, 9)``
            for floating and complex dtypes (both parts).
        requires_grad (bool): whether autograd records operations on it (floating and
            complex dtypes only). Default: ``False``.
        noncontiguous (bool): return a non-contiguous tensor (if it has more than one
            element). Default: ``False``.
        exclude_zero (bool): replace zeros by 1 (bool, integers) or the dtype's smallest
            normal number. Default: ``False``.
        memory_format (torch.memory_format, optional): the memory format of the result
            (not with ``noncontiguous``).

    Examples::

        >>> from torch.testing import make_tensor
        >>> make_tensor(3, dtype=torch.float32, device="cpu", low=-1, high=1)
        tensor([-0.0075,  0.5364, -0.8230])
    """
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(
            "The parameters `noncontiguous` and `memory_format` are mutually exclusive, but "
            f"got noncontiguous={noncontiguous} and memory_format={memory_format}"
        )
    if requires_grad and (dtype is torch.bool or dtype in _INTEGRAL):
        raise ValueError(
            "`requires_grad=True` is not supported for boolean and integral dtypes, but got "
            f"dtype={dtype}"
        )
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:  # twice the last dim, every other element kept
        shape = (*shape[:-1], 2 * shape[-1])
    result = _random_values(shape, dtype, device, low, high)
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = _nonzero(dtype)
    if dtype in _FLOATING + _COMPLEX:
        result.requires_grad = requires_grad
    return result


def _nonzero(dtype):
    if dtype is torch.bool or dtype in _INTEGRAL:
        return 1
    tiny = torch.finfo(dtype).tiny
    return complex(tiny, tiny) if dtype in _COMPLEX else tiny
