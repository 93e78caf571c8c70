"""The standard's creation functions and data type functions."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

import torch

from .. import _dtype
from ._helpers import (
    BOOL,
    COMPLEX_FLOATING,
    INTEGRAL,
    KINDS,
    NUMERIC,
    REAL_FLOATING,
    SIGNED,
    array,
    check_device,
    check_dtype,
    default_complex,
    default_float,
    np_dtype,
    promote,
    wrap,
)

__all__ = [
    "arange",
    "asarray",
    "empty",
    "empty_like",
    "eye",
    "from_dlpack",
    "full",
    "full_like",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
    "astype",
    "can_cast",
    "finfo",
    "iinfo",
    "isdtype",
    "result_type",
]


def _shape(shape) -> tuple:
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _scalar_dtype(value):
    """The dtype the standard gives a Python scalar (the defaults of its kind)."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return _dtype.int64
    if isinstance(value, float):
        return default_float()
    if isinstance(value, complex):
        return default_complex()
    raise TypeError(f"expected a Python scalar, got {type(value).__name__}")


def _nested_dtype(obj):
    """The default dtype of nested sequences of Python scalars (and arrays): complex,
    else floating, else integer, else bool."""
    kinds = set()

    def visit(x):
        if isinstance(x, (list, tuple)):
            for item in x:
                visit(item)
        else:
            kinds.add(x.dtype if isinstance(x, torch.Tensor) else _scalar_dtype(x))

    visit(obj)
    if len(kinds) == 1:
        return kinds.pop()
    if any(k.is_complex for k in kinds):
        return default_complex()
    if any(k.is_floating_point for k in kinds):
        return default_float()
    return BOOL if kinds and all(k is BOOL for k in kinds) else _dtype.int64


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """An array from ``obj`` (an array, a NumPy array or buffer, a Python scalar or
    nested sequences of them). ``copy=True`` always copies, ``copy=False`` never does
    (ValueError when a copy would be needed), ``None`` copies only when it must."""
    check_device(device)
    check_dtype(dtype)
    if isinstance(obj, torch.Tensor):
        source = array(obj, "obj")
        if dtype is None or dtype is obj.dtype:
            if copy:
                return wrap(source.copy())
            return obj
        if copy is False:
            raise ValueError("asarray(copy=False): converting the dtype needs a copy")
        return wrap(source.astype(dtype.np_dtype))
    if isinstance(obj, np.ndarray) or hasattr(obj, "__array_interface__") or _is_buffer(obj):
        source = np.asarray(obj)
        target = dtype.np_dtype if dtype is not None else source.dtype
        if copy is False:
            if target != source.dtype:
                raise ValueError("asarray(copy=False): converting the dtype needs a copy")
            return torch.from_numpy(source) if source.flags.writeable else wrap(source)
        result = source.astype(target, copy=bool(copy) or target != source.dtype)
        if copy is None and np.shares_memory(result, source) and result.flags.writeable:
            return torch.from_numpy(result)
        return wrap(np.array(result, copy=True) if not result.flags.owndata else result)
    if copy is False:
        raise ValueError("asarray(copy=False): a Python object always needs a copy")
    target = dtype or _nested_dtype(obj)
    values = _plain(obj)
    if target in INTEGRAL:
        _check_integers_fit(values, target)
    with np.errstate(all="ignore"):
        return wrap(np.array(values, dtype=target.np_dtype))


def _plain(obj):
    """Nested sequences with tensors replaced by their NumPy arrays."""
    if isinstance(obj, torch.Tensor):
        return array(obj, "obj")
    if isinstance(obj, (list, tuple)):
        return [_plain(x) for x in obj]
    return obj


def _is_buffer(obj) -> bool:
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def _check_integers_fit(values, dtype) -> None:
    info = np.iinfo(dtype.np_dtype)

    def visit(x):
        if isinstance(x, (list, tuple)):
            for item in x:
                visit(item)
        elif isinstance(x, int) and not isinstance(x, bool) and not info.min <= x <= info.max:
            raise OverflowError(f"Python int {x} does not fit in {dtype}")

    visit(values)


def _filled(shape, value, dtype, device):
    check_device(device)
    check_dtype(dtype)
    if dtype is None:
        dtype = _scalar_dtype(value) if value is not None else default_float()
    if value is None:
        return wrap(np.empty(_shape(shape), dtype.np_dtype))
    with np.errstate(all="ignore"):
        return wrap(np.full(_shape(shape), value, dtype.np_dtype))


def empty(shape, *, dtype=None, device=None):
    """An uninitialised array of ``shape``."""
    return _filled(shape, None, dtype, device)


def zeros(shape, *, dtype=None, device=None):
    """An array of ``shape`` filled with zeros (default dtype: default real floating)."""
    return _filled(shape, 0.0 if dtype is None else 0, dtype, device)


def ones(shape, *, dtype=None, device=None):
    """An array of ``shape`` filled with ones."""
    return _filled(shape, 1.0 if dtype is None else 1, dtype, device)


def full(shape, fill_value, *, dtype=None, device=None):
    """An array of ``shape`` filled with ``fill_value`` (dtype inferred from its kind)."""
    return _filled(shape, fill_value, dtype, device)


def _like(x, value, dtype, device):
    check_device(device)
    return _filled(array(x).shape, value, dtype or x.dtype, device)


def empty_like(x, /, *, dtype=None, device=None):
    """An uninitialised array shaped like ``x`` (default: ``x``'s dtype)."""
    return _like(x, None, dtype, device)


def zeros_like(x, /, *, dtype=None, device=None):
    """Zeros shaped like ``x``."""
    return _like(x, 0, dtype, device)


def ones_like(x, /, *, dtype=None, device=None):
    """Ones shaped like ``x``."""
    return _like(x, 1, dtype, device)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    """``fill_value`` in an array shaped like ``x``."""
    return _like(x, fill_value, dtype, device)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Evenly spaced values in ``[start, stop)`` (``[0, start)`` without ``stop``)."""
    check_device(device)
    check_dtype(dtype)
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        integral = all(isinstance(v, int) for v in (start, stop, step))
        dtype = _dtype.int64 if integral else default_float()
    length = max(0, math.ceil((stop - start) / step))
    if dtype in INTEGRAL:
        values = start + step * np.arange(length, dtype=np.int64 if dtype in SIGNED else np.uint64)
        return wrap(values.astype(dtype.np_dtype))
    return wrap((start + step * np.arange(length, dtype=np.float64)).astype(dtype.np_dtype))


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """A 2-D array with ones on diagonal ``k`` and zeros elsewhere."""
    check_device(device)
    return wrap(np.eye(n_rows, n_cols, k=k, dtype=np_dtype(check_dtype(dtype) or default_float())))


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    """``num`` evenly spaced values from ``start`` to ``stop`` (inclusive by default)."""
    check_device(device)
    check_dtype(dtype)
    if dtype is None:
        complex_ = isinstance(start, complex) or isinstance(stop, complex)
        dtype = default_complex() if complex_ else default_float()
    return wrap(np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype.np_dtype))


def meshgrid(*arrays, indexing="xy"):
    """Coordinate matrices from 1-D arrays (``indexing`` ``'xy'`` or ``'ij'``)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', got {indexing!r}")
    grids = np.meshgrid(*(array(a) for a in arrays), indexing=indexing)
    return [wrap(np.ascontiguousarray(g)) for g in grids]


def tril(x, /, *, k=0):
    """``x`` (a stack of matrices) with the elements above diagonal ``k`` zeroed."""
    if x.ndim < 2:
        raise ValueError("tril needs an array of at least 2 dimensions")
    return wrap(np.tril(array(x), k))


def triu(x, /, *, k=0):
    """``x`` (a stack of matrices) with the elements below diagonal ``k`` zeroed."""
    if x.ndim < 2:
        raise ValueError("triu needs an array of at least 2 dimensions")
    return wrap(np.triu(array(x), k))


def from_dlpack(x, /, *, device=None, copy=None):
    """An array from any object with ``__dlpack__`` (sharing memory unless ``copy``)."""
    check_device(device)
    if copy is True:
        return wrap(np.array(np.from_dlpack(x), copy=True))
    if isinstance(x, torch.Tensor):
        return x
    return torch.from_dlpack(x)


# ------------------------------------------------------------- data type functions


def astype(x, dtype, /, *, copy=True, device=None):
    """``x`` converted to ``dtype``; with ``copy=False`` ``x`` itself when its dtype is
    already ``dtype``."""
    check_device(device)
    check_dtype(dtype)
    if dtype is x.dtype and not copy:
        return x
    if x.dtype.is_complex and not dtype.is_complex:
        raise TypeError("astype: casting a complex array to a real dtype is not defined")
    with np.errstate(all="ignore"):
        return wrap(array(x).astype(dtype.np_dtype))


def _as_dtype(x):
    return x.dtype if isinstance(x, torch.Tensor) else check_dtype(x)


def can_cast(from_, to, /):
    """Whether the standard's promotion rules allow ``from_`` (a dtype or an array) to
    become ``to`` without losing values."""
    source = _as_dtype(from_)
    check_dtype(to)
    if source is BOOL or to is BOOL:
        return source is to
    try:
        return promote(source, to) is to
    except TypeError:
        return False


def result_type(*arrays_and_dtypes):
    """The dtype the standard gives an operation on these arrays, dtypes and Python
    scalars (scalars take the kind of the arrays)."""
    dtypes = [_as_dtype(x) for x in arrays_and_dtypes if not _is_python_scalar(x)]
    scalars = [x for x in arrays_and_dtypes if _is_python_scalar(x)]
    if not dtypes:
        raise ValueError("result_type needs at least one array or dtype")
    result = dtypes[0]
    for d in dtypes[1:]:
        result = promote(result, d)
    for s in scalars:
        _check_scalar_kind(s, result)
    return result


def _is_python_scalar(x) -> bool:
    return isinstance(x, (bool, int, float, complex))


def _check_scalar_kind(scalar, dtype) -> None:
    if isinstance(scalar, bool):
        ok = True
    elif isinstance(scalar, int):
        ok = dtype in NUMERIC
    elif isinstance(scalar, float):
        ok = dtype in REAL_FLOATING + COMPLEX_FLOATING
    else:
        ok = dtype in COMPLEX_FLOATING
    if not ok:
        raise TypeError(f"a Python {type(scalar).__name__} cannot promote with {dtype}")


def isdtype(dtype, kind):
    """Whether ``dtype`` is ``kind``: a dtype, a kind name (``'integral'``, ...) or a
    tuple of them."""
    check_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        if kind not in KINDS:
            raise ValueError(f"unknown data type kind {kind!r}")
        return dtype in KINDS[kind]
    return dtype is check_dtype(kind)


class finfo_object(NamedTuple):
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: object


class iinfo_object(NamedTuple):
    bits: int
    max: int
    min: int
    dtype: object


def finfo(type, /):  # noqa: A002 - the standard's name
    """Limits of a floating dtype (or an array's); complex dtypes give their real part's."""
    dtype = _as_dtype(type)
    if dtype not in REAL_FLOATING + COMPLEX_FLOATING:
        raise ValueError(f"finfo needs a floating dtype, got {dtype}")
    real = dtype.to_real()
    info = np.finfo(real.np_dtype)
    return finfo_object(
        info.bits,
        float(info.eps),
        float(info.max),
        float(info.min),
        float(info.smallest_normal),
        real,
    )


def iinfo(type, /):  # noqa: A002 - the standard's name
    """Limits of an integer dtype (or an array's)."""
    dtype = _as_dtype(type)
    if dtype not in INTEGRAL:
        raise ValueError(f"iinfo needs an integer dtype, got {dtype}")
    info = np.iinfo(dtype.np_dtype)
    return iinfo_object(info.bits, int(info.max), int(info.min), dtype)
