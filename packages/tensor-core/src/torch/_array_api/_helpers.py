"""Shared by the array API namespace: arrays in and out, the standard's dtype rules.

The namespace computes on the NumPy arrays that hold CPU tensors, so every dtype the
standard names (uint16/32/64 included, which PyTorch's own kernels mostly refuse) works
with the standard's semantics. Where an input requires grad, functions that have a
PyTorch op of the same meaning call that op instead, so gradients flow."""

from __future__ import annotations

import numpy as np

from .. import _dtype, _grad_mode
from .._device import device as _device_cls
from .._tensor import Tensor

CPU = _device_cls("cpu")

# ------------------------------------------------------------------- dtypes

BOOL = _dtype.bool_
SIGNED = (_dtype.int8, _dtype.int16, _dtype.int32, _dtype.int64)
UNSIGNED = (_dtype.uint8, _dtype.uint16, _dtype.uint32, _dtype.uint64)
INTEGRAL = SIGNED + UNSIGNED
REAL_FLOATING = (_dtype.float32, _dtype.float64)
COMPLEX_FLOATING = (_dtype.complex64, _dtype.complex128)
NUMERIC = INTEGRAL + REAL_FLOATING + COMPLEX_FLOATING
#: the standard's data type kinds (``isdtype``, ``info.dtypes(kind=...)``)
KINDS = {
    "bool": (BOOL,),
    "signed integer": SIGNED,
    "unsigned integer": UNSIGNED,
    "integral": INTEGRAL,
    "real floating": REAL_FLOATING,
    "complex floating": COMPLEX_FLOATING,
    "numeric": NUMERIC,
}
ALL = (BOOL,) + NUMERIC


def default_float():
    """The default real floating dtype (PyTorch's default dtype when it is float32 or
    float64, else float32)."""
    d = _dtype.get_default_dtype()
    return d if d in REAL_FLOATING else _dtype.float32


def default_complex():
    return _dtype.complex128 if default_float() is _dtype.float64 else _dtype.complex64


def check_dtype(dtype):
    """``dtype`` when the standard names it (None passes through), else TypeError."""
    if dtype is None or dtype in ALL:
        return dtype
    raise TypeError(f"{dtype!r} is not a data type of the array API standard")


def np_dtype(dtype):
    return None if dtype is None else check_dtype(dtype).np_dtype


# The standard's promotion lattice: same-kind pairs only (mixed kinds are not defined).
def _bits(d):
    return d.itemsize * 8


def promote(a, b):
    """The standard's result dtype of ``a`` and ``b``; TypeError where it defines none."""
    if a is b:
        return a
    if a in INTEGRAL and b in INTEGRAL:
        if (a in SIGNED) == (b in SIGNED):
            return a if _bits(a) >= _bits(b) else b
        signed, unsigned = (a, b) if a in SIGNED else (b, a)
        if _bits(signed) > _bits(unsigned):
            return signed
        wider = {8: _dtype.int16, 16: _dtype.int32, 32: _dtype.int64}.get(_bits(unsigned))
        if wider is not None:
            return wider
    inexact = REAL_FLOATING + COMPLEX_FLOATING
    if a in inexact and b in inexact:
        bits = max(_bits(a.to_real()), _bits(b.to_real()))
        real = _dtype.float64 if bits == 64 else _dtype.float32
        return real.to_complex() if (a.is_complex or b.is_complex) else real
    raise TypeError(f"{a} and {b} cannot be type promoted together")


# ------------------------------------------------------------------- arrays


def is_array(x) -> bool:
    return isinstance(x, Tensor)


def array(x, name: str = "x") -> np.ndarray:
    """The NumPy array of tensor ``x`` (CPU only)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{name} must be an array (a torch.Tensor), not {type(x).__name__}")
    if x._device.type != "cpu":
        raise RuntimeError(
            f"the array API namespace of torch-core computes on CPU tensors; got one on "
            f"{x._device}: move it with .cpu() first"
        )
    return x._np


def operand(x, like=None):
    """``x`` as a NumPy operand: a tensor's array, or a Python scalar as is (NumPy 2
    converts it to the array's dtype, as the standard asks)."""
    if isinstance(x, Tensor):
        return array(x)
    if isinstance(x, (bool, int, float, complex)):
        return x
    raise TypeError(f"expected an array or a Python scalar, got {type(x).__name__}")


def wrap(result) -> Tensor:
    """A fresh NumPy result (or NumPy scalar) as a tensor."""
    result = np.asarray(result)
    if result.dtype == np.float16 or result.dtype.kind not in "biufc":
        raise TypeError(f"result of unsupported dtype {result.dtype}")
    return Tensor._from_array(result, _dtype.from_numpy_dtype(result.dtype))


def wrap_view(base: Tensor, result: np.ndarray) -> Tensor:
    """``result`` as a tensor that shares ``base``'s storage when it views it."""
    if np.may_share_memory(result, base._np):
        return base._alias(result)
    return wrap(result)


def needs_grad(*xs) -> bool:
    """Whether grad mode is on and a tensor among ``xs`` requires grad."""
    if not _grad_mode._state.enabled:
        return False
    return any(isinstance(x, Tensor) and x._requires_grad for x in xs)


def check_device(device) -> None:
    """The standard's ``device=`` argument: this namespace has the CPU only."""
    if device is None:
        return
    name = device.type if isinstance(device, _device_cls) else str(device)
    if name not in ("cpu", "cpu:0"):
        raise ValueError(f"unsupported device {device!r}: this namespace computes on the CPU")


def errstate():
    """NumPy warnings off: the standard defines results (inf, nan), not warnings."""
    return np.errstate(all="ignore")
