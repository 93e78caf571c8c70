"""The device-backend contract: what core needs of a device type to put tensors on it.

A tensor's data is an array of its backend's array module (``numpy.ndarray`` on the CPU,
``cupy.ndarray`` on CUDA); the device is read off the array, so CPU tensors pay nothing
for the existence of other devices. A backend says how to allocate, how to copy between
itself and the host, which array module its kernels use, which streams and random
generators it has, and may register native kernels per op (``OpDef.kernels``).

Ops are dispatched on the device of their tensor arguments. While only the CPU backend
is registered, ``torch.*`` and ``Tensor`` methods are the CPU functions themselves. Once
another backend registers, every op binding is wrapped by a dispatcher that

- raises PyTorch's "Expected all tensors to be on the same device" error for arguments
  on different devices (a 0-dim CPU tensor mixes with any device, as in PyTorch);
- calls the op's kernel for the device type when one is registered
  (``ops[name].kernels[device_type]``), else the device-generic implementation, which
  works on any array module that speaks NumPy's protocols (NEP 13/18): the same code
  computes on NumPy and on the backend's arrays;
- hands results back on the device (``Backend.adopt`` of arrays a kernel made on the host).
"""

from __future__ import annotations

import abc
import threading
from typing import Any

import numpy as np

__all__ = [
    "Backend",
    "CPUBackend",
    "HostMemoryBackend",
    "register_backend",
    "unregister_backend",
    "get_backend",
    "backends",
    "device_of_array",
    "is_dispatching",
    "cuda_runtime",
    "dispatch_device",
    "filled_on",
    "made_on",
]


class Backend(abc.ABC):
    """One device type. Subclasses set :attr:`device_type` and implement the methods."""

    #: the device type string (``"cpu"``, ``"cuda"``)
    device_type: str = ""
    #: the module of the backend's arrays (``numpy``, ``cupy``)
    array_module: Any = np

    @abc.abstractmethod
    def owns(self, array: Any) -> bool:
        """Whether ``array`` is an array of this backend."""

    @abc.abstractmethod
    def index_of(self, array: Any) -> int | None:
        """The device index of ``array`` (``None`` for a device type without indices)."""

    @abc.abstractmethod
    def device_count(self) -> int:
        """How many devices of this type exist."""

    @abc.abstractmethod
    def empty(self, shape: tuple, dtype: np.dtype, index: int | None) -> Any:
        """A fresh uninitialised array on device ``index``."""

    @abc.abstractmethod
    def from_host(self, array: np.ndarray, index: int | None, copy: bool = True) -> Any:
        """``array`` (a host NumPy array) on device ``index``; ``copy=False`` lets a
        backend that can adopt host memory skip the copy (the caller gives it up)."""

    @abc.abstractmethod
    def to_host(self, array: Any) -> np.ndarray:
        """A host NumPy copy of the device array ``array``."""

    def to_device(self, array: Any, index: int | None) -> Any:
        """``array`` (of this backend) copied to device ``index`` of the same type."""
        return self.from_host(self.to_host(array), index)

    def strided_view(self, buffer: Any, shape, dtype, offset: int, strides) -> Any:
        """An array viewing ``buffer`` (a flat byte array of this backend) with the given
        geometry in bytes (how a tensor views its storage)."""
        view = np.ndarray(shape, dtype, buffer, offset, strides)
        return self.adopt(view, self.index_of(buffer))

    def adopt(self, array: np.ndarray, index: int | None) -> Any:
        """Host results of a kernel that ran on the host for this device."""
        return self.from_host(array, index, copy=False)

    # streams and events: no-ops where the device computes synchronously
    def synchronize(self, index: int | None = None) -> None:  # noqa: B027 - a no-op default
        """Wait until every queued kernel of device ``index`` is done."""

    def current_stream(self, index: int | None = None) -> Any:
        return None

    def default_generator(self, index: int | None = None):
        """The random generator of device ``index``."""
        from .._random import default_generator

        return default_generator


class CPUBackend(Backend):
    """The host: NumPy arrays, no copies, no streams, the default generator."""

    device_type = "cpu"
    array_module = np

    def owns(self, array) -> bool:
        return type(array) is np.ndarray

    def index_of(self, array) -> None:
        return None

    def device_count(self) -> int:
        return 1

    def empty(self, shape, dtype, index):
        return np.empty(shape, dtype)

    def from_host(self, array, index, copy=True):
        return np.array(array, copy=True) if copy else array

    def to_host(self, array):
        return np.array(array, copy=True)

    def strided_view(self, buffer, shape, dtype, offset, strides):
        return np.ndarray(shape, dtype, buffer, offset, strides)


class HostMemoryBackend(Backend):
    """A device type whose arrays are host memory tagged with their device index:
    instances of :attr:`array_class` (an ``np.ndarray`` subclass with an ``index``
    attribute), as the simulated CUDA devices and the twin test device
    (``torch.testing._twin_backend``) keep them. There are :attr:`count` devices;
    subclasses implement ``empty``, ``from_host``, ``adopt`` and count the copies made here
    in :meth:`_count_copy`."""

    array_module = np
    #: the tagged array type of this backend
    array_class: type = np.ndarray
    #: how many devices there are
    count = 1

    def _tag(self, array: np.ndarray, index: int | None):
        """``array`` as memory of device ``index`` (default 0), without a copy."""
        tagged = array.view(self.array_class)
        tagged.index = 0 if index is None else index
        return tagged

    def _count_copy(self, kind: str) -> None:  # noqa: B027 - counting is optional
        """One copy of ``kind``: ``"device_to_host"`` or ``"device_to_device"``."""

    def owns(self, array) -> bool:
        return isinstance(array, self.array_class)

    def index_of(self, array) -> int:
        return array.index

    def device_count(self) -> int:
        return self.count

    def to_host(self, array):
        self._count_copy("device_to_host")
        return np.array(array, copy=True, order="C", subok=False)

    def to_device(self, array, index):
        self._count_copy("device_to_device")
        return self._tag(np.array(array, copy=True, order="C", subok=False), index)


_CPU = CPUBackend()
_backends: dict[str, Backend] = {"cpu": _CPU}
# array type -> backend, for the arrays of non-CPU backends
_array_types: dict[type, Backend] = {}


def backends() -> dict[str, Backend]:
    """Device type -> registered backend."""
    return dict(_backends)


def get_backend(device_type: str) -> Backend:
    try:
        return _backends[device_type]
    except KeyError:
        raise RuntimeError(f"no backend is registered for device type '{device_type}'") from None


def register_backend(backend: Backend, array_type: type) -> None:
    """Make ``backend`` the backend of its device type; ``array_type`` is the class of its
    arrays. Installs the device dispatcher on every op binding (see the module doc)."""
    if not isinstance(backend, Backend):
        raise TypeError(f"register_backend: expected a Backend, got {type(backend).__name__}")
    name = backend.device_type
    if not name or name == "cpu" or name in _backends:
        raise RuntimeError(f"register_backend: device type '{name}' is taken or invalid")
    if array_type is np.ndarray:
        raise RuntimeError("register_backend: numpy.ndarray is the CPU's array type")
    _backends[name] = backend
    _array_types[array_type] = backend
    from .. import _device, _dispatcher
    from .._serialization import location

    _device.add_device_type(name)
    location.register_package(30, _location_tagger(backend), _location_restorer(backend))
    _dispatcher.install()


def _location_tagger(backend: Backend):
    """``torch.save``'s location tag (``"twin:0"``) of a storage on ``backend``'s device."""

    def tag(storage):
        dev = getattr(storage, "device", None)
        return str(dev) if dev is not None and dev.type == backend.device_type else None

    tag.backend = backend
    return tag


def _location_restorer(backend: Backend):
    """``torch.load``: a storage read on the host, moved to the tagged device."""

    def restore(storage, location: str):
        kind, _, index = location.partition(":")
        if kind != backend.device_type:
            return None
        from .._device import device
        from .._storage import UntypedStorage

        target = resolve(device(kind, int(index) if index else None))
        moved = backend.from_host(storage._buffer, target.index)
        return UntypedStorage._wrap(moved, target)

    return restore


def unregister_backend(device_type: str) -> None:
    """Forget a backend registered by :func:`register_backend` (test isolation): when it
    was the last one, the op bindings are the plain CPU functions again."""
    backend = _backends.pop(device_type)
    for kind in [k for k, b in _array_types.items() if b is backend]:
        del _array_types[kind]
    from .. import _device, _dispatcher
    from .._serialization import location

    location._packages[:] = [
        p for p in location._packages if getattr(p[1], "backend", None) is not backend
    ]

    _device.remove_device_type(device_type)
    if len(_backends) == 1:
        _dispatcher.uninstall()


def device_of_array(array):
    """The ``torch.device`` an array lives on."""
    from .._device import CPU, device

    if type(array) is np.ndarray:
        return CPU
    backend = _array_types.get(type(array))
    if backend is None:
        for kind, candidate in _array_types.items():
            if isinstance(array, kind):
                backend = candidate
                break
        else:
            return CPU  # an ndarray subclass (np.matrix, memmap): host memory
    return device(backend.device_type, backend.index_of(array))


def backend_of_array(array) -> Backend:
    if type(array) is np.ndarray:
        return _CPU
    backend = _array_types.get(type(array))
    return backend if backend is not None else _CPU


_local = threading.local()


def is_dispatching() -> bool:
    """Whether this thread is inside an op the dispatcher sent to a non-CPU device."""
    return getattr(_local, "depth", 0) > 0


def resolve(dev):
    """``dev`` (a ``torch.device``, string or None) as a device with an index, or None
    for the CPU/None: where a factory or ``.to()`` puts its result."""
    if dev is None:
        return None
    from .._device import device

    dev = dev if isinstance(dev, device) else device(dev)
    if dev.type == "cpu":
        return None
    backend = _backends.get(dev.type)
    if backend is None and dev.type == "cuda":
        backend = cuda_backend()
    if backend is None:
        if dev.type == "cuda":
            raise AssertionError("Torch not compiled with CUDA enabled")
        raise RuntimeError(f"device '{dev}' is not available: no backend is registered for it")
    if dev.index is None:
        index = backend.current_index() if hasattr(backend, "current_index") else 0
    else:
        index = dev.index
    count = backend.device_count()
    if index >= count:
        if dev.type == "cuda":
            from ..cuda._runtime import invalid_ordinal

            raise RuntimeError(invalid_ordinal())
        raise RuntimeError(
            f"{dev.type} device index {index} is out of range: there are {count} {dev.type} devices"
        )
    return device(dev.type, index)


def cuda_runtime():
    """``torch.cuda``'s runtime, or None when there is no CUDA device to use (for siblings:
    ``torch.nn.parallel`` reads devices, sets the current device of its worker threads and
    their streams through it). Its methods are listed in ``torch.cuda._runtime``'s doc:
    ``device_count()``, ``current_device()``, ``set_device(i)``, ``current_stream(i)``,
    ``set_stream(s)``, ``simulated``, ..."""
    from ..cuda import _runtime

    return _runtime.get()


def cuda_backend():
    """The "cuda" backend, registered on first use by ``torch.cuda``'s runtime (simulated
    devices, or CuPy's), or None when there is no CUDA device to use."""
    backend = _backends.get("cuda")
    if backend is None:
        from ..cuda import _runtime

        runtime = _runtime.get()
        backend = runtime.backend if runtime is not None else None
    return backend


def dispatch_device():
    """The device of the op this thread is running on a non-CPU device, or None: a factory
    called without a device inside such an op (a composite's constant) makes its tensor
    there, as PyTorch's kernels make theirs with their input's options."""
    return getattr(_local, "device", None) if getattr(_local, "depth", 0) else None


def filled_on(dev, shape: tuple, np_dtype, value=None):
    """A new array made on ``dev`` (a resolved non-CPU device), filled with ``value``
    there (None: uninitialised): no host array, no copy."""
    array = _backends[dev.type].empty(shape, np.dtype(np_dtype), dev.index)
    if value is not None:
        array.fill(value)
    return array


def made_on(dev, make):
    """``make(module)``'s array made on ``dev`` (a resolved non-CPU device) by its backend's
    array module (``cupy.eye``, ``cupy.arange``), with the device current; a backend
    without ``select`` gets NumPy's array handed over (``adopt``)."""
    backend = _backends[dev.type]
    select = getattr(backend, "select", None)
    if select is None:
        return backend.adopt(make(np), dev.index)
    previous = select(dev.index)
    try:
        return make(backend.array_module)
    finally:
        backend.restore(previous)


def place_fresh(tensor, dev):
    """Move a freshly made host tensor (nobody else holds its array) to ``dev`` (a
    resolved device, see :func:`resolve`), without a copy where the backend can adopt."""
    if dev is not None:
        tensor._np = _backends[dev.type].adopt(tensor._np, dev.index)
    return tensor


def strided_view(shape, dtype, buffer, offset: int, strides):
    """:meth:`Backend.strided_view` of the backend ``buffer`` belongs to (arguments in
    ``numpy.ndarray``'s order)."""
    if type(buffer) is np.ndarray:
        return np.ndarray(shape, dtype, buffer, offset, strides)
    return backend_of_array(buffer).strided_view(buffer, shape, dtype, offset, strides)
