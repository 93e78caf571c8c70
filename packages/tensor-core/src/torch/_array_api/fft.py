"""The array API standard's ``fft`` extension (single precision stays single)."""

from __future__ import annotations

import numpy as np

from ._helpers import array, check_device, check_dtype, default_float, wrap

__all__ = [
    "fft",
    "ifft",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]


def _kept(result, x):
    """``result`` in the precision of ``x`` (NumPy computes in double for some)."""
    single = array(x).dtype in (np.float32, np.complex64)
    if single:
        result = result.astype(np.complex64 if result.dtype.kind == "c" else np.float32)
    return wrap(result)


def _one_dim(np_function, name):
    def function(x, /, *, n=None, axis=-1, norm="backward"):
        return _kept(np_function(array(x), n=n, axis=axis, norm=norm), x)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"The standard's ``fft.{name}`` along ``axis``."
    return function


def _n_dim(np_function, name):
    def function(x, /, *, s=None, axes=None, norm="backward"):
        return _kept(np_function(array(x), s=s, axes=axes, norm=norm), x)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"The standard's ``fft.{name}`` over ``axes``."
    return function


fft = _one_dim(np.fft.fft, "fft")
ifft = _one_dim(np.fft.ifft, "ifft")
rfft = _one_dim(np.fft.rfft, "rfft")
irfft = _one_dim(np.fft.irfft, "irfft")
hfft = _one_dim(np.fft.hfft, "hfft")
ihfft = _one_dim(np.fft.ihfft, "ihfft")
fftn = _n_dim(np.fft.fftn, "fftn")
ifftn = _n_dim(np.fft.ifftn, "ifftn")
rfftn = _n_dim(np.fft.rfftn, "rfftn")
irfftn = _n_dim(np.fft.irfftn, "irfftn")


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The sample frequencies of an ``n``-point FFT with sample spacing ``d``."""
    check_device(device)
    dtype = check_dtype(dtype) or default_float()
    return wrap(np.fft.fftfreq(n, d=d).astype(dtype.np_dtype))


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The non-negative sample frequencies of an ``n``-point real FFT."""
    check_device(device)
    dtype = check_dtype(dtype) or default_float()
    return wrap(np.fft.rfftfreq(n, d=d).astype(dtype.np_dtype))


def fftshift(x, /, *, axes=None):
    """``x`` with the zero-frequency term moved to the centre."""
    return wrap(np.fft.fftshift(array(x), axes=axes))


def ifftshift(x, /, *, axes=None):
    """The inverse of :func:`fftshift`."""
    return wrap(np.fft.ifftshift(array(x), axes=axes))
