"""Simulated CUDA devices (``TORCH_CUDA_SIMULATE=N``): the cuda backend's code on host
memory, so that placement, copies, mixed-device errors, memory statistics, streams and
events, generators, the collectives and DataParallel are tested without a GPU.

A simulated device array is a :class:`SimulatedArray`: host memory (a NumPy array) tagged
with its device index, kept through views and results, as a ``cupy.ndarray`` knows its
device. NumPy stands in for CuPy as the array module, so the array-generic kernels run
unchanged; native host kernels run on the same memory and the dispatcher hands their
results back on the device. Each device counts its memory as PyTorch's caching allocator
reports it (``torch.cuda._memory``): a block is counted when its memory is first tagged,
and freed when the last array viewing it dies.

Kernels complete as they are issued (there is no queue), so every stream is idle and
every recorded event complete when asked; what is simulated of streams and events is
their bookkeeping (which device, which stream is current, what was recorded and waited
for, the timing between events) and their errors.
"""

from __future__ import annotations

import threading
import time
import weakref

import numpy as np

from torch._interface import backends

from . import _memory
from ._runtime import Runtime

__all__ = [
    "SimulatedArray",
    "SimulatedBackend",
    "StrictBackend",
    "SimulatedRuntime",
    "SimulatedProperties",
]

# id(root memory) -> (the counters of its device, bytes) of the blocks alive
_blocks: dict[int, tuple[_memory.MemoryCounters, int]] = {}
_blocks_lock = threading.Lock()
_counters: dict[int, _memory.MemoryCounters] = {}


def _root(array: np.ndarray) -> np.ndarray:
    """The array that owns the memory ``array`` views."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _release(key: int) -> None:
    with _blocks_lock:
        counters, nbytes = _blocks.pop(key, (None, 0))
    if counters is not None:
        counters.free(nbytes)


def _track(array: np.ndarray, index: int) -> None:
    """Count the memory under ``array`` on device ``index`` unless it is counted already."""
    root = _root(array)
    key = id(root)
    if key in _blocks:
        return
    nbytes = _memory.round_block(root.nbytes)
    counters = _counters.get(index)
    if counters is None or not nbytes:
        return
    with _blocks_lock:
        if key in _blocks:
            return
        _blocks[key] = (counters, nbytes)
    counters.allocate(nbytes)
    weakref.finalize(root, _release, key)


class SimulatedArray(np.ndarray):
    """Host memory that belongs to simulated CUDA device ``index``."""

    index = 0

    def __array_finalize__(self, obj) -> None:
        index = getattr(obj, "index", None)
        if index is None:
            return  # a host array being tagged: the backend sets the index and counts it
        self.index = index
        _track(self, index)  # a new result (NumPy allocates it untagged, then wraps)


class SimulatedBackend(backends.HostMemoryBackend):
    """Device type "cuda" on host memory; counts its host<->device transfers."""

    device_type = "cuda"
    array_class = SimulatedArray

    def __init__(self, runtime: SimulatedRuntime, count: int) -> None:
        from ._device_library import SimulatedLibrary

        self.runtime = runtime
        self.count = count
        self.library = SimulatedLibrary(self._tag)
        self.host_to_device = 0  # copies from the host
        self.device_to_host = 0
        self.device_to_device = 0

    def _tag(self, array: np.ndarray, index) -> SimulatedArray:
        tagged = super()._tag(array, index)
        _track(tagged, tagged.index)
        return tagged

    def _count_copy(self, kind: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)

    def current_index(self) -> int:
        """Where ``"cuda"`` without an index points: the thread's current device."""
        return self.runtime.current_device()

    def empty(self, shape, dtype, index):
        return self._tag(np.empty(shape, dtype), index)

    def from_host(self, array, index, copy=True):
        if copy:
            self.host_to_device += 1
            array = np.array(array, copy=True, order="C", subok=False)
        return self._tag(np.asarray(array), index)

    def adopt(self, array, index):
        if isinstance(array, SimulatedArray) and array.index == index:
            return array
        return self._tag(np.asarray(array), index)

    def synchronize(self, index=None) -> None:
        """Nothing is queued: simulated kernels finish as they are issued."""

    def current_stream(self, index=None):
        return self.runtime.current_stream(index)

    def default_generator(self, index=None):
        return self.runtime.generator(index)


class StrictBackend(SimulatedBackend):
    """Device type "cuda" on strict device arrays (``torch.cuda._strict.DeviceArray``):
    host memory that refuses implicit conversion to NumPy as ``cupy.ndarray`` does, so a
    kernel that would read device memory on the host fails here as it would on CuPy.
    Every transfer is counted, including the host results a kernel hands back
    (``adopt``: on CuPy a copy to the device)."""

    def __init__(self, runtime: SimulatedRuntime, count: int) -> None:
        from . import _strict
        from ._device_library import SimulatedLibrary

        self._strict = _strict
        self.array_module = _strict.xp
        super().__init__(runtime, count)
        self.library = SimulatedLibrary()
        self.device_to_device = 0

    # the counters are the strict arrays' (``.get()``, ``.item()`` count there too)
    host_to_device = property(
        lambda self: self._strict.transfers.host_to_device,
        lambda self, value: setattr(self._strict.transfers, "host_to_device", value),
    )
    device_to_host = property(
        lambda self: self._strict.transfers.device_to_host,
        lambda self, value: setattr(self._strict.transfers, "device_to_host", value),
    )

    scalar_reads = property(
        lambda self: self._strict.transfers.scalar_reads,
        lambda self, value: setattr(self._strict.transfers, "scalar_reads", value),
    )

    def owns(self, array) -> bool:
        return isinstance(array, self._strict.DeviceArray)

    def empty(self, shape, dtype, index):
        return self._strict.DeviceArray(np.empty(shape, dtype), 0 if index is None else index)

    def from_host(self, array, index, copy=True):
        self.host_to_device += 1  # always a transfer: device memory is not host memory
        host = np.array(array, copy=True, order="C", subok=False)
        return self._strict.DeviceArray(host, 0 if index is None else index)

    def to_host(self, array):
        return array.get()

    def to_device(self, array, index):
        self.device_to_device += 1
        return self._strict.DeviceArray(array._host.copy(order="C"), index)

    def adopt(self, array, index):
        if isinstance(array, self._strict.DeviceArray):
            return array if array.index == index else self.to_device(array, index)
        return self.from_host(array, index)

    def strided_view(self, buffer, shape, dtype, offset, strides):
        view = np.ndarray(shape, dtype, buffer._host, offset, strides)
        return self._strict.DeviceArray(view, buffer.index)

    def select(self, index: int) -> int:
        """Make device ``index`` current for the kernels (where ``xp.empty`` allocates, as
        ``cupy.cuda.Device(index)`` does); returns the previous one for :meth:`restore`."""
        transfers = self._strict.transfers
        previous, transfers.current_index = transfers.current_index, index
        return previous

    def restore(self, previous: int) -> None:
        self._strict.transfers.current_index = previous


class SimulatedProperties:
    """``torch.cuda.get_device_properties`` of a simulated device (an H100-like card)."""

    def __init__(self, index: int) -> None:
        self.name = "Simulated CUDA device (host memory)"
        self.major, self.minor = 9, 0
        self.total_memory = 80 * (1 << 30)
        self.multi_processor_count = 132
        self.is_integrated = False
        self.is_multi_gpu_board = False
        self.uuid = f"simulated-{index}"
        self.L2_cache_size = 50 * (1 << 20)
        self.warp_size = 32

    def __repr__(self) -> str:
        return (
            f"_CudaDeviceProperties(name='{self.name}', major={self.major}, "
            f"minor={self.minor}, total_memory={self.total_memory >> 20}MB, "
            f"multi_processor_count={self.multi_processor_count}, uuid={self.uuid}, "
            f"L2_cache_size={self.L2_cache_size >> 20}MB)"
        )


class SimulatedRuntime(Runtime):
    """``count`` simulated devices, registered as device type "cuda" on creation."""

    simulated = True
    array_type = SimulatedArray

    def __init__(self, count: int, host_kernels: bool = True) -> None:
        super().__init__()
        from . import _streams

        if count < 1:
            raise ValueError(f"a simulated runtime needs at least one device, got {count}")
        #: False: run the kernels of a backend whose memory the host cannot read (CuPy's:
        #: library kernels, else host round trips; ``torch.cuda._device_kernels``)
        self.host_kernels = host_kernels
        if host_kernels:
            self.array_type = SimulatedArray
            self.backend = SimulatedBackend(self, count)
        else:
            from ._strict import DeviceArray

            self.array_type = DeviceArray
            self.backend = StrictBackend(self, count)
        self.Stream, self.Event = _streams.simulated_classes(self)
        self._pinned: dict[int, int] = {}  # id(root of a pinned host buffer) -> bytes
        self.open()

    def open(self) -> None:
        for index in range(self.backend.count):
            _counters.setdefault(index, _memory.MemoryCounters())
        super().open()
        if not self.host_kernels:
            from . import _device_kernels, _strict

            _strict.transfers.track = _track
            _device_kernels.install()

    def close(self) -> None:
        if not self.host_kernels:
            from . import _device_kernels, _strict

            _device_kernels.uninstall()
            _strict.transfers.track = None
        super().close()
        _counters.clear()  # blocks alive past this point are no longer counted

    # -------------------------------------------------------------------- devices

    def device_properties(self, device=None) -> SimulatedProperties:
        return SimulatedProperties(self.index(device))

    # --------------------------------------------------------------------- memory

    def _counters(self, device=None) -> _memory.MemoryCounters:
        return _counters[self.index(device)]

    def memory_allocated(self, device=None) -> int:
        return self._counters(device).bytes.current

    def max_memory_allocated(self, device=None) -> int:
        return self._counters(device).bytes.peak

    def memory_reserved(self, device=None) -> int:
        return self._counters(device).reserved.current

    def max_memory_reserved(self, device=None) -> int:
        return self._counters(device).reserved.peak

    def memory_stats(self, device=None):
        return self._counters(device).stats()

    def reset_peak_memory_stats(self, device=None) -> None:
        self._counters(device).reset_peak()

    def reset_accumulated_memory_stats(self, device=None) -> None:
        self._counters(device).reset_totals()

    def empty_cache(self) -> None:
        for counters in _counters.values():
            counters.empty_cache()

    def mem_get_info(self, device=None) -> tuple[int, int]:
        total = self.device_properties(device).total_memory
        return total - self.memory_reserved(device), total

    # ----------------------------------------------------------------- pinned memory

    def pin(self, array: np.ndarray) -> np.ndarray:
        """A copy of host ``array`` in (simulated) page-locked memory."""
        pinned = np.array(array, copy=True, order="K", subok=False)
        key = id(pinned)
        self._pinned[key] = pinned.nbytes
        weakref.finalize(pinned, self._pinned.pop, key, None)
        return pinned

    def is_pinned(self, array: np.ndarray) -> bool:
        return id(_root(array)) in self._pinned

    # ------------------------------------------------------------------- collectives

    @property
    def nccl(self):
        from ._collectives import HostCollectives

        return HostCollectives(self)


def host_time() -> float:
    """Milliseconds on the host's monotonic clock (what simulated events time with)."""
    return time.perf_counter() * 1000.0
