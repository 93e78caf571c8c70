"""``torch.frombuffer``: a 1-D tensor over the memory of an object that exposes the
Python buffer protocol (``bytearray``, ``array.array``, ``memoryview``, ``mmap``, ...);
``torch.from_file``: a 1-D tensor over a memory-mapped file."""

from __future__ import annotations

import ctypes
import mmap
import os
import warnings

import numpy as np

from .._tensor import Tensor
from ._dispatch import defop

__all__ = ["frombuffer", "from_file"]

_WARNED_READ_ONLY = [False]


def _check_layout(total: int, itemsize: int, count: int, offset: int) -> int:
    """The element count to view, after PyTorch's checks of ``count`` and ``offset``."""
    if total <= 0 or count == 0:
        raise ValueError(f"both buffer length ({total}) and count ({count}) must not be 0")
    if offset < 0 or offset >= total:
        raise ValueError(
            f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
            f"({total} bytes) minus 1"
        )
    if count < 0:
        if (total - offset) % itemsize:
            raise ValueError(
                f"buffer length ({total - offset} bytes) after offset ({offset} bytes) must be "
                f"a multiple of element size ({itemsize})"
            )
        return (total - offset) // itemsize
    if offset + count * itemsize > total:
        raise ValueError(
            f"requested buffer length ({count} * {itemsize} bytes) after offset ({offset} "
            f"bytes) must not be greater than actual buffer length ({total} bytes)"
        )
    return count


def _writable(array: np.ndarray, owner) -> np.ndarray:
    """``array`` (over a read-only buffer) as a writable array over the same bytes, as
    PyTorch's tensors over such buffers are; the ctypes block keeps ``owner`` alive."""
    block = (ctypes.c_uint8 * array.nbytes).from_address(array.ctypes.data)
    block._owner = owner
    return np.frombuffer(block, dtype=array.dtype)


@defop("frombuffer")
def frombuffer(buffer, *, dtype, count: int = -1, offset: int = 0, requires_grad=False):
    """A 1-D tensor of ``dtype`` sharing memory with ``buffer``: ``count`` elements (all
    that fit by default) from byte ``offset``. Writes through the tensor change the
    buffer; a read-only buffer is written all the same (PyTorch warns once).

    Examples::

        >>> import array
        >>> a = array.array("i", [1, 2, 3])
        >>> t = torch.frombuffer(a, dtype=torch.int32)
        >>> t[0] = 7
        >>> a[0]
        7
    """
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    raw = view.cast("B") if view.ndim != 1 or view.format != "B" else view
    itemsize = np.dtype(dtype.np_dtype).itemsize
    count = _check_layout(raw.nbytes, itemsize, int(count), int(offset))
    if raw.readonly and not _WARNED_READ_ONLY[0]:
        _WARNED_READ_ONLY[0] = True
        warnings.warn(
            "The given buffer is not writable, and PyTorch does not support non-writable "
            "tensors. This means you can write to the underlying (supposedly non-writable) "
            "buffer using the tensor. You may want to copy the buffer to protect its data or "
            "make it writable before converting it to a tensor. This type of warning will be "
            "suppressed for the rest of this program.",
            UserWarning,
            stacklevel=2,
        )
    array = np.frombuffer(raw, dtype=dtype.np_dtype, count=count, offset=int(offset))
    if raw.readonly:
        array = _writable(array, buffer)
    result = Tensor._from_array(array, dtype)
    if requires_grad:
        result.requires_grad_(True)
    return result


def _mapped(filename: str, nbytes: int, shared: bool):
    """A memory map of the first ``nbytes`` of ``filename``: shared (writes reach the file,
    which is created or extended as needed) or private (copy on write)."""
    if shared:
        with open(filename, "a+b") as file:
            if os.fstat(file.fileno()).st_size < nbytes:
                file.truncate(nbytes)
            return mmap.mmap(file.fileno(), nbytes, mmap.MAP_SHARED)
    try:
        file = open(filename, "rb")  # noqa: SIM115 - closed below; the map outlives it
    except OSError as error:
        raise RuntimeError(
            f"unable to open file <{filename}> in read-only mode: {error.strerror} ({error.errno})"
        ) from None
    with file:
        size = os.fstat(file.fileno()).st_size
        if size < nbytes:
            raise RuntimeError(
                f"file <{filename}> size <{size}> is smaller than the required mapping size "
                f"<{nbytes}>"
            )
        return mmap.mmap(file.fileno(), nbytes, access=mmap.ACCESS_COPY)


@defop("from_file")
def from_file(
    filename,
    shared=None,
    size: int = 0,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory: bool = False,
):
    """A 1-D tensor of ``size`` elements of ``dtype`` (the default dtype) mapped from the
    file ``filename``. With ``shared`` the tensor's writes reach the file (created or
    extended to fit); otherwise the file must hold the bytes, and writes stay in memory.

    Examples::

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "t.bin")
        >>> torch.from_file(path, shared=True, size=3, dtype=torch.int16)
        tensor([0, 0, 0], dtype=torch.int16)
    """
    from .. import _dtype

    dtype = dtype or _dtype.get_default_dtype()
    nbytes = int(size) * np.dtype(dtype.np_dtype).itemsize
    filename = os.fspath(filename)
    if nbytes == 0:
        return Tensor._from_array(np.empty(0, dtype=dtype.np_dtype), dtype)
    mapping = _mapped(filename, nbytes, bool(shared))
    array = np.frombuffer(mapping, dtype=dtype.np_dtype, count=int(size))
    return Tensor._from_array(array, dtype)
