"""CUDA storages sent to another process (what ``torch._interface.sharing``'s
:func:`~torch._interface.sharing.share_device_storage` and
:func:`~torch._interface.sharing.device_storage_from` do for torch-multiprocessing).

- On CuPy: a CUDA IPC handle of the allocation holding the storage
  (``cupy.cuda.runtime.ipcGetMemHandle``), with the storage's byte offset in that
  allocation (the driver's ``cuMemGetAddressRange``) and the device index; the receiver
  opens it with ``ipcOpenMemHandle`` and views the same device memory. As with PyTorch,
  the sender must keep the tensor alive while the receiver uses it.
- On simulated devices: the storage's host memory moves into a shared-memory segment
  once (every tensor viewing it follows, as ``share_memory_`` on the CPU), and what
  travels is a CPU storage over that segment plus the device index; the receiver tags
  the same memory as its own simulated device's. The receiving process must have
  simulated devices too, at least as many as the sender's index needs
  (``TORCH_CUDA_SIMULATE=N`` with the same N).
"""

from __future__ import annotations

import ctypes
import gc

import numpy as np

from . import _runtime

__all__ = ["share", "open_shared"]


def _active():
    runtime = _runtime.get()
    if runtime is None:
        raise RuntimeError(
            "cannot receive a CUDA tensor: this process has no CUDA device (on simulated "
            "devices, start it with the sender's TORCH_CUDA_SIMULATE=N)"
        )
    return runtime


def share(storage) -> tuple:
    """A picklable description of the CUDA ``storage`` for :func:`open_shared` in another
    process (its CPU storage, if any, is pickled by the caller's storage reducer)."""
    runtime = _active()
    if runtime.simulated:
        return _share_simulated(runtime, storage)
    return _share_ipc(storage)


def open_shared(description):
    """The CUDA ``UntypedStorage`` that :func:`share` described, in this process."""
    runtime = _active()
    kind = description[0]
    index = description[2]
    if index >= runtime.device_count():
        raise RuntimeError(
            f"cannot receive a tensor on cuda:{index}: this process sees "
            f"{runtime.device_count()} CUDA device(s)"
        )
    if kind == "simulated":
        if not runtime.simulated:
            raise RuntimeError("a tensor of a simulated CUDA device cannot open on a real one")
        return _open_simulated(runtime, description[1], index)
    if runtime.simulated:
        raise RuntimeError("a CUDA IPC handle cannot be opened on simulated devices")
    return _open_ipc(description)


# ------------------------------------------------------------------ simulated devices


def _host_of(buffer) -> np.ndarray:
    host = getattr(buffer, "_host", None)  # a strict device array
    return host if host is not None else buffer.view(np.ndarray)


def _on_device(runtime, host: np.ndarray, index: int):
    backend = runtime.backend
    if hasattr(backend, "_strict"):
        return backend._strict.DeviceArray(host, index)
    return backend._tag(host, index)


def _share_simulated(runtime, storage) -> tuple:
    from .. import _shared_memory
    from .._storage import UntypedStorage
    from .._tensor import Tensor

    buffer = storage._buffer
    index = storage.device.index or 0
    host = _host_of(buffer)
    if _shared_memory.segment_of(host) is None:
        shared = _shared_memory.new_shared_buffer(host.nbytes, initial=np.ascontiguousarray(host))
        storage._buffer = _on_device(runtime, shared, index)
        for holder in gc.get_referrers(storage):  # rare: as CPU share_memory_ does
            if isinstance(holder, Tensor) and holder._storage_ is storage:
                _rebind(runtime, holder, host, shared, index)
        host = shared
    return ("simulated", UntypedStorage._wrap(host), index)


def _rebind(runtime, tensor, old: np.ndarray, new: np.ndarray, index: int) -> None:
    array = _host_of(tensor._np)
    offset = array.__array_interface__["data"][0] - old.__array_interface__["data"][0]
    if array.size == 0 or not old.nbytes:
        offset, new = 0, new[:0]
    view = np.ndarray(array.shape, array.dtype, new, offset, array.strides)
    tensor._np = _on_device(runtime, view, index)


def _open_simulated(runtime, host_storage, index: int):
    from .._device import device
    from .._storage import UntypedStorage

    buffer = _on_device(runtime, host_storage._buffer, index)
    return UntypedStorage._wrap(buffer, device("cuda", index))


# -------------------------------------------------------------------------- CuPy


def _allocation_of(pointer: int) -> tuple[int, int]:
    """(base, size) of the device allocation holding ``pointer`` (a memory pool hands out
    pieces of larger allocations; an IPC handle opens at the allocation's base)."""
    driver = ctypes.CDLL("libcuda.so.1")
    base, size = ctypes.c_uint64(), ctypes.c_size_t()
    status = driver.cuMemGetAddressRange_v2(
        ctypes.byref(base), ctypes.byref(size), ctypes.c_uint64(pointer)
    )
    if status != 0:
        raise RuntimeError(f"cuMemGetAddressRange failed with CUDA driver error {status}")
    return base.value, size.value


def _share_ipc(storage) -> tuple:
    import cupy

    buffer = storage._buffer
    pointer = buffer.data.ptr
    index = buffer.device.id
    with cupy.cuda.Device(index):
        base, size = _allocation_of(pointer)
        handle = cupy.cuda.runtime.ipcGetMemHandle(base)
    return ("ipc", bytes(handle), index, pointer - base, buffer.nbytes, size)


def _open_ipc(description):
    import cupy

    from .._device import device
    from .._storage import UntypedStorage

    _, handle, index, offset, nbytes, size = description
    with cupy.cuda.Device(index):
        base = cupy.cuda.runtime.ipcOpenMemHandle(handle)
        memory = cupy.cuda.UnownedMemory(base, size, owner=None, device_id=index)
        pointer = cupy.cuda.MemoryPointer(memory, offset)
        buffer = cupy.ndarray((nbytes,), dtype=cupy.uint8, memptr=pointer)
    return UntypedStorage._wrap(buffer, device("cuda", index))
