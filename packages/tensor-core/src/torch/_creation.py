"""Tensor creation: ``tensor``, ``zeros``, ``ones``, ``full``, ``arange``, ``linspace``, ..."""

from __future__ import annotations

import itertools
import math

import numpy as np

from . import _dtype
from . import _memory_format as _mf
from ._creation_layout import is_sparse_layout, refuse_sparse, sparse_empty, sparse_like
from ._dtype_support import refuse_kernel, to_float8
from ._interface.backends import dispatch_device, filled_on, made_on, place_fresh
from ._interface.backends import resolve as resolve_device
from ._tensor import Tensor, _dense_flat, make

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
]


def check_size_element(fn: str, s) -> None:
    """PyTorch's TypeError for an element of a ``size`` argument that is not an int."""
    if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
        raise TypeError(
            f"{fn}(): argument 'size' must be tuple of ints, but found element "
            f"of type {type(s).__name__}"
        )


def _parse_size(size, fn: str) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        check_size_element(fn, s)
        if s < 0:
            if fn == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    return tuple(int(s) for s in size)


def _check_device(device):
    """The resolved non-CPU device a factory puts its result on, or None for the CPU."""
    return dispatch_device() if device is None else resolve_device(device)


def _finish(array: np.ndarray, dtype, requires_grad: bool, device=None) -> Tensor:
    result = Tensor._from_array(array, dtype)
    if device is not None:
        place_fresh(result, device)
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


def _check_ragged(data, dim: int = 0) -> None:
    """PyTorch's error for nested sequences of unequal lengths."""
    if not isinstance(data, (list, tuple)) or not data:
        return
    first = data[0]
    expected = len(first) if isinstance(first, (list, tuple)) else None
    for item in data:
        length = len(item) if isinstance(item, (list, tuple)) else None
        if length != expected:
            raise ValueError(
                f"expected sequence of length {expected} at dim {dim + 1} (got {length})"
            )
        _check_ragged(item, dim + 1)


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

        >>> torch.tensor([[1, 2], [3, 4]])
        tensor([[1, 2],
                [3, 4]])
        >>> torch.tensor([1.5, 2.0]).dtype
        torch.float32
    """
    if device is None and isinstance(data, Tensor):
        device = data._device  # a copy of a tensor stays on its device
    device = _check_device(device)
    if isinstance(data, str) or data is None:
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    try:
        array = _to_array(data)
    except ValueError:
        _check_ragged(data)
        raise
    if isinstance(data, np.ndarray) or (isinstance(data, Tensor)):
        inferred = _dtype.from_numpy_dtype(array.dtype)
    else:
        inferred = _infer_dtype(array)
    target = dtype or inferred
    if target._limited == "float8":
        array = to_float8(array, target)
    if isinstance(data, Tensor):
        # a copy keeping the tensor's layout (PyTorch's ``to(copy=True)``: preserve_format)
        strides = _mf.preserve_strides(array.shape, _mf.strides_of(array))
        copied = _mf.empty_array(array.shape, strides, target.np_dtype)
        with np.errstate(all="ignore"):
            np.copyto(copied, array, casting="unsafe")
        return _finish_exact(copied, target, requires_grad, device)
    if device is not None and type(data) in (int, float, bool) and not target._limited:
        # a number on a device: filled there (no host copy)
        return _finish_device(filled_on(device, (), target.np_dtype, data), target, requires_grad)
    return _finish(np.array(array, dtype=target.np_dtype, order="C"), target, requires_grad, device)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like :func:`tensor`, but shares memory with a tensor or NumPy array when no
    conversion is needed."""
    target = None if device is None else _check_device(device)
    if isinstance(data, Tensor):
        here = _check_device(data._device)
        if (dtype is None or dtype is data.dtype) and (device is None or target == here):
            return data
        return data.to(device=data._device if device is None else device, dtype=dtype)
    if isinstance(data, np.ndarray) and (dtype is None or dtype.np_dtype == data.dtype):
        if target is None:
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
    if any(s % ndarray.itemsize for s in ndarray.strides):
        raise ValueError(
            "given numpy array strides not a multiple of the element byte size. "
            "Copy the numpy array to reallocate the memory."
        )
    if ndarray.flags.c_contiguous:
        return Tensor._from_array(ndarray, dtype)
    # a strided array: the storage is the memory of the array it views, so they share
    root = ndarray
    while isinstance(root.base, np.ndarray):
        root = root.base
    flat = _dense_flat(root)
    if flat is None:
        raise ValueError(
            "from_numpy(): the array views memory that is not one dense block; "
            "copy it with array.copy() first"
        )
    holder = Tensor._from_array(flat.view(np.uint8), _dtype.uint8)
    result = holder._alias(ndarray)
    result._dtype = dtype
    result._base = None
    return result


def _filled(fn, size, value, dtype, device, requires_grad):
    device = _check_device(device)
    shape = _parse_size(size, fn)
    if dtype is None:
        dtype = _dtype.get_default_dtype()
    if dtype._limited == "float8":
        value = to_float8(np.asarray(value, np.float64), dtype)
    elif device is not None:  # filled on the device itself: no host array, no copy
        return _finish_device(filled_on(device, shape, dtype.np_dtype, value), dtype, requires_grad)
    return _finish(np.full(shape, value, dtype=dtype.np_dtype), dtype, requires_grad, device)


def _finish_device(array, dtype, requires_grad: bool) -> Tensor:
    """Wrap a fresh C-contiguous array made on a device."""
    result = make(array, dtype)
    if requires_grad:
        result.requires_grad_(True)
    return result


def zeros(*size, dtype=None, layout=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of zeros; ``size`` as varargs or one sequence. ``layout``:
    ``torch.strided`` (default) or ``torch.sparse_coo`` (a sparse tensor with no entries).

    Examples::

        >>> torch.zeros(2, 3).shape
        torch.Size([2, 3])
    """
    if layout is not None and is_sparse_layout(layout, "zeros", size):
        return _sparse_zeros("zeros", size, dtype, device, requires_grad)
    return _filled("zeros", size, 0, dtype, device, requires_grad)


def _sparse_zeros(fn, size, dtype, device, requires_grad) -> Tensor:
    shape = _parse_size(size, fn)
    return sparse_empty(shape, dtype or _dtype.get_default_dtype(), device, requires_grad)


def ones(*size, dtype=None, layout=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of ones; ``size`` as varargs or one sequence."""
    if layout is not None and is_sparse_layout(layout, "ones", size):
        raise refuse_sparse("ones")
    return _filled("ones", size, 1, dtype, device, requires_grad)


def empty(
    *size, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None
) -> Tensor:
    """An uninitialised tensor; ``size`` as varargs or one sequence. ``memory_format``:
    ``torch.contiguous_format`` (default), ``torch.channels_last`` (4-D) or
    ``torch.channels_last_3d`` (5-D).

    Examples::

        >>> torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride()
        (60, 1, 15, 3)
    """
    if layout is not None and is_sparse_layout(layout, "empty", size):
        return _sparse_zeros("empty", size, dtype, device, requires_grad)
    device = _check_device(device)
    shape = _parse_size(size, "empty")
    dtype = dtype or _dtype.get_default_dtype()
    name = _mf.format_name(memory_format, "empty", "contiguous_format")
    if name == "contiguous_format":
        if device is not None:  # allocated on the device itself
            return _finish_device(filled_on(device, shape, dtype.np_dtype), dtype, requires_grad)
        return _finish(np.empty(shape, dtype=dtype.np_dtype), dtype, requires_grad, device)
    strides = _mf.format_strides(shape, name)
    return _finish_exact(
        _mf.empty_array(shape, strides, dtype.np_dtype), dtype, requires_grad, device
    )


def full(size, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of ``size`` filled with ``fill_value`` (dtype inferred from the value)."""
    if layout is not None and is_sparse_layout(layout, "full", (size, fill_value)):
        raise refuse_sparse("full")
    if dtype is None:
        dtype = _infer_dtype(np.asarray(fill_value))
    return _filled("full", (size,), fill_value, dtype, device, requires_grad)


def _like(input: Tensor, fill, dtype, device, requires_grad, memory_format) -> Tensor:
    """A new tensor shaped like ``input``, filled with ``fill`` (None: uninitialised),
    laid out by ``memory_format`` (default ``preserve_format``: a non-overlapping and
    dense ``input``'s own strides, else dense strides in ``input``'s dim order)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"argument 'input' must be Tensor, not {type(input).__name__}")
    if input.is_sparse:  # a dense result like a sparse tensor: only its shape and dtype count
        input = empty(input.shape, dtype=input.dtype)
    device = _check_device(input._device if device is None else device)
    dtype = dtype or input._dtype
    name = _mf.format_name(memory_format, "empty_like")
    strides = _mf.target_strides(input._np.shape, input.stride(), name)
    if device is not None and dtype._limited != "float8":
        if tuple(strides) == _mf.contiguous_strides(input._np.shape):
            array = filled_on(device, input._np.shape, dtype.np_dtype, fill)
            return _finish_device(array, dtype, requires_grad)
    array = _mf.empty_array(input._np.shape, strides, dtype.np_dtype)
    if fill is not None:
        if dtype._limited == "float8":
            fill = to_float8(np.asarray(fill, np.float64), dtype)
        array[...] = fill
    return _finish_exact(array, dtype, requires_grad, device)


def _finish_exact(array: np.ndarray, dtype, requires_grad: bool, device=None) -> Tensor:
    """Wrap a fresh dense array keeping its strides exactly (those of size-0 and size-1
    dims too, which ``_finish`` would make contiguous)."""
    result = make(array, dtype)
    if device is not None:
        place_fresh(result, device)
    if requires_grad:
        result.requires_grad_(True)
    return result


def zeros_like(
    input: Tensor, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None
) -> Tensor:
    """Zeros with the shape (and by default the dtype and memory layout) of ``input``.

    Args:
        memory_format (torch.memory_format, optional): ``torch.preserve_format`` (the
            default: the dim order of ``input``), ``torch.contiguous_format``,
            ``torch.channels_last`` (4-D) or ``torch.channels_last_3d`` (5-D).

    Examples::

        >>> torch.zeros_like(torch.ones(3, 2).t()).stride()
        (1, 2)
        >>> torch.zeros_like(torch.ones(1, 3, 2, 2), memory_format=torch.channels_last).stride()
        (12, 1, 6, 3)
    """
    if sparse_like(input, layout, "zeros_like", (input,)):
        return sparse_empty(input.shape, dtype or input.dtype, device, requires_grad, input)
    return _like(input, 0, dtype, device, requires_grad, memory_format)


def ones_like(
    input: Tensor, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None
) -> Tensor:
    """Ones with the shape (and by default the dtype and memory layout) of ``input``; see
    :func:`zeros_like` for ``memory_format``.

    Examples::

        >>> torch.ones_like(torch.zeros(2, dtype=torch.int32))
        tensor([1, 1], dtype=torch.int32)
    """
    if sparse_like(input, layout, "ones_like", (input,)):
        raise refuse_sparse("ones_like", filling=layout is None)
    return _like(input, 1, dtype, device, requires_grad, memory_format)


def arange(
    start, end=None, step=1, *, dtype=None, layout=None, device=None, requires_grad=False
) -> Tensor:
    """Values from ``start`` (default 0) up to but excluding ``end``, ``step`` apart.

    Examples::

        >>> torch.arange(5)
        tensor([0, 1, 2, 3, 4])
        >>> torch.arange(1, 2.5, 0.5)
        tensor([1.0000, 1.5000, 2.0000])
    """
    if layout is not None and is_sparse_layout(
        layout, "arange", _given(start, end, _unless_one(step))
    ):
        raise refuse_sparse("arange")
    device = _check_device(device)
    # 0-dim tensors count as the Python numbers they hold (an int64 one gives int64)
    start, end, step = (v.item() if isinstance(v, Tensor) else v for v in (start, end, step))
    if end is None:
        start, end = 0, start
    if not all(np.isfinite(float(v)) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        integral = all(isinstance(v, int) for v in (start, end, step))
        dtype = _dtype.int64 if integral else _dtype.get_default_dtype()
    elif dtype._limited:
        refuse_kernel("arange_cpu", dtype)
    length = max(0, int(np.ceil((end - start) / step)))
    steps_dtype = np.float64 if dtype.is_floating_point else np.int64
    if device is not None:  # made on the device: no host copy
        values = made_on(device, lambda xp: start + step * xp.arange(length, dtype=steps_dtype))
        return _finish_device(values.astype(dtype.np_dtype), dtype, requires_grad)
    values = start + step * np.arange(length, dtype=steps_dtype)
    return _finish(values.astype(dtype.np_dtype), dtype, requires_grad, device)


def empty_like(
    input: Tensor, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None
) -> Tensor:
    """An uninitialised tensor with the shape (and by default the dtype and memory layout)
    of ``input``; see :func:`zeros_like` for ``memory_format``.

    Examples::

        >>> torch.empty_like(torch.zeros(2, 3)).shape
        torch.Size([2, 3])
    """
    if sparse_like(input, layout, "empty_like", (input,)):
        if layout is not None:  # PyTorch makes sparse results like sparse inputs only
            raise refuse_sparse("empty_like")
        return sparse_empty(input.shape, dtype or input.dtype, device, requires_grad, input)
    return _like(input, None, dtype, device, requires_grad, memory_format)


def full_like(
    input: Tensor,
    fill_value,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    memory_format=None,
) -> Tensor:
    """``fill_value`` in the shape (and by default the dtype and memory layout) of
    ``input``; see :func:`zeros_like` for ``memory_format``.

    Examples::

        >>> torch.full_like(torch.zeros(2, dtype=torch.int64), 7)
        tensor([7, 7])
    """
    if sparse_like(input, layout, "full_like", (input,)):
        raise refuse_sparse("full_like", filling=layout is None)
    return _like(input, fill_value, dtype, device, requires_grad, memory_format)


def range(
    start=0,
    end=None,
    step=1,
    *,
    dtype=None,
    layout=None,
    device=None,  # noqa: A001
    requires_grad=False,
) -> Tensor:
    """Deprecated in PyTorch in favour of :func:`arange`: values from ``start`` to ``end``
    *inclusive*, ``step`` apart, with the default floating dtype.

    Examples::

        >>> torch.range(1, 3)  # doctest: +SKIP
        tensor([1., 2., 3.])
    """
    import warnings

    sparse = layout is not None and is_sparse_layout(
        layout, "range", _given(start, end, _unless_one(step))
    )
    warnings.warn(
        "torch.range is deprecated and will be removed in a future release because "
        "its behavior is inconsistent with Python's range builtin. Instead, use "
        "torch.arange, which produces values in [start, end).",
        UserWarning,
        stacklevel=2,
    )
    if sparse:  # refused after the warning, as in PyTorch
        raise refuse_sparse("range")
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    dtype = dtype or _dtype.get_default_dtype()
    count = int(np.floor((end - start) / step)) + 1
    values = start + step * np.arange(max(count, 0), dtype=np.float64)
    return _finish(values.astype(dtype.np_dtype), dtype, requires_grad, _check_device(device))


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_product(a, b, splitter):
    p = a * b
    ah = a * splitter
    ah = ah - (ah - a)
    bh = b * splitter
    bh = bh - (bh - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _round_to_odd_sum(a, b):
    """``a + b`` rounded to odd (truncated, last bit forced to 1 when inexact)."""
    s, err = _two_sum(a, b)
    bits = s.view(np.int64 if s.dtype == np.float64 else np.int32)
    even = (bits & 1) == 0
    fix = (err != 0) & even & np.isfinite(s)
    if fix.any():
        toward = np.where(err > 0, np.inf, -np.inf).astype(s.dtype)
        s = np.where(fix, np.nextafter(s, toward), s)
    return s


def _fused_multiply_add(a, b, c):
    """``a * b + c`` rounded once, in the dtype of the (float32/float64) arguments.

    PyTorch's CPU range kernels are compiled with floating-point contraction, so their
    ``start + step * i`` is one fused multiply-add; NumPy has no fma, so it is emulated
    exactly: the product split error-free (Dekker), the tail summed with rounding to odd,
    then one final rounding (Boldo and Melquiond).
    """
    dt = a.dtype
    if dt == np.float32:
        wide = a.astype(np.float64) * b.astype(np.float64)  # exact: 24 + 24 bits
        return _round_to_odd_sum(wide, c.astype(np.float64)).astype(np.float32)
    hi, lo = _two_product(a, b, dt.type(134217729.0))  # 2**27 + 1
    th, tl = _two_sum(c, hi)
    with np.errstate(invalid="ignore", over="ignore"):
        out = th + _round_to_odd_sum(tl, lo)
    plain = a * b + c
    return np.where(np.isfinite(out), out, plain)


def _linspace_values(start, end, steps: int, dtype) -> np.ndarray:
    """PyTorch's CPU linspace, bit for bit: the first half counted up from ``start`` and the
    second half down from ``end``, with ``step = (end - start) / (steps - 1)``, each point
    computed in the output dtype's arithmetic as one fused multiply-add."""
    np_dtype = dtype.np_dtype
    index = np.arange(steps, dtype=np.int64)
    halfway = steps // 2
    first = index < halfway
    count = np.where(first, index, steps - 1 - index)
    if dtype.is_complex:
        real_t = np.float32 if np_dtype == np.complex64 else np.float64
        parts = []
        for take in (np.real, np.imag):
            lo, hi = real_t(take(complex(start))), real_t(take(complex(end)))
            step = real_t(hi - lo) / real_t(steps - 1)
            parts.append(_linspace_real(lo, hi, step, count, first, real_t))
        return (parts[0] + 1j * parts[1]).astype(np_dtype)
    if not dtype.is_floating_point:
        lo = np_dtype.type(int(start)) if not isinstance(start, bool) else np_dtype.type(start)
        hi = np_dtype.type(int(end)) if not isinstance(end, bool) else np_dtype.type(end)
        lo, hi = np.float64(lo), np.float64(hi)
        step = (hi - lo) / np.float64(steps - 1)
        values = _linspace_real(lo, hi, step, count, first, np.float64)
        return np.trunc(values).astype(np_dtype)
    if np_dtype in (np.float32, np.float64):
        real_t = np_dtype.type
        lo, hi = real_t(start), real_t(end)
        step = real_t(hi - lo) / real_t(steps - 1)
        return _linspace_real(lo, hi, step, count, first, real_t)
    # float16 / bfloat16: every operation goes through float32 and rounds back to the
    # 16-bit type (no contraction across those conversions).
    h = np_dtype.type
    f = np.float32
    lo, hi = h(start), h(end)
    step = h(f(h(f(hi) - f(lo))) / f(h(steps - 1)))
    scaled = (f(step) * count.astype(np_dtype).astype(f)).astype(np_dtype).astype(f)
    values = np.where(first, f(lo) + scaled, f(hi) - scaled)
    return values.astype(np_dtype)


def _linspace_real(lo, hi, step, count, first, real_t) -> np.ndarray:
    n = count.astype(real_t)
    step_v = np.where(first, step, -step).astype(real_t)
    base = np.where(first, lo, hi).astype(real_t)
    return _fused_multiply_add(step_v, n, base)


def _spacing_args(name: str, start, end, steps, dtype, layout, device):
    """The checks of linspace/logspace; their result's dtype and (non-CPU) device."""
    if layout is not None and is_sparse_layout(layout, name, (start, end, steps)):
        raise refuse_sparse(name)
    device = _check_device(device)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return dtype or _dtype.get_default_dtype(), device


def linspace(
    start, end, steps, *, dtype=None, layout=None, device=None, requires_grad=False
) -> Tensor:
    """``steps`` values evenly spaced from ``start`` to ``end`` inclusive.

    Examples::

        >>> torch.linspace(0, 1, 5)
        tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
    dtype, device = _spacing_args("linspace", start, end, steps, dtype, layout, device)
    if steps == 1:
        return _finish(np.array([start], dtype=dtype.np_dtype), dtype, requires_grad, device)
    if steps == 0:
        return _finish(np.empty(0, dtype=dtype.np_dtype), dtype, requires_grad, device)
    return _finish(_linspace_values(start, end, steps, dtype), dtype, requires_grad, device)


def _c_pow(base: float, exponent: float) -> float:
    try:
        return math.pow(base, exponent)
    except (OverflowError, ValueError):
        with np.errstate(all="ignore"):
            return float(np.power(base, exponent))


def logspace(
    start,
    end,
    steps,
    base=10.0,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
) -> Tensor:
    """``base ** linspace(start, end, steps)``.

    As PyTorch: ``start``/``end`` are first cast to the output dtype, the exponents are then
    computed in its accumulation type (double for float32/float64/integers, float32 for the
    16-bit floats), from the start for the first half and from the end for the second, and
    the power is the C library's double-precision ``pow``, cast to the output dtype.
    """
    dtype, device = _spacing_args("logspace", start, end, steps, dtype, layout, device)
    np_dtype = dtype.np_dtype
    if steps == 0:
        return _finish(np.empty(0, dtype=np_dtype), dtype, requires_grad, device)
    index = np.arange(steps, dtype=np.int64)
    first = index < steps // 2
    count = np.where(first, index, steps - 1 - index)
    if dtype.is_complex:
        acc = np_dtype.type
        lo, hi = np_dtype.type(start), np_dtype.type(end)
    elif dtype.is_floating_point:
        acc = np.float32 if np_dtype.itemsize == 2 else np.float64
        lo, hi = np_dtype.type(start), np_dtype.type(end)
    else:
        acc = np.float64
        lo, hi = np_dtype.type(int(start)), np_dtype.type(int(end))
    span = acc(np_dtype.type(acc(hi) - acc(lo))) if dtype.is_floating_point else acc(hi) - acc(lo)
    step = span / acc(max(steps - 1, 1))
    scaled = step * count.astype(acc)
    exponents = np.where(first, acc(lo) + scaled, acc(hi) - scaled)
    if dtype.is_complex:
        values = np.power(np.complex128(base), exponents.astype(np.complex128))
    else:
        # math.pow is the C library's correctly rounded pow (NumPy's SIMD power is not).
        values = np.fromiter(
            map(_c_pow, itertools.repeat(float(base)), exponents.astype(np.float64).tolist()),
            dtype=np.float64,
            count=steps,
        )
    if not (dtype.is_floating_point or dtype.is_complex):
        values = np.trunc(values)
    elif np_dtype.itemsize == 2:
        values = values.astype(np.float32)  # a double reaches a 16-bit float through float
    return _finish(values.astype(np_dtype), dtype, requires_grad, device)


def eye(
    n: int, m: int | None = None, *, dtype=None, layout=None, device=None, requires_grad=False
) -> Tensor:
    """A 2-D tensor with ones on the diagonal and zeros elsewhere.

    Examples::

        >>> torch.eye(2, 3, dtype=torch.int64)
        tensor([[1, 0, 0],
                [0, 1, 0]])
    """
    if layout is not None and is_sparse_layout(layout, "eye", _given(n, m)):
        raise refuse_sparse("eye")
    device = _check_device(device)
    if n < 0 or (m is not None and m < 0):
        raise RuntimeError(f"n must be greater or equal to 0, got {min(n, m or 0)}")
    dtype = dtype or _dtype.get_default_dtype()
    if device is not None and not dtype._limited:  # made on the device: no host copy
        array = made_on(device, lambda xp: xp.eye(n, n if m is None else m, dtype=dtype.np_dtype))
        return _finish_device(array, dtype, requires_grad)
    return _finish(
        np.eye(n, n if m is None else m, dtype=dtype.np_dtype), dtype, requires_grad, device
    )


def empty_strided(
    size, stride, *, dtype=None, layout=None, device=None, requires_grad=False
) -> Tensor:
    """An uninitialised tensor with the given sizes and strides (in elements)."""
    from ._ops.views import strided_alias

    if layout is not None and is_sparse_layout(layout, "empty_strided", (size, stride)):
        raise refuse_sparse("empty_strided")
    device = _check_device(device)
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    dtype = dtype or _dtype.get_default_dtype()
    extent = 0 if 0 in size else sum((n - 1) * s for n, s in zip(size, stride)) + 1
    holder = Tensor._from_array(np.empty(extent, dtype=dtype.np_dtype), dtype)
    return _finish_view(strided_alias(holder, size, stride, 0), requires_grad, device)


def _finish_view(result: Tensor, requires_grad: bool, device=None) -> Tensor:
    result._base = None
    if device is not None:
        place_fresh(result, device)
    if requires_grad:
        result.requires_grad_(True)
    return result


def _given(*args) -> tuple:
    """The positional arguments a call passed (those left at ``None`` dropped), for error
    messages that describe the call."""
    return tuple(a for a in args if a is not None)


def _unless_one(step):
    return None if step == 1 else step
