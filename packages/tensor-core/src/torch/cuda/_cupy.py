"""Real CUDA devices through CuPy (``pip install torch-core[cuda12]`` or ``[cuda13]``).

A device array is a ``cupy.ndarray``; CuPy's memory pool is the caching allocator (its
used and total bytes are ``memory_allocated`` and ``memory_reserved``; an allocator hook
keeps the peaks), each thread has a current device and a current stream per device
(``cupy.cuda.Stream`` objects, made current with ``with stream:`` semantics), events are
``cupy.cuda.Event``, pinned host memory comes from ``cupyx.empty_pinned`` and the
collectives run on NCCL through ``cupy.cuda.nccl``. Ops run on the device
(``torch.cuda._device_kernels``): core's array-generic kernels on CuPy arrays (cuBLAS for
the matrix products), library calls (``torch.cuda._device_library``: cuDNN, special
functions), and a host round trip for the few ops listed in ``HOST_ROUND_TRIP``.

Nothing here is imported unless CuPy is installed and ``torch.cuda`` is first used.
This module has not run on a GPU in this project's CI: ``nox -s gpu`` exercises it.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from torch._interface import backends

from ._runtime import Runtime, StreamOrdering, recording_stream

__all__ = ["probe", "CupyBackend", "CupyRuntime", "NcclCollectives"]


def probe():
    """A CuPy runtime when CuPy imports and sees at least one device, else None."""
    try:
        import cupy
    except Exception:  # noqa: BLE001 - a broken CUDA install means "no CUDA" here
        return None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception:  # noqa: BLE001 - no driver, no device
        return None
    return CupyRuntime(cupy, count) if count > 0 else None


class CupyBackend(backends.Backend):
    """Device type "cuda" on CuPy arrays."""

    device_type = "cuda"

    def __init__(self, runtime: CupyRuntime, cupy, count: int) -> None:
        from ._device_library import CupyLibrary

        self.runtime = runtime
        self.cupy = cupy
        self.array_module = cupy
        self.count = count
        self.library = CupyLibrary(cupy)

    def owns(self, array) -> bool:
        return isinstance(array, self.cupy.ndarray)

    def index_of(self, array) -> int:
        return array.device.id

    def device_count(self) -> int:
        return self.count

    def current_index(self) -> int:
        return self.runtime.current_device()

    def _stream(self, index):
        return self.runtime.current_stream(index).native

    def empty(self, shape, dtype, index):
        with self.cupy.cuda.Device(index or 0):
            return self.cupy.empty(shape, dtype)

    def from_host(self, array, index, copy=True):
        host = np.ascontiguousarray(array)
        with self.cupy.cuda.Device(index or 0):
            out = self.cupy.empty(host.shape, host.dtype)
            # asynchronous on the current stream when ``host`` is pinned memory
            out.set(host, stream=self._stream(index or 0))
            if not self.runtime.is_pinned(host):
                self._stream(index or 0).synchronize()
            return out

    def to_host(self, array):
        index = array.device.id
        with self.cupy.cuda.Device(index):
            return array.get(stream=self._stream(index), order="C")

    def to_device(self, array, index):
        with self.cupy.cuda.Device(index):
            return array.copy()  # a peer copy: CuPy copies into the current device

    def adopt(self, array, index):
        if isinstance(array, self.cupy.ndarray):
            return array if array.device.id == index else self.to_device(array, index)
        return self.from_host(array, index)

    def strided_view(self, buffer, shape, dtype, offset, strides):
        return self.cupy.ndarray(shape, dtype, buffer.data + offset, strides)

    def select(self, index: int) -> int:
        """Make device ``index`` current for the kernels (where CuPy allocates and
        launches); returns the previous one for :meth:`restore`."""
        runtime = self.cupy.cuda.runtime
        previous = runtime.getDevice()
        if previous != index:
            runtime.setDevice(index)
        return previous

    def restore(self, previous: int) -> None:
        runtime = self.cupy.cuda.runtime
        if runtime.getDevice() != previous:
            runtime.setDevice(previous)

    def synchronize(self, index=None) -> None:
        self.cupy.cuda.Device(0 if index is None else index).synchronize()

    def current_stream(self, index=None):
        return self.runtime.current_stream(index)

    def default_generator(self, index=None):
        return self.runtime.generator(index)


class _Properties:
    def __init__(self, cupy, index: int) -> None:
        props = cupy.cuda.runtime.getDeviceProperties(index)
        name = props["name"]
        self.name = name.decode() if isinstance(name, bytes) else str(name)
        self.major, self.minor = props["major"], props["minor"]
        self.total_memory = props["totalGlobalMem"]
        self.multi_processor_count = props["multiProcessorCount"]
        self.is_integrated = bool(props.get("integrated", 0))
        self.is_multi_gpu_board = bool(props.get("isMultiGpuBoard", 0))
        self.L2_cache_size = props.get("l2CacheSize", 0)
        self.warp_size = props.get("warpSize", 32)
        self.uuid = str(props.get("uuid", ""))

    def __repr__(self) -> str:
        return (
            f"_CudaDeviceProperties(name='{self.name}', major={self.major}, "
            f"minor={self.minor}, total_memory={self.total_memory >> 20}MB, "
            f"multi_processor_count={self.multi_processor_count})"
        )


class CupyRuntime(Runtime):
    """The CUDA devices CuPy sees."""

    simulated = False

    def __init__(self, cupy, count: int) -> None:
        super().__init__()
        from ._memory import MemoryCounters

        self.cupy = cupy
        self.array_type = cupy.ndarray
        self.backend = CupyBackend(self, cupy, count)
        self.Stream, self.Event = _stream_classes(self, cupy)
        self._pool = cupy.get_default_memory_pool()
        self._peaks = {i: MemoryCounters() for i in range(count)}
        self._pinned: dict[int, int] = {}
        self._pinned_lock = threading.Lock()
        cupy.cuda.set_allocator(self._allocate)
        self.open()

    def open(self) -> None:
        super().open()
        from . import _device_kernels

        _device_kernels.install()

    def close(self) -> None:
        from . import _device_kernels

        _device_kernels.uninstall()
        super().close()

    # ------------------------------------------------------------------- memory

    def _allocate(self, nbytes: int):
        """CuPy's allocator hook: the pool allocates, the peaks are kept here."""
        pointer = self._pool.malloc(nbytes)
        index = self.cupy.cuda.runtime.getDevice()
        peaks = self._peaks.get(index)
        if peaks is not None:
            with self.cupy.cuda.Device(index):
                used, total = self._pool.used_bytes(), self._pool.total_bytes()
            peaks.bytes.peak = max(peaks.bytes.peak, used)
            peaks.reserved.peak = max(peaks.reserved.peak, total)
        return pointer

    def _pool_bytes(self, device) -> tuple[int, int]:
        with self.cupy.cuda.Device(self.index(device)):
            return self._pool.used_bytes(), self._pool.total_bytes()

    def memory_allocated(self, device=None) -> int:
        return self._pool_bytes(device)[0]

    def max_memory_allocated(self, device=None) -> int:
        used = self._pool_bytes(device)[0]
        return max(self._peaks[self.index(device)].bytes.peak, used)

    def memory_reserved(self, device=None) -> int:
        return self._pool_bytes(device)[1]

    def max_memory_reserved(self, device=None) -> int:
        total = self._pool_bytes(device)[1]
        return max(self._peaks[self.index(device)].reserved.peak, total)

    def memory_stats(self, device=None):
        from collections import OrderedDict

        used, total = self._pool_bytes(device)
        peaks = self._peaks[self.index(device)]
        stats = {
            "allocated_bytes.all.current": used,
            "allocated_bytes.all.peak": max(peaks.bytes.peak, used),
            "reserved_bytes.all.current": total,
            "reserved_bytes.all.peak": max(peaks.reserved.peak, total),
            "num_alloc_retries": 0,
            "num_ooms": 0,
        }
        return OrderedDict(sorted(stats.items()))

    def reset_peak_memory_stats(self, device=None) -> None:
        used, total = self._pool_bytes(device)
        peaks = self._peaks[self.index(device)]
        peaks.bytes.peak, peaks.reserved.peak = used, total

    def reset_accumulated_memory_stats(self, device=None) -> None:
        self._peaks[self.index(device)].reset_totals()

    def empty_cache(self) -> None:
        self._pool.free_all_blocks()

    def mem_get_info(self, device=None) -> tuple[int, int]:
        with self.cupy.cuda.Device(self.index(device)):
            return self.cupy.cuda.runtime.memGetInfo()

    def device_properties(self, device=None):
        return _Properties(self.cupy, self.index(device))

    def set_device(self, device) -> None:
        super().set_device(device)
        self.cupy.cuda.Device(self.current_device()).use()

    # ------------------------------------------------------------------ pinned memory

    def pin(self, array: np.ndarray) -> np.ndarray:
        import cupyx

        pinned = cupyx.empty_pinned(array.shape, array.dtype)
        np.copyto(pinned, array)
        root = pinned.base if isinstance(pinned.base, np.ndarray) else pinned
        with self._pinned_lock:
            self._pinned[id(root)] = pinned.nbytes
        weakref.finalize(root, self._pinned.pop, id(root), None)
        return pinned

    def is_pinned(self, array: np.ndarray) -> bool:
        root = array
        while isinstance(root.base, np.ndarray):
            root = root.base
        return id(root) in self._pinned or id(array) in self._pinned

    # ------------------------------------------------------------------- collectives

    @property
    def nccl(self):
        return NcclCollectives(self)


def _stream_classes(runtime: CupyRuntime, cupy):
    """``(Stream, Event)`` wrapping ``cupy.cuda.Stream`` and ``cupy.cuda.Event``."""

    class Stream(StreamOrdering):
        def __init__(self, device=None, priority: int = 0, **kwargs) -> None:
            from torch import device as device_cls

            index = runtime.index(device)
            self.device = device_cls("cuda", index)
            self.priority = priority
            with cupy.cuda.Device(index):
                self.native = cupy.cuda.Stream(non_blocking=True, priority=priority)

        @classmethod
        def _default(cls, rt, index):
            stream = cls.__new__(cls)
            from torch import device as device_cls

            stream.device, stream.priority = device_cls("cuda", index), 0
            stream.native = cupy.cuda.Stream.null
            return stream

        device_index = property(lambda self: self.device.index)
        cuda_stream = property(lambda self: self.native.ptr)
        stream_id = property(lambda self: self.native.ptr)

        def query(self) -> bool:
            return self.native.done

        def synchronize(self) -> None:
            self.native.synchronize()

        def wait_event(self, event) -> None:
            if event.native is not None:
                self.native.wait_event(event.native)

        def __eq__(self, other) -> bool:
            return isinstance(other, Stream) and other.native.ptr == self.native.ptr

        def __hash__(self) -> int:
            return hash((self.native.ptr, self.device))

        def __repr__(self) -> str:
            return f"<torch.cuda.Stream device={self.device} cuda_stream={self.native.ptr:#x}>"

    class Event:
        def __init__(self, enable_timing=False, blocking=False, interprocess=False) -> None:
            self.enable_timing, self.blocking, self.interprocess = (
                enable_timing,
                blocking,
                interprocess,
            )
            self.native = None
            self.device = None

        def record(self, stream=None) -> None:
            stream = recording_stream(self, stream, runtime)
            if self.native is None:
                with cupy.cuda.Device(stream.device.index):
                    self.native = cupy.cuda.Event(
                        block=self.blocking,
                        disable_timing=not self.enable_timing,
                        interprocess=self.interprocess,
                    )
            self.device = stream.device
            self.native.record(stream.native)

        def wait(self, stream=None) -> None:
            (runtime.current_stream() if stream is None else stream).wait_event(self)

        def query(self) -> bool:
            return True if self.native is None else self.native.done

        def synchronize(self) -> None:
            if self.native is not None:
                self.native.synchronize()

        def elapsed_time(self, end_event) -> float:
            if not (self.enable_timing and end_event.enable_timing):
                raise RuntimeError(
                    "Both events must be created with argument 'enable_timing=True'."
                )
            if self.native is None or end_event.native is None:
                raise RuntimeError("Both events must be recorded before calculating elapsed time.")
            return cupy.cuda.get_elapsed_time(self.native, end_event.native)

        def ipc_handle(self):
            raise RuntimeError("CUDA event IPC handles are not supported by this backend yet")

        @property
        def cuda_event(self) -> int:
            return 0 if self.native is None else self.native.ptr

        def __repr__(self) -> str:
            if self.native is None:
                return "<torch.cuda.Event uninitialized>"
            return f"<torch.cuda.Event {self.native.ptr:#x}>"

    Stream.event_class = Event
    return Stream, Event


class NcclCollectives:
    """The collectives on NCCL through ``cupy.cuda.nccl`` (one communicator per set of
    devices, made on first use)."""

    simulated = False
    _DTYPES = {
        "float16": 6,
        "float32": 7,
        "float64": 8,
        "int8": 0,
        "uint8": 1,
        "int32": 2,
        "int64": 4,
        "bfloat16": 9,
    }

    def __init__(self, runtime: CupyRuntime) -> None:
        from cupy.cuda import nccl

        self.runtime, self.nccl = runtime, nccl
        self._comms: dict[tuple[int, ...], list] = {}

    def version(self):
        number = self.nccl.get_version()
        return (number // 10000, (number // 100) % 100, number % 100)

    def unique_id(self) -> bytes:
        return bytes(self.nccl.get_unique_id())

    def init_rank(self, num_ranks: int, uid, rank: int):
        return self.nccl.NcclCommunicator(num_ranks, tuple(uid), rank)

    def _communicators(self, tensors) -> list:
        devices = tuple(t.get_device() for t in tensors)
        comms = self._comms.get(devices)
        if comms is None:
            comms = self._comms[devices] = self.nccl.NcclCommunicator.initAll(list(devices))
        return comms

    def _dtype(self, tensor) -> int:
        try:
            return self._DTYPES[tensor.dtype.np_dtype.name]
        except (KeyError, AttributeError):
            raise TypeError(f"NCCL does not support tensors of dtype {tensor.dtype}") from None

    def _grouped(self, inputs, call) -> None:
        """``call(communicator, rank, tensor, ptr, dtype, stream)`` for each input tensor
        (``ptr``: its data, ``dtype``: NCCL's code, ``stream``: its device's current
        stream), all inside one NCCL group."""
        comms = self._communicators(inputs)
        self.nccl.groupStart()
        try:
            for rank, (comm, tensor) in enumerate(zip(comms, inputs)):
                ptr, stream = tensor._np.data.ptr, self._stream(tensor)
                call(comm, rank, tensor, ptr, self._dtype(tensor), stream)
        finally:
            self.nccl.groupEnd()

    def _stream(self, tensor) -> int:
        return self.runtime.current_stream(tensor.get_device()).native.ptr

    def all_reduce(self, inputs, outputs, op: int) -> None:
        self._grouped(
            inputs,
            lambda c, n, i, ptr, dtype, stream: c.allReduce(
                ptr, outputs[n]._np.data.ptr, i.numel(), dtype, op, stream
            ),
        )

    def reduce(self, inputs, output, root: int, op: int) -> None:
        self._grouped(
            inputs,
            lambda c, n, i, ptr, dtype, stream: c.reduce(
                ptr, output._np.data.ptr if n == root else ptr, i.numel(), dtype, op, root, stream
            ),
        )

    def broadcast(self, inputs, root: int) -> None:
        self._grouped(
            inputs,
            lambda c, n, i, ptr, dtype, stream: c.bcast(ptr, i.numel(), dtype, root, stream),
        )

    def all_gather(self, inputs, outputs) -> None:
        self._grouped(
            inputs,
            lambda c, n, i, ptr, dtype, stream: c.allGather(
                ptr, outputs[n]._np.data.ptr, i.numel(), dtype, stream
            ),
        )

    def reduce_scatter(self, inputs, outputs, op: int) -> None:
        self._grouped(
            inputs,
            lambda c, n, i, ptr, dtype, stream: c.reduceScatter(
                ptr, outputs[n]._np.data.ptr, outputs[n].numel(), dtype, op, stream
            ),
        )
