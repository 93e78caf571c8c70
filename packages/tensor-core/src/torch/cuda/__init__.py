"""torch.cuda: CUDA devices, streams, memory and random number generators.

Every function asks the CUDA runtime (``torch.cuda._runtime.get()``: real GPUs through
CuPy, or simulated devices with ``TORCH_CUDA_SIMULATE=N``). When there is none, each
behaves as in PyTorch's CPU-only build: queries give harmless values
(``is_available()`` is ``False``, ``device_count()`` 0, memory counters 0, seeding does
nothing) and calls that need a device raise PyTorch's error, mostly
``AssertionError("Torch not compiled with CUDA enabled")``.

Examples::

    >>> import torch
    >>> device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    >>> torch.cuda.manual_seed_all(1)
    >>> torch.cuda.empty_cache()
"""

from __future__ import annotations

import importlib as _importlib

from . import _state
from ._legacy_types import make_storage_types as _make_storage_types
from ._legacy_types import make_tensor_types as _make_tensor_types
from .graphs import (
    CUDAGraph,
    graph,
    graph_pool_handle,
    is_current_stream_capturing,
    make_graphed_callables,
)
from .memory import (
    CUDAPluggableAllocator,
    MemPool,
    caching_allocator_alloc,
    caching_allocator_delete,
    caching_allocator_disabled,
    caching_allocator_enable,
    change_current_allocator,
    empty_cache,
    get_allocator_backend,
    get_per_process_memory_fraction,
    host_memory_stats,
    host_memory_stats_as_nested_dict,
    list_gpu_processes,
    max_memory_allocated,
    max_memory_cached,
    max_memory_reserved,
    mem_get_info,
    memory_allocated,
    memory_cached,
    memory_reserved,
    memory_snapshot,
    memory_stats,
    memory_stats_as_nested_dict,
    memory_summary,
    reset_accumulated_host_memory_stats,
    reset_accumulated_memory_stats,
    reset_max_memory_allocated,
    reset_max_memory_cached,
    reset_peak_host_memory_stats,
    reset_peak_memory_stats,
    set_per_process_memory_fraction,
    use_mem_pool,
)
from .random import (
    get_rng_state,
    get_rng_state_all,
    initial_seed,
    manual_seed,
    manual_seed_all,
    seed,
    seed_all,
    set_rng_state,
    set_rng_state_all,
)
from .streams import Event, ExternalStream, Stream

_LEGACY_TENSORS = _make_tensor_types("torch.cuda", sparse=False)
_LEGACY_STORAGES = _make_storage_types()
globals().update(_LEGACY_TENSORS)
globals().update(_LEGACY_STORAGES)

# submodules imported on first use (comm and nccl pull in the multi-GPU code, amp the
# autocast machinery)
_LAZY_SUBMODULES = (
    "amp",
    "comm",
    "gds",
    "green_contexts",
    "jiterator",
    "nccl",
    "nvtx",
    "profiler",
    "sparse",
    "tunable",
)

__all__ = (
    sorted(_LEGACY_TENSORS)
    + sorted(_LEGACY_STORAGES)
    + [
        "CUDAGraph",
        "CudaError",
        "DeferredCudaCallError",
        "Event",
        "ExternalStream",
        "Stream",
        "StreamContext",
        "GreenContext",
        "amp",
        "caching_allocator_alloc",
        "caching_allocator_delete",
        "caching_allocator_disabled",
        "caching_allocator_enable",
        "can_device_access_peer",
        "check_error",
        "cudaStatus",
        "cudart",
        "current_blas_handle",
        "current_solver_handle",
        "current_device",
        "current_stream",
        "default_generators",
        "default_stream",
        "device",
        "device_count",
        "device_memory_used",
        "device_of",
        "empty_cache",
        "get_allocator_backend",
        "CUDAPluggableAllocator",
        "change_current_allocator",
        "get_arch_list",
        "get_device_capability",
        "get_device_name",
        "get_device_properties",
        "get_gencode_flags",
        "get_per_process_memory_fraction",
        "get_rng_state",
        "get_rng_state_all",
        "get_stream_from_external",
        "get_sync_debug_mode",
        "graph",
        "graph_pool_handle",
        "graphs",
        "has_half",
        "has_magma",
        "host_memory_stats",
        "host_memory_stats_as_nested_dict",
        "init",
        "initial_seed",
        "ipc_collect",
        "is_available",
        "is_bf16_supported",
        "is_current_stream_capturing",
        "is_initialized",
        "is_tf32_supported",
        "jiterator",
        "list_gpu_processes",
        "make_graphed_callables",
        "manual_seed",
        "manual_seed_all",
        "max_memory_allocated",
        "max_memory_cached",
        "max_memory_reserved",
        "mem_get_info",
        "memory",
        "memory_allocated",
        "memory_cached",
        "memory_reserved",
        "memory_snapshot",
        "memory_stats",
        "memory_stats_as_nested_dict",
        "memory_summary",
        "memory_usage",
        "MemPool",
        "use_mem_pool",
        "temperature",
        "power_draw",
        "clock_rate",
        "nccl",
        "nvtx",
        "profiler",
        "random",
        "reset_accumulated_host_memory_stats",
        "reset_accumulated_memory_stats",
        "reset_max_memory_allocated",
        "reset_max_memory_cached",
        "reset_peak_host_memory_stats",
        "reset_peak_memory_stats",
        "seed",
        "seed_all",
        "set_device",
        "set_per_process_memory_fraction",
        "set_rng_state",
        "set_rng_state_all",
        "set_stream",
        "set_sync_debug_mode",
        "sparse",
        "stream",
        "streams",
        "synchronize",
        "tunable",
        "utilization",
    ]
)

has_half = True
has_magma = False


class OutOfMemoryError(RuntimeError):
    """A CUDA allocation failed for lack of device memory."""

    __module__ = "torch"


class AcceleratorError(RuntimeError):
    """An error reported by the accelerator (a CUDA error code)."""

    __module__ = "torch"


class DeferredCudaCallError(Exception):
    """A call queued before CUDA was initialised failed when it ran."""


class cudaStatus:  # noqa: N801 - PyTorch's name
    """The two CUDA status codes PyTorch names."""

    SUCCESS: int = 0
    ERROR_NOT_READY: int = 34


class CudaError(RuntimeError):
    """A CUDA runtime error code, with the runtime's description of it."""

    def __init__(self, code: int) -> None:
        rt = _state.runtime()
        if rt is None:  # PyTorch's CPU build has no cudart module to ask
            raise AttributeError("'NoneType' object has no attribute 'cudaGetErrorString'")
        describe = getattr(rt, "error_string", None)
        message = describe(code) if describe is not None else "CUDA error"
        super().__init__(f"{message} ({code})")


def check_error(res: int) -> None:
    """Raise :class:`CudaError` when the CUDA status ``res`` is not success (0)."""
    if _state.runtime() is None:
        raise AttributeError("'NoneType' object has no attribute 'cudaError'")
    if res != cudaStatus.SUCCESS:
        raise CudaError(res)


# ------------------------------------------------------------------ availability
def is_available() -> bool:
    """Whether a CUDA device can be used.

    Examples::

        >>> import torch
        >>> isinstance(torch.cuda.is_available(), bool)
        True
    """
    rt = _state.runtime()
    return rt is not None and rt.device_count() > 0


def device_count() -> int:
    """The number of usable CUDA devices (0 without CUDA)."""
    rt = _state.runtime()
    return rt.device_count() if rt is not None else 0


def is_initialized() -> bool:
    """Whether CUDA has been initialised in this process (never, without CUDA)."""
    return _state.is_initialized()


def init() -> None:
    """Initialise CUDA now rather than at its first use; raises without CUDA."""
    _state.lazy_init()


def cudart():
    """The CUDA runtime API module of the active runtime (``cudaProfilerStart``, ...)."""
    rt = _state.lazy_init()
    return _state.runtime_method(rt, "cudart")()


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Whether the current device computes in bfloat16 (natively from compute capability
    8.0; otherwise emulated, which counts unless ``including_emulation`` is False)."""
    if not is_available():
        return False
    if get_device_capability() >= (8, 0):
        return True
    return including_emulation


def is_tf32_supported() -> bool:
    """Whether the current device has TensorFloat-32 (compute capability 8.0 or higher)."""
    return is_available() and get_device_capability() >= (8, 0)


def get_arch_list() -> list[str]:
    """The CUDA architectures this build has kernels for (``[]`` without CUDA)."""
    rt = _state.runtime()
    if rt is None:
        return []
    return list(getattr(rt, "arch_list", lambda: [])())


def get_gencode_flags() -> str:
    """:func:`get_arch_list` as nvcc ``-gencode`` flags (``""`` without CUDA)."""
    flags = []
    for arch in get_arch_list():
        kind, number = arch.split("_", 1)
        flags.append(f"-gencode compute=compute_{number},code={kind}_{number}")
    return " ".join(flags)


# ------------------------------------------------------------------ devices
def current_device() -> int:
    """The index of the current CUDA device; raises without CUDA."""
    return _state.lazy_init().current_device()


def set_device(device) -> None:
    """Make ``device`` (an index, ``"cuda:1"``, a ``torch.device``) the current device.
    A negative index does nothing."""
    index = _state.device_index(device)
    if index < 0:
        return
    rt = _state.runtime()
    if rt is None:
        raise _state.missing_binding("_cuda_setDevice")
    rt.set_device(index)


class device:  # noqa: N801 - PyTorch's name
    """Context manager that makes a device current inside a ``with`` block.

    Args:
        device (torch.device or int or str): the device; a negative index or ``None``
            leaves the current device alone.
    """

    def __init__(self, device):
        self.idx = _state.device_index(device, optional=True)
        self.prev_idx = -1

    def __enter__(self):
        self.prev_idx = _state.exchange_device(self.idx)

    def __exit__(self, type, value, traceback):  # noqa: A002 - the protocol's names
        if self.prev_idx >= 0:
            _state.exchange_device(self.prev_idx)
        self.idx = self.prev_idx
        return False


class device_of(device):  # noqa: N801 - PyTorch's name
    """Context manager that makes the device of ``obj`` (a tensor or storage) current; a
    CPU object changes nothing."""

    def __init__(self, obj):
        index = obj.get_device() if obj.is_cuda else -1
        super().__init__(index)


def _properties(device):
    _state.lazy_init()
    index = _state.device_index(device, optional=True)
    if index < 0 or index >= device_count():
        raise AssertionError("Invalid device id")
    return _state.runtime().device_properties(index)


def get_device_properties(device=None):
    """The properties of ``device``: ``name``, ``major``, ``minor``, ``total_memory``,
    ``multi_processor_count``; raises without CUDA."""
    return _properties(device)


def get_device_name(device=None) -> str:
    """The name of ``device`` (default: the current one); raises without CUDA."""
    return _properties(device).name


def get_device_capability(device=None) -> tuple[int, int]:
    """The ``(major, minor)`` compute capability of ``device``; raises without CUDA."""
    properties = _properties(device)
    return properties.major, properties.minor


def can_device_access_peer(device, peer_device) -> bool:
    """Whether ``device`` can read and write ``peer_device``'s memory directly."""
    rt = _state.lazy_init()
    index = _state.device_index(device, optional=True)
    peer = _state.device_index(peer_device)
    if index < 0 or index >= device_count():
        raise AssertionError("Invalid device id")
    if peer < 0 or peer >= device_count():
        raise AssertionError("Invalid peer device id")
    return _state.runtime_method(rt, "can_device_access_peer")(index, peer)


def synchronize(device=None) -> None:
    """Wait until every stream of ``device`` has finished its work; raises without CUDA
    (as PyTorch's CPU build does)."""
    rt = _state.lazy_init()
    rt.synchronize(_state.device_index(device, optional=True))


def ipc_collect() -> None:
    """Free device memory that other processes no longer hold through CUDA IPC."""
    rt = _state.lazy_init()
    collect = getattr(rt, "ipc_collect", None)
    if collect is not None:
        collect()


# ------------------------------------------------------------------ streams
def current_stream(device=None):
    """The stream work is queued on for ``device``; raises without CUDA."""
    rt = _state.lazy_init()
    return rt.current_stream(_state.device_index(device, optional=True))


def default_stream(device=None):
    """The default stream of ``device``; raises without CUDA."""
    rt = _state.lazy_init()
    return rt.default_stream(_state.device_index(device, optional=True))


def get_stream_from_external(data_ptr: int, device=None):
    """A :class:`Stream` for a ``cudaStream_t`` made outside PyTorch."""
    _state.lazy_init()
    return ExternalStream(data_ptr, device)


def set_stream(stream) -> None:
    """Make ``stream`` current on its device (``None`` does nothing)."""
    if stream is None:
        return
    rt = _state.runtime()
    if rt is None:
        raise _state.missing_binding("_cuda_setStream")
    rt.set_stream(stream)


class StreamContext:
    """Context manager that makes ``stream`` current inside a ``with`` block (``None``, or
    no CUDA, changes nothing)."""

    def __init__(self, stream):
        self.stream = stream
        index = _state.device_index(None, optional=True)
        self.idx = -1 if index is None else index
        self.src_prev_stream = None
        self.dst_prev_stream = None

    def __enter__(self):
        target = self.stream
        if target is None or self.idx == -1:
            return
        self.src_prev_stream = current_stream(None)
        if self.src_prev_stream.device != target.device:
            with device(target.device):
                self.dst_prev_stream = current_stream(target.device)
        set_stream(target)

    def __exit__(self, type, value, traceback):  # noqa: A002 - the protocol's names
        if self.stream is None or self.idx == -1:
            return
        if self.dst_prev_stream is not None:
            set_stream(self.dst_prev_stream)
        set_stream(self.src_prev_stream)


def stream(stream) -> StreamContext:
    """Context manager that queues the work inside a ``with`` block on ``stream``.

    Examples::

        >>> import torch
        >>> with torch.cuda.stream(None):
        ...     pass
    """
    return StreamContext(stream)


def current_blas_handle():
    """The cuBLAS handle of the current stream (an int pointer)."""
    rt = _state.lazy_init()
    return _state.runtime_method(rt, "current_blas_handle")()


def current_solver_handle():
    """The cuSOLVER handle of the current stream (an int pointer)."""
    rt = _state.lazy_init()
    return _state.runtime_method(rt, "current_solver_handle")()


_SYNC_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}
_sync_debug_mode = [0]


def set_sync_debug_mode(debug_mode) -> None:
    """What to do on an operation that synchronises with the device: ``"default"`` (0:
    nothing), ``"warn"`` (1) or ``"error"`` (2)."""
    _state.lazy_init()
    if isinstance(debug_mode, str):
        if debug_mode not in _SYNC_DEBUG_MODES:
            raise RuntimeError(
                "invalid value of debug_mode, expected one of `default`, `warn`, `error`"
            )
        debug_mode = _SYNC_DEBUG_MODES[debug_mode]
    _sync_debug_mode[0] = debug_mode


def get_sync_debug_mode() -> int:
    """The mode :func:`set_sync_debug_mode` set (0, 1 or 2)."""
    _state.lazy_init()
    return _sync_debug_mode[0]


# ------------------------------------------------------------------ NVML queries
def _nvml_handle(pynvml, device):
    """NVML's handle of ``device``; needs a CUDA runtime with a real GPU."""
    rt = _state.runtime()
    if rt is None:
        raise RuntimeError("cuda driver can't be loaded, is cuda enabled?")
    if getattr(rt, "simulated", False):
        raise NotImplementedError("NVML cannot query simulated CUDA devices")
    pynvml.nvmlInit()
    index = _state.device_index(device, optional=True)
    return pynvml.nvmlDeviceGetHandleByIndex(index)


def _pynvml():
    try:
        import pynvml
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "nvidia-ml-py does not seem to be installed or it can't be imported."
        ) from None
    return pynvml


def device_memory_used(device=None) -> int:
    """Bytes of ``device``'s memory in use by all processes, from NVML (``nvidia-ml-py``)."""
    pynvml = _pynvml()
    return pynvml.nvmlDeviceGetMemoryInfo(_nvml_handle(pynvml, device)).used


def memory_usage(device=None) -> int:
    """Percent of the last sample period in which device memory was read or written (NVML)."""
    pynvml = _pynvml()
    return pynvml.nvmlDeviceGetUtilizationRates(_nvml_handle(pynvml, device)).memory


def utilization(device=None) -> int:
    """Percent of the last sample period in which a kernel ran on ``device`` (NVML)."""
    pynvml = _pynvml()
    return pynvml.nvmlDeviceGetUtilizationRates(_nvml_handle(pynvml, device)).gpu


def temperature(device=None) -> int:
    """The GPU's temperature in degrees Celsius (NVML)."""
    pynvml = _pynvml()
    return pynvml.nvmlDeviceGetTemperature(_nvml_handle(pynvml, device), 0)


def power_draw(device=None) -> int:
    """The GPU's power draw in milliwatts (NVML)."""
    pynvml = _pynvml()
    return pynvml.nvmlDeviceGetPowerUsage(_nvml_handle(pynvml, device))


def clock_rate(device=None) -> int:
    """The GPU's streaming-multiprocessor clock in MHz (NVML)."""
    pynvml = _pynvml()
    return pynvml.nvmlDeviceGetClockInfo(_nvml_handle(pynvml, device), 1)


# ------------------------------------------------------------------ compatibility tables
# Facts of PyTorch 2.13: which devices (compute capability x 10) run code built for each
# capability, and the capabilities each official CUDA build ships kernels for.
def _capabilities(low: int, high: int, skip: tuple = ()) -> frozenset:
    return frozenset(cc for cc in range(low, high) if cc not in skip)


DEVICE_REQUIREMENT = {
    50: _capabilities(50, 60, (53,)),
    52: _capabilities(52, 60, (53,)),
    53: frozenset({53}),
    60: _capabilities(60, 70, (62,)),
    61: _capabilities(61, 70, (62,)),
    62: frozenset({62}),
    70: _capabilities(70, 80, (72,)),
    72: frozenset({72}),
    75: _capabilities(75, 80),
    80: _capabilities(80, 90, (87,)),
    86: _capabilities(86, 90, (87,)),
    87: frozenset({87}),
    89: _capabilities(89, 90),
    90: _capabilities(90, 100),
    100: _capabilities(100, 110, (101,)),
    101: frozenset({101, 110}),
    103: _capabilities(103, 110),
    110: _capabilities(110, 120),
    120: _capabilities(120, 130),
    121: _capabilities(121, 130),
}
PYTORCH_RELEASES_CODE_CC = {
    "12.6": {"x86_64": {50, 60, 70, 75, 80, 86, 90}, "aarch64": {80, 90}},
    "12.9": {"x86_64": {75, 80, 86, 90, 100, 120}, "aarch64": {80, 90, 100, 120}},
    "13.0": {"x86_64": {75, 80, 86, 90, 100, 120}, "aarch64": {80, 90, 100, 110, 120}},
    "13.2": {"x86_64": {75, 80, 86, 90, 100, 120}, "aarch64": {80, 90, 100, 110, 120}},
}


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    if name == "GreenContext":
        from .green_contexts import GreenContext

        return GreenContext
    if name == "default_generators":
        # one generator per device, made by the runtime (none without CUDA)
        rt = _state.runtime()
        if rt is None or not hasattr(rt, "generator"):
            return ()
        return tuple(rt.generator(i) for i in range(rt.device_count()))
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES) | {"GreenContext", "default_generators"})
