"""The CUDA runtime behind ``torch.cuda``: real devices through CuPy, simulated ones on the
host (``TORCH_CUDA_SIMULATE=N``), or none.

``get()`` returns the active runtime, or ``None`` when there is no CUDA device to use; the
public functions of ``torch.cuda`` then behave as PyTorch's CPU-only build does. A runtime
object answers (``device`` is an int index; ``None`` means the current device):

- ``simulated`` (bool), ``device_count()``, ``current_device()``, ``set_device(i)``,
  ``synchronize(device)``
- ``device_name(i)``, ``device_properties(i)`` (``name``, ``major``, ``minor``,
  ``total_memory``, ``multi_processor_count``), ``device_capability(i)``
- ``memory_allocated(i)``, ``max_memory_allocated(i)``, ``memory_reserved(i)``,
  ``max_memory_reserved(i)``, ``memory_stats(i)`` (dict), ``reset_peak_memory_stats(i)``,
  ``empty_cache()``, ``mem_get_info(i)``
- ``Stream``, ``Event`` classes, ``current_stream(i)``, ``default_stream(i)``,
  ``set_stream(stream)``
- ``manual_seed(seed, i)``, ``seed(i)``, ``initial_seed(i)``, ``get_rng_state(i)``,
  ``set_rng_state(state, i)``

Added beyond that first contract (only additions):

- ``backend``: the ``torch._interface.backends.Backend`` registered as device type
  ``"cuda"``; ``generator(i)``: device ``i``'s ``torch.Generator``
- ``pin(array)`` / ``is_pinned(array)``: page-locked host copies for ``Tensor.pin_memory``
- ``nccl``: the collective layer used by ``torch.cuda.nccl`` (see ``_collectives``)
- ``close()``: unregister the backend (tests swap runtimes with :func:`simulated`)

Which runtime ``get()`` makes, once, on first use:

1. ``TORCH_CUDA_SIMULATE=N`` (N > 0): N simulated devices (``torch.cuda._simulated``),
   arrays in host memory with NumPy standing in for CuPy. Opt-in only; never the default.
   With ``TORCH_CUDA_SIMULATE_STRICT=1`` too, strict ones (``torch.cuda._strict``).
2. else, when the ``cupy`` package is installed (``torch-core[cuda12]``/``[cuda13]``) and
   sees a device: the CuPy runtime (``torch.cuda._cupy``).
3. else ``None``. A CPU-only install never imports CuPy: ``find_spec`` looks for it
   without importing it, and nothing calls ``get()`` at ``import torch``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import threading

__all__ = [
    "get",
    "require",
    "simulated",
    "device_index",
    "Runtime",
    "StreamOrdering",
    "recording_stream",
    "SIMULATE_ENV",
    "STRICT_ENV",
]

#: the environment variable that turns on simulated devices: their count
SIMULATE_ENV = "TORCH_CUDA_SIMULATE"
#: set to 1 (with SIMULATE_ENV) for strict simulated devices: arrays the host cannot read,
#: the kernels CuPy runs (``torch.cuda._strict``); opt-in, the default stays host kernels
STRICT_ENV = "TORCH_CUDA_SIMULATE_STRICT"

_lock = threading.RLock()
_active = None
_probed = False


def get():
    """The active CUDA runtime, or ``None`` when no CUDA device can be used."""
    if _probed:
        return _active
    with _lock:
        if not _probed:
            _install(_probe())
    return _active


def _install(runtime) -> None:
    _restore(runtime, True)


def _restore(runtime, probed: bool) -> None:
    global _active, _probed
    _active, _probed = runtime, probed


def _simulated_count() -> int:
    value = os.environ.get(SIMULATE_ENV, "").strip()
    if not value:
        return 0
    try:
        count = int(value)
    except ValueError:
        raise ValueError(
            f"{SIMULATE_ENV} must be a number of simulated CUDA devices, got {value!r}"
        ) from None
    if count < 0:
        raise ValueError(f"{SIMULATE_ENV} must not be negative, got {count}")
    return count


def _probe():
    count = _simulated_count()
    if count:
        from ._simulated import SimulatedRuntime

        strict = os.environ.get(STRICT_ENV, "").strip() == "1"
        return SimulatedRuntime(count, host_kernels=not strict)
    if importlib.util.find_spec("cupy") is None:
        return None  # a CPU-only install: CuPy is never imported
    from . import _cupy

    return _cupy.probe()


@contextlib.contextmanager
def simulated(count: int = 2, host_kernels: bool = True):
    """Use ``count`` simulated devices inside the ``with`` block, whatever ``get()`` found
    before (tests); the previous runtime (or none) is back afterwards. ``host_kernels=
    False`` runs the per-op kernels of the CuPy backend (``_device_kernels``) instead of
    letting host kernels read the simulated memory."""
    from ._simulated import SimulatedRuntime

    with _lock:
        previous, was_probed = _active, _probed
        if previous is not None:
            previous.close()
        runtime = SimulatedRuntime(count, host_kernels)
        _install(runtime)
    try:
        yield runtime
    finally:
        with _lock:
            runtime.close()
            _restore(previous, was_probed)
            if previous is not None:
                previous.open()


class StreamOrdering:
    """What every runtime's ``Stream`` does the same way over its own ``wait_event`` and
    ``Event`` class (``event_class``, set by the runtime once both classes exist)."""

    event_class: type

    def wait_stream(self, stream) -> None:
        """Order the work queued after this call behind what ``stream`` has queued."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        """Record ``event`` (a new one by default) at this stream's current point."""
        event = self.event_class() if event is None else event
        event.record(self)
        return event


def recording_stream(event, stream, runtime):
    """The stream ``event.record(stream)`` records on (default: ``runtime``'s current
    one), after PyTorch's check that an event stays on the device of its first record."""
    stream = runtime.current_stream() if stream is None else stream
    if event.device is not None and stream.device != event.device:
        raise RuntimeError(
            f"Event device {event.device} does not match recording stream's device {stream.device}."
        )
    return stream


class Runtime:
    """What the simulated and the CuPy runtimes share: the current device and streams of
    each thread (as in CUDA, they are per thread), the generators, the public contract's
    defaults. Subclasses set :attr:`backend`, :attr:`Stream`, :attr:`Event` and the
    memory and property queries."""

    simulated = False
    #: the registered ``torch._interface.backends.Backend`` of device type "cuda"
    backend = None
    Stream = None
    Event = None

    def __init__(self) -> None:
        self._local = threading.local()
        self._generators: dict[int, object] = {}
        self._default_streams: dict[int, object] = {}

    # --------------------------------------------------------------- registration

    def open(self) -> None:
        """Register :attr:`backend` as device type "cuda" (done by the constructor)."""
        from torch._interface import backends

        if "cuda" not in backends.backends():
            backends.register_backend(self.backend, self.array_type)

    def close(self) -> None:
        """Unregister the backend: "cuda" tensors made before are unusable after."""
        from torch._interface import backends

        if backends.backends().get("cuda") is self.backend:
            backends.unregister_backend("cuda")

    # -------------------------------------------------------------------- devices

    def device_count(self) -> int:
        return self.backend.device_count()

    def index(self, device=None) -> int:
        """``device`` (None, an int, a string or a ``torch.device``) as an index, checked."""
        if device is None:
            return self.current_device()
        if not isinstance(device, int):
            from torch import device as device_cls

            device = device_cls(device) if not isinstance(device, device_cls) else device
            if device.type != "cuda":
                raise ValueError(f"Expected a cuda device, but got: {device}")
            if device.index is None:
                return self.current_device()
            device = device.index
        if not 0 <= device < self.device_count():
            raise RuntimeError(invalid_ordinal())
        return device

    def current_device(self) -> int:
        return getattr(self._local, "device", 0)

    def set_device(self, device) -> None:
        if isinstance(device, int) and device < 0:
            return  # a negative index is ignored, as in PyTorch
        self._local.device = self.index(device)

    def synchronize(self, device=None) -> None:
        self.backend.synchronize(self.index(device))

    def device_capability(self, device=None) -> tuple[int, int]:
        props = self.device_properties(device)
        return props.major, props.minor

    def device_name(self, device=None) -> str:
        return self.device_properties(device).name

    # -------------------------------------------------------------------- streams

    def default_stream(self, device=None):
        index = self.index(device)
        stream = self._default_streams.get(index)
        if stream is None:
            stream = self._default_streams[index] = self.Stream._default(self, index)
        return stream

    def current_stream(self, device=None):
        index = self.index(device)
        streams = getattr(self._local, "streams", None)
        if streams is not None and index in streams:
            return streams[index]
        return self.default_stream(index)

    def set_stream(self, stream) -> None:
        """Make ``stream`` the current stream of its device (for this thread)."""
        streams = getattr(self._local, "streams", None)
        if streams is None:
            streams = self._local.streams = {}
        streams[stream.device.index] = stream

    # ----------------------------------------------------------------- generators

    def generator(self, device=None):
        """Device ``device``'s random generator (a ``torch.Generator`` on that device)."""
        index = self.index(device)
        with _lock:
            generator = self._generators.get(index)
            if generator is None:
                from torch import Generator, device

                generator = Generator()
                generator.device = device("cuda", index)
                self._generators[index] = generator
        return generator

    def manual_seed(self, seed, device=None) -> None:
        self.generator(device).manual_seed(seed)

    def seed(self, device=None) -> int:
        return self.generator(device).seed()

    def initial_seed(self, device=None) -> int:
        return self.generator(device).initial_seed()

    def get_rng_state(self, device=None):
        return self.generator(device).get_state()

    def set_rng_state(self, state, device=None) -> None:
        self.generator(device).set_state(state)

    # --------------------------------------------------------------------- memory

    def max_memory_reserved(self, device=None) -> int:
        return self.memory_stats(device).get("reserved_bytes.all.peak", 0)


def device_index(device, optional: bool = False, allow_cpu: bool = False) -> int:
    """``device`` (an int, a string, a ``torch.device`` or None) as a CUDA device index:
    None (with ``optional``) or a device without an index is the current device; the CPU
    (with ``allow_cpu``) is -1. PyTorch's ``_get_device_index`` rules and errors."""
    from torch import device as device_cls

    if isinstance(device, str):
        device = device_cls(device)
    if isinstance(device, device_cls):
        if device.type == "cpu" and allow_cpu:
            return -1
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        device = device.index
    if device is None:
        if not optional:
            raise ValueError(
                "Expected a torch.device with a specified index or an integer, but got:None"
            )
        runtime = get()
        return runtime.current_device() if runtime is not None else 0
    if isinstance(device, int) and not isinstance(device, bool):
        return device
    raise ValueError(
        f"Expected a torch.device with a specified index or an integer, but got:{device}"
    )


def require():
    """The active runtime; without one, the error of a CUDA call on a CPU-only build."""
    runtime = get()
    if runtime is None:
        raise RuntimeError("Torch not compiled with CUDA enabled")
    return runtime


def invalid_ordinal() -> str:
    """PyTorch's message for a CUDA device index past the last device."""
    return (
        "CUDA error: invalid device ordinal\n"
        "GPU device may be out of range, do you have enough GPUs?\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so "
        "the stacktrace below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
    )
