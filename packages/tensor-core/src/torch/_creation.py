"""Tensor creation: ``tensor``, ``zeros``, ``ones``, ``full``, ``arange``, ``rand``, ..."""

from __future__ import annotations

import numpy as np

from . import _dtype
from ._device import device as _device_cls
from ._random import uniform_array
from ._tensor import Tensor

__all__ = [
    "tensor",
    "as_tensor",
    "from_numpy",
    "zeros",
    "ones",
    "full",
    "empty",
    "arange",
    "zeros_like",
    "ones_like",
    "rand",
]


def _parse_size(size, fn: str) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(
                f"{fn}(): argument 'size' must be tuple of ints, but found element "
                f"of type {type(s).__name__}"
            )
        if s < 0:
            raise RuntimeError(
                f"{fn}(): trying to create tensor with negative dimension {s}: {list(size)}"
            )
    return tuple(int(s) for s in size)


def _check_device(device) -> None:
    if device is not None and _device_cls(device).type != "cpu":
        raise RuntimeError(f"device '{device}' is not available: only the CPU backend is built")


def _finish(array: np.ndarray, dtype, requires_grad: bool) -> Tensor:
    result = Tensor._from_array(array, dtype)
    if requires_grad:
        result.requires_grad_(True)
    return result


def _infer_dtype(array: np.ndarray):
    kind = array.dtype.kind
    if kind == "b":
        return _dtype.bool_
    if kind in "iu":
        return _dtype.int64 if array.dtype != np.uint8 else _dtype.uint8
    if kind == "f":
        return _dtype.get_default_dtype()
    if kind == "c":
        return _dtype.get_default_dtype().to_complex()
    raise TypeError(f"Could not infer dtype of {array.dtype}")


def _to_array(data) -> np.ndarray:
    if isinstance(data, Tensor):
        return data._np
    if isinstance(data, (list, tuple)):
        return np.array([_to_array(x) if isinstance(x, (Tensor, list, tuple)) else x for x in data])
    return np.asarray(data)


def tensor(data, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A new tensor holding a copy of ``data`` (a number, nested sequences, a NumPy array).

    Python ints give ``torch.int64``, floats the default dtype, bools ``torch.bool``.

    Examples::

        >>> import torch
        >>> torch.tensor([[1, 2], [3, 4]])
        tensor([[1, 2],
                [3, 4]])
        >>> torch.tensor([1.5, 2.0]).dtype
        torch.float32
    """
    _check_device(device)
    if isinstance(data, str) or data is None:
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    array = _to_array(data)
    if isinstance(data, np.ndarray) or (isinstance(data, Tensor)):
        inferred = _dtype.from_numpy_dtype(array.dtype)
    else:
        inferred = _infer_dtype(array)
    target = dtype or inferred
    return _finish(np.array(array, dtype=target.np_dtype, order="C"), target, requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like :func:`tensor`, but shares memory with a tensor or NumPy array when no
    conversion is needed."""
    if isinstance(data, Tensor) and (dtype is None or dtype is data.dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or dtype.np_dtype == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor sharing memory with a NumPy array."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    if any(s < 0 for s in ndarray.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors "
            "with negative strides are not currently supported. (You can probably "
            "work around this by making a copy of your array  with array.copy().)"
        )
    dtype = _dtype.from_numpy_dtype(ndarray.dtype)
    if ndarray.flags.c_contiguous:
        return Tensor._from_array(ndarray, dtype)
    raise NotImplementedError("from_numpy of non-contiguous arrays arrives with strided storage")


def _filled(fn, size, value, dtype, device, requires_grad):
    _check_device(device)
    shape = _parse_size(size, fn)
    if dtype is None:
        dtype = _dtype.get_default_dtype()
    return _finish(np.full(shape, value, dtype=dtype.np_dtype), dtype, requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of zeros; ``size`` as varargs or one sequence.

    Examples::

        >>> import torch
        >>> torch.zeros(2, 3).shape
        torch.Size([2, 3])
    """
    return _filled("zeros", size, 0, dtype, device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of ones; ``size`` as varargs or one sequence."""
    return _filled("ones", size, 1, dtype, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """An uninitialised tensor; ``size`` as varargs or one sequence."""
    _check_device(device)
    shape = _parse_size(size, "empty")
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(np.empty(shape, dtype=dtype.np_dtype), dtype, requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of ``size`` filled with ``fill_value`` (dtype inferred from the value)."""
    if dtype is None:
        dtype = _infer_dtype(np.asarray(fill_value))
    return _filled("full", (size,), fill_value, dtype, device, requires_grad)


def zeros_like(input: Tensor, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Zeros with the shape (and by default the dtype) of ``input``."""
    return zeros(
        input.shape, dtype=dtype or input.dtype, device=device, requires_grad=requires_grad
    )


def ones_like(input: Tensor, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Ones with the shape (and by default the dtype) of ``input``."""
    return ones(input.shape, dtype=dtype or input.dtype, device=device, requires_grad=requires_grad)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Values from ``start`` (default 0) up to but excluding ``end``, ``step`` apart.

    Examples::

        >>> import torch
        >>> torch.arange(5)
        tensor([0, 1, 2, 3, 4])
        >>> torch.arange(1, 2.5, 0.5)
        tensor([1.0000, 1.5000, 2.0000])
    """
    _check_device(device)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    if dtype is None:
        integral = all(isinstance(v, int) for v in (start, end, step))
        dtype = _dtype.int64 if integral else _dtype.get_default_dtype()
    length = max(0, int(np.ceil((end - start) / step)))
    values = start + step * np.arange(
        length, dtype=np.float64 if dtype.is_floating_point else np.int64
    )
    return _finish(values.astype(dtype.np_dtype), dtype, requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Uniform random numbers on [0, 1); same seed, same numbers as PyTorch's CPU.

    Examples::

        >>> import torch
        >>> _ = torch.manual_seed(0)
        >>> torch.rand(2, 2)
        tensor([[0.4963, 0.7682],
                [0.0885, 0.1320]])
    """
    _check_device(device)
    shape = _parse_size(size, "rand")
    dtype = dtype or _dtype.get_default_dtype()
    if not dtype.is_floating_point:
        raise RuntimeError(f"\"check_uniform_bounds\" not implemented for '{dtype}'")
    return _finish(uniform_array(shape, dtype, generator), dtype, requires_grad)
