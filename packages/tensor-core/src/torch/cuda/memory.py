"""torch.cuda.memory: the CUDA caching allocator's statistics and controls.

With a CUDA runtime the numbers come from it (CuPy's memory pool, or the simulated
devices' accounting). Without one, the statistics are empty and the counters 0, and the
calls that need a device fail, as in PyTorch's CPU build.
"""

from __future__ import annotations

import collections as _collections
import contextlib as _contextlib
import warnings as _warnings

from . import _state
from ._facade import dummy_base_error as _dummy_base_error

__all__ = [
    "caching_allocator_alloc",
    "caching_allocator_delete",
    "caching_allocator_enable",
    "caching_allocator_disabled",
    "get_per_process_memory_fraction",
    "set_per_process_memory_fraction",
    "empty_cache",
    "memory_stats",
    "memory_stats_as_nested_dict",
    "reset_accumulated_memory_stats",
    "reset_peak_memory_stats",
    "reset_max_memory_allocated",
    "reset_max_memory_cached",
    "host_memory_stats",
    "host_memory_stats_as_nested_dict",
    "reset_accumulated_host_memory_stats",
    "reset_peak_host_memory_stats",
    "memory_allocated",
    "max_memory_allocated",
    "memory_reserved",
    "max_memory_reserved",
    "memory_cached",
    "max_memory_cached",
    "memory_snapshot",
    "memory_summary",
    "list_gpu_processes",
    "mem_get_info",
    "get_allocator_backend",
    "CUDAPluggableAllocator",
    "change_current_allocator",
    "MemPool",
    "use_mem_pool",
    "is_initialized",
]

_allocator = {"enabled": True}


def is_initialized() -> bool:
    """Whether CUDA has been initialised in this process."""
    return _state.is_initialized()


def _active() -> bool:
    # the runtime's counters start at 0, so asking it before first use matches PyTorch's
    # "not initialised yet: empty statistics"
    return _state.runtime() is not None


def _index(device):
    return _state.device_index(device, optional=True)


def caching_allocator_alloc(size, device=None, stream=None):
    """Allocate ``size`` bytes from the caching allocator; returns the device pointer."""
    rt = _state.lazy_init()
    return _state.runtime_method(rt, "caching_allocator_alloc")(size, _index(device), stream)


def caching_allocator_delete(mem_ptr):
    """Give memory from :func:`caching_allocator_alloc` back to the allocator."""
    rt = _state.runtime()
    if rt is None:
        raise _state.missing_binding("_cuda_cudaCachingAllocator_raw_delete")
    _state.runtime_method(rt, "caching_allocator_delete")(mem_ptr)


def caching_allocator_enable(value: bool = True) -> None:
    """Turn the caching allocator on or off (off: every free goes back to the driver)."""
    if _active():
        _allocator["enabled"] = value
        method = getattr(_state.runtime(), "caching_allocator_enable", None)
        if method is not None:
            method(value)


@_contextlib.contextmanager
def caching_allocator_disabled():
    """Turn the caching allocator off inside a ``with`` block."""
    if _state.runtime() is None:
        raise _state.missing_binding("_cuda_cudaCachingAllocator_is_enabled")
    previous = _allocator["enabled"]
    caching_allocator_enable(False)
    try:
        yield
    finally:
        caching_allocator_enable(previous)


def set_per_process_memory_fraction(fraction, device=None) -> None:
    """Cap this process's memory on ``device`` at ``fraction`` (0 to 1) of the total."""
    rt = _state.lazy_init()
    index = _index(device)
    if not isinstance(fraction, float):
        raise TypeError("Invalid type for fraction argument, must be `float`")
    if fraction < 0 or fraction > 1:
        raise ValueError(f"Invalid fraction value: {fraction}. Allowed range: 0~1")
    _state.runtime_method(rt, "set_per_process_memory_fraction")(fraction, index)


def get_per_process_memory_fraction(device=None) -> float:
    """The memory fraction set by :func:`set_per_process_memory_fraction` (default 1.0)."""
    rt = _state.lazy_init()
    return _state.runtime_method(rt, "get_per_process_memory_fraction")(_index(device))


def empty_cache() -> None:
    """Release the cached, unused device memory back to the driver (does nothing without
    CUDA).

    Examples::

        >>> import torch
        >>> torch.cuda.empty_cache()
    """
    if _active():
        _state.runtime().empty_cache()


def memory_stats(device=None) -> dict:
    """The allocator's statistics for ``device``, flat (``"allocated_bytes.all.current"``,
    ...) and sorted; empty without CUDA."""
    if not _active():
        return _collections.OrderedDict()
    stats = _state.runtime().memory_stats(_index(device))
    return _collections.OrderedDict(sorted(stats.items()))


def memory_stats_as_nested_dict(device=None) -> dict:
    """:func:`memory_stats` nested at each dot of its keys."""
    if not _active():
        return {}
    return _nest(_state.runtime().memory_stats(_index(device)))


def _nest(flat: dict) -> dict:
    nested: dict = {}
    for key, value in flat.items():
        *path, leaf = key.split(".")
        node = nested
        for part in path:
            node = node.setdefault(part, {})
        node[leaf] = value
    return nested


def _reset(binding: str, method: str, device=None) -> None:
    rt = _state.runtime()
    if rt is None:
        raise _state.missing_binding(binding)
    _state.runtime_method(rt, method)(_index(device))


def reset_accumulated_memory_stats(device=None) -> None:
    """Zero the allocator's cumulative counters (allocation and free counts, ...)."""
    _reset("_cuda_resetAccumulatedMemoryStats", "reset_accumulated_memory_stats", device)


def reset_peak_memory_stats(device=None) -> None:
    """Reset the peaks (``max_memory_allocated``, ...) to the current values."""
    _reset("_cuda_resetPeakMemoryStats", "reset_peak_memory_stats", device)


def _warn_deprecated(message: str) -> None:
    """The FutureWarning of a deprecated name, pointed at its caller's caller."""
    _warnings.warn(message, FutureWarning, stacklevel=3)


#: the warning of the deprecated names that reset one peak (%s: the name)
_RESETS_ALL_PEAKS = (
    "torch.cuda.%s now calls torch.cuda.reset_peak_memory_stats, which resets /all/ peak "
    "memory stats."
)


def reset_max_memory_allocated(device=None) -> None:
    """Deprecated spelling of :func:`reset_peak_memory_stats`."""
    _warn_deprecated(_RESETS_ALL_PEAKS % "reset_max_memory_allocated")
    reset_peak_memory_stats(device)


def reset_max_memory_cached(device=None) -> None:
    """Deprecated spelling of :func:`reset_peak_memory_stats`."""
    _warn_deprecated(_RESETS_ALL_PEAKS % "reset_max_memory_cached")
    reset_peak_memory_stats(device)


def host_memory_stats() -> dict:
    """Statistics of the pinned host memory allocator, flat and sorted."""
    if not _active():
        return _collections.OrderedDict()
    stats = getattr(_state.runtime(), "host_memory_stats", lambda: {})()
    return _collections.OrderedDict(sorted(stats.items()))


def host_memory_stats_as_nested_dict() -> dict:
    """:func:`host_memory_stats` nested at each dot of its keys."""
    if not _active():
        return {}
    return _nest(getattr(_state.runtime(), "host_memory_stats", lambda: {})())


def reset_accumulated_host_memory_stats() -> None:
    """Zero the pinned host allocator's cumulative counters."""
    rt = _state.runtime()
    if rt is None:
        raise _state.missing_binding("_cuda_resetAccumulatedHostMemoryStats")
    _state.runtime_method(rt, "reset_accumulated_host_memory_stats")()


def reset_peak_host_memory_stats() -> None:
    """Reset the pinned host allocator's peaks."""
    rt = _state.runtime()
    if rt is None:
        raise _state.missing_binding("_cuda_resetPeakHostMemoryStats")
    _state.runtime_method(rt, "reset_peak_host_memory_stats")()


def _counter(name: str, device) -> int:
    if not _active():
        return 0
    return getattr(_state.runtime(), name)(_index(device))


def memory_allocated(device=None) -> int:
    """Bytes of device memory held by tensors on ``device`` (0 without CUDA).

    Examples::

        >>> import torch
        >>> torch.cuda.memory_allocated()
        0
    """
    return _counter("memory_allocated", device)


def max_memory_allocated(device=None) -> int:
    """The peak of :func:`memory_allocated` since start or the last reset."""
    return _counter("max_memory_allocated", device)


def memory_reserved(device=None) -> int:
    """Bytes of device memory the caching allocator holds (in use or cached)."""
    return _counter("memory_reserved", device)


def max_memory_reserved(device=None) -> int:
    """The peak of :func:`memory_reserved` since start or the last reset."""
    return _counter("max_memory_reserved", device)


def memory_cached(device=None) -> int:
    """Deprecated name of :func:`memory_reserved`."""
    _warn_deprecated("torch.cuda.memory_cached has been renamed to torch.cuda.memory_reserved")
    return memory_reserved(device)


def max_memory_cached(device=None) -> int:
    """Deprecated name of :func:`max_memory_reserved`."""
    _warn_deprecated(
        "torch.cuda.max_memory_cached has been renamed to torch.cuda.max_memory_reserved"
    )
    return max_memory_reserved(device)


def memory_snapshot(mempool_id=None, include_traces=True):
    """The allocator's segments and blocks, as a list of dicts."""
    rt = _state.runtime()
    if rt is None:
        raise _state.missing_binding("_cuda_memorySnapshot")
    return _state.runtime_method(rt, "memory_snapshot")()


_SUMMARY_ROWS = (
    ("Allocated memory", "allocated_bytes.all"),
    ("Active memory", "active_bytes.all"),
    ("Requested memory", "requested_bytes.all"),
    ("GPU reserved memory", "reserved_bytes.all"),
    ("Non-releasable memory", "inactive_split_bytes.all"),
    ("Allocations", "allocation.all"),
    ("Active allocs", "active.all"),
    ("GPU reserved segments", "segment.all"),
)


def memory_summary(device=None, abbreviated: bool = False) -> str:
    """A printable table of :func:`memory_stats` for ``device``: current, peak, allocated
    and freed totals of each statistic (this project's own layout)."""
    stats = memory_stats(device)
    if not stats:  # PyTorch's CPU build fails on the first statistic it looks up
        raise KeyError("allocated_bytes.all.current")
    lines = [f"CUDA memory summary, device ID {_index(device)}"]
    header = ("Metric", "Cur Usage", "Peak Usage", "Tot Alloc", "Tot Freed")
    lines.append(f"{header[0]:<24}" + "".join(f"{h:>14}" for h in header[1:]))
    for label, key in _SUMMARY_ROWS:
        parts = ("current", "peak", "allocated", "freed")
        values = [stats.get(f"{key}.{part}", 0) for part in parts]
        lines.append(f"{label:<24}" + "".join(f"{v:>14}" for v in values))
    retries, ooms = stats.get("num_alloc_retries", 0), stats.get("num_ooms", 0)
    lines.append(f"Allocation retries: {retries}, OOMs: {ooms}")
    return "\n".join(lines) + "\n"


def list_gpu_processes(device=None) -> str:
    """The processes using ``device`` and their memory, from NVIDIA's management library
    (the ``nvidia-ml-py`` package)."""
    try:
        import pynvml
    except ModuleNotFoundError:
        return "pynvml module not found, please install nvidia-ml-py"
    from . import _nvml_handle

    handle = _nvml_handle(pynvml, device)
    processes = pynvml.nvmlDeviceGetComputeRunningProcesses(handle)
    lines = [f"GPU:{_index(device)}"]
    if not processes:
        lines.append("no processes are running")
    for p in processes:
        megabytes = p.usedGpuMemory / (1024 * 1024)
        lines.append(f"process {p.pid:>10d} uses {megabytes:>12.3f} MB GPU memory")
    return "\n".join(lines)


def mem_get_info(device=None) -> tuple[int, int]:
    """``(free, total)`` bytes of ``device``'s memory as the driver reports them."""
    rt = _state.lazy_init()
    return rt.mem_get_info(_index(device))


def get_allocator_backend() -> str:
    """The allocator behind CUDA tensors (``"native"``: the runtime's caching pool)."""
    rt = _state.runtime()
    if rt is None:
        raise _state.missing_binding("_cuda_getAllocatorBackend")
    return getattr(rt, "allocator_backend", lambda: "native")()


class CUDAPluggableAllocator:
    """An allocator loaded from a shared library (``path_to_so_file`` with the named
    allocate and free functions). Not supported: the CUDA backend allocates through its
    runtime's pool."""

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str):
        import ctypes

        ctypes.CDLL(path_to_so_file)
        if _state.runtime() is None:
            raise _state.missing_binding("_cuda_customAllocator")
        raise NotImplementedError("pluggable CUDA allocators are not supported by this project")


def change_current_allocator(allocator) -> None:
    """Swap the CUDA allocator for a :class:`CUDAPluggableAllocator`; not supported."""
    if _state.runtime() is None:
        raise _state.missing_binding("_cuda_changeCurrentAllocator")
    raise NotImplementedError("pluggable CUDA allocators are not supported by this project")


class MemPool:
    """A private CUDA memory pool; not supported by this project's CUDA backend."""

    def __new__(cls, allocator=None, use_on_oom: bool = False, no_split: bool = False):
        if _state.runtime() is None:
            raise _dummy_base_error("MemPool")
        raise NotImplementedError("private CUDA memory pools are not supported by this project")


@_contextlib.contextmanager
def use_mem_pool(pool, device=None):
    """Route the allocations inside a ``with`` block to ``pool``; needs :class:`MemPool`."""
    _state.lazy_init()
    raise NotImplementedError("private CUDA memory pools are not supported by this project")
    yield  # pragma: no cover
