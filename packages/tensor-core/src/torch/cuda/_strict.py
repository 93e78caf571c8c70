"""Strict simulated device arrays: host memory that behaves as a ``cupy.ndarray`` does
towards NumPy, so CI finds every kernel that would read device memory on the host.

A :class:`DeviceArray` wraps a host NumPy array (its memory, tagged with a device index)
and follows CuPy's rules:

- it is not a NumPy array and refuses implicit conversion: ``np.asarray(a)``, passing it
  to a native host kernel (``torch._C``) or to anything else that calls ``__array__``
  raises CuPy's ``TypeError``;
- NumPy's ufuncs (NEP 13: ``np.tanh(a)``, ``np.add(a, b, out=c)``, ``a + b``) and array
  functions (NEP 18: ``np.concatenate``, ``np.sum``, ``np.where``, ``np.matmul``,
  ``np.empty(..., like=a)``) run "on the device" (on its buffer) and return device
  arrays; a NumPy array among their arguments raises ``TypeError`` as in CuPy (whose
  kernels accept Python and NumPy scalars, never host arrays);
- creation without ``like=`` goes through the device's array module (:data:`xp`, the
  stand-in for the ``cupy`` module), whose ``asarray`` of host data is a counted copy;
- every transfer is counted (:data:`transfers`, read by the backend): ``host_to_device``
  (``xp.asarray`` of host data, a host array written into or indexing a device array),
  ``device_to_host`` (``.get()``, ``.tolist()``) and ``scalar_reads`` (one element read
  by ``.item()`` or ``bool()``/``float()``/``int()``: a synchronisation, as a
  data-dependent check is on CuPy).

``SimulatedRuntime(n, host_kernels=False)`` uses these arrays, so the cuda backend's
per-op kernels (``torch.cuda._device_kernels``) are tested in CI exactly as they would run
on CuPy, minus the GPU.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

__all__ = ["DeviceArray", "xp", "IMPLICIT_CONVERSION", "transfers"]

#: CuPy's message for ``numpy.asarray`` of a device array
IMPLICIT_CONVERSION = (
    "Implicit conversion to a NumPy array is not allowed. "
    "Please use `.get()` to construct a NumPy array explicitly."
)


class _Transfers:
    """Counts of host<->device transfers made by strict arrays (read by the backend)."""

    def __init__(self) -> None:
        self.host_to_device = 0
        self.device_to_host = 0
        #: one element read back to decide something on the host (``bool(a.any())`` of a
        #: data-dependent check, ``.item()``): a synchronisation, not a bulk transfer
        self.scalar_reads = 0
        self._current = threading.local()
        #: called with the host memory of every new device array (memory accounting)
        self.track = None

    @property
    def current_index(self) -> int:
        """The device index new arrays go to when no argument says: CuPy's current device,
        which is per thread (DataParallel's replicas run in threads, one per device)."""
        return getattr(self._current, "index", 0)

    @current_index.setter
    def current_index(self, index: int) -> None:
        self._current.index = index


transfers = _Transfers()


def _host_array_error(value) -> TypeError:
    return TypeError(f"Unsupported type {type(value)}")


# ------------------------------------------------------------- wrapping and unwrapping


def _wrap(value, index: int):
    """NumPy results as device arrays on device ``index`` (scalars become 0-dim arrays,
    as CuPy's reductions return them)."""
    if isinstance(value, np.ndarray):
        return DeviceArray(value, index)
    if isinstance(value, np.generic):
        return DeviceArray(np.asarray(value), index)
    if isinstance(value, tuple):
        return (
            type(value)(_wrap(v, index) for v in value)
            if not hasattr(value, "_fields")
            else (type(value)(*(_wrap(v, index) for v in value)))
        )
    if isinstance(value, list):
        return [_wrap(v, index) for v in value]
    return value


class _Unwrapper:
    """Replaces device arrays by their host memory in a call's arguments, remembering the
    device they are on; a host NumPy array among them is refused (CuPy's rule)."""

    __slots__ = ("index", "allow_host")

    def __init__(self, allow_host: bool = False) -> None:
        self.index = None
        self.allow_host = allow_host

    def __call__(self, value):
        if isinstance(value, DeviceArray):
            if self.index is None:
                self.index = value.index
            elif value.index != self.index:
                raise ValueError(
                    f"Array device must be same as the current device: array device = "
                    f"{value.index} while current = {self.index}"
                )
            return value._host
        if isinstance(value, np.ndarray):
            if not self.allow_host:
                raise _host_array_error(value)
            return value
        if isinstance(value, (list, tuple)):
            items = [self(v) for v in value]
            return items if isinstance(value, list) else tuple(items)
        if isinstance(value, dict):
            return {k: self(v) for k, v in value.items()}
        return value


def _call_on_device(function, args, kwargs, allow_host: bool = False, index=None):
    """``function`` (NumPy's) on the host memory of the device arrays among its arguments,
    its array results wrapped on their device (``index``, else theirs, else the current)."""
    unwrap = _Unwrapper(allow_host)
    unwrap.index = index
    host_args = unwrap(args)
    host_kwargs = unwrap(kwargs)
    index = transfers.current_index if unwrap.index is None else unwrap.index
    result = function(*host_args, **host_kwargs)
    out = kwargs.get("out")
    if out is not None:
        return out[0] if isinstance(out, tuple) and len(out) == 1 else out
    return _wrap(result, index)


# ----------------------------------------------------------------------- the array

#: the array functions that convert their first argument (with ``like=`` a device array)
_CONVERSIONS = frozenset({np.array, np.asarray, np.asanyarray, np.ascontiguousarray})


class _Pointer(NamedTuple):
    """``cupy.ndarray.data``: the address of the array's memory."""

    ptr: int


class _Device(NamedTuple):
    """``cupy.ndarray.device``: the index of the array's device."""

    id: int

    def __repr__(self) -> str:
        return f"<CUDA Device {self.id}>"


def _method(name: str):
    def method(self, *args, **kwargs):
        return _call_on_device(getattr(self._host, name), args, kwargs, index=self.index)

    method.__name__ = name
    return method


def _binary(ufunc, reflected: bool = False):
    def operator(self, other):
        if isinstance(other, np.ndarray):
            raise _host_array_error(other)
        return ufunc(other, self) if reflected else ufunc(self, other)

    return operator


def _inplace(ufunc):
    def operator(self, other):
        ufunc(self, other, out=(self,))
        return self

    return operator


def _operator_forms(ufunc, inplace: bool = True) -> tuple:
    """The methods of a binary operator over ``ufunc``: ``a op b``, ``b op a`` and, when
    ``inplace``, ``a op= b``."""
    forms = (_binary(ufunc), _binary(ufunc, True))
    return forms + (_inplace(ufunc),) if inplace else forms


class DeviceArray:
    """An array in (simulated) device memory: see the module doc for its rules."""

    __slots__ = ("_host", "index", "__weakref__")
    __array_priority__ = 100

    def __init__(self, host: np.ndarray, index: int = 0) -> None:
        self._host = host
        self.index = index
        if transfers.track is not None:
            transfers.track(host, index)

    # ------------------------------------------------------------------ conversion

    def __array__(self, dtype=None, copy=None):
        raise TypeError(IMPLICIT_CONVERSION)

    def get(self, stream=None, order="C", out=None):
        """A host copy (the explicit device-to-host transfer)."""
        transfers.device_to_host += 1
        host = np.array(self._host, copy=True, order=order)
        if out is not None:
            np.copyto(out, host)
            return out
        return host

    def set(self, host, stream=None) -> None:
        transfers.host_to_device += 1
        np.copyto(self._host, host)

    def item(self, *args):
        transfers.scalar_reads += 1
        return self._host.item(*args)

    def tolist(self):
        transfers.device_to_host += 1
        return self._host.tolist()

    def tobytes(self, order="C"):
        transfers.device_to_host += 1
        return self._host.tobytes(order)

    def _scalar(self, kind):
        if self._host.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous.")
        transfers.scalar_reads += 1
        return kind(self._host.reshape(()))

    __bool__ = lambda self: self._scalar(bool)  # noqa: E731
    __int__ = lambda self: self._scalar(int)  # noqa: E731
    __float__ = lambda self: self._scalar(float)  # noqa: E731
    __complex__ = lambda self: self._scalar(complex)  # noqa: E731
    __index__ = lambda self: self._scalar(int)  # noqa: E731

    # ------------------------------------------------------------------- protocols

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _call_on_device(getattr(ufunc, method), inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        if func in _CONVERSIONS and args and not isinstance(args[0], DeviceArray):
            # ``np.asarray(data, like=a)``: CuPy copies the host data (lists too) over
            transfers.host_to_device += 1
        return _call_on_device(func, args, kwargs)

    @property
    def __cuda_array_interface__(self):
        face = dict(self._host.__array_interface__)
        face["version"] = 3
        return face

    # ------------------------------------------------------------------ attributes

    shape = property(lambda self: self._host.shape)
    dtype = property(lambda self: self._host.dtype)
    ndim = property(lambda self: self._host.ndim)
    size = property(lambda self: self._host.size)
    strides = property(lambda self: self._host.strides)
    itemsize = property(lambda self: self._host.itemsize)
    nbytes = property(lambda self: self._host.nbytes)
    flags = property(lambda self: self._host.flags)
    device = property(lambda self: _Device(self.index))
    data = property(lambda self: _Pointer(self._host.__array_interface__["data"][0]))
    T = property(lambda self: DeviceArray(self._host.T, self.index))
    mT = property(lambda self: DeviceArray(self._host.mT, self.index))  # noqa: N815 - NumPy's name

    @property
    def base(self):
        base = self._host.base
        return DeviceArray(base, self.index) if isinstance(base, np.ndarray) else None

    @property
    def real(self):
        return DeviceArray(self._host.real, self.index)

    @property
    def imag(self):
        return DeviceArray(self._host.imag, self.index)

    def __len__(self) -> int:
        return len(self._host)

    def __iter__(self):
        for i in range(len(self._host)):
            yield self[i]

    def __repr__(self) -> str:
        return f"DeviceArray({self._host!r}, device={self.index})"

    # ---------------------------------------------------------------------- indexing

    def _index(self, key):
        unwrap = _Unwrapper(allow_host=True)
        if isinstance(key, np.ndarray) or (
            isinstance(key, tuple) and any(isinstance(k, np.ndarray) for k in key)
        ):
            transfers.host_to_device += 1  # CuPy copies host index arrays to the device
        return unwrap(key)

    def __getitem__(self, key):
        key = self._index(key)
        result = self._host[key]
        if isinstance(result, np.generic):  # CuPy returns a 0-dim view
            key = key if isinstance(key, tuple) else (key,)
            result = self._host[key + (Ellipsis,)]
        return DeviceArray(result, self.index)

    def __setitem__(self, key, value) -> None:
        key = self._index(key)
        if isinstance(value, np.ndarray):
            transfers.host_to_device += 1
        elif isinstance(value, DeviceArray):
            value = value._host
        self._host[key] = value

    # --------------------------------------------------------------------- operators

    __add__, __radd__, __iadd__ = _operator_forms(np.add)
    __sub__, __rsub__, __isub__ = _operator_forms(np.subtract)
    __mul__, __rmul__, __imul__ = _operator_forms(np.multiply)
    __truediv__, __rtruediv__, __itruediv__ = _operator_forms(np.true_divide)
    __floordiv__, __rfloordiv__, __ifloordiv__ = _operator_forms(np.floor_divide)
    __mod__, __rmod__ = _operator_forms(np.remainder, inplace=False)
    __pow__, __rpow__, __ipow__ = _operator_forms(np.power)
    __matmul__, __rmatmul__ = _operator_forms(np.matmul, inplace=False)
    __and__, __rand__, __iand__ = _operator_forms(np.bitwise_and)
    __or__, __ror__, __ior__ = _operator_forms(np.bitwise_or)
    __xor__, __rxor__, __ixor__ = _operator_forms(np.bitwise_xor)
    __lshift__, __rlshift__ = _operator_forms(np.left_shift, inplace=False)
    __rshift__, __rrshift__ = _operator_forms(np.right_shift, inplace=False)
    __eq__, __ne__ = _binary(np.equal), _binary(np.not_equal)
    __lt__, __le__ = _binary(np.less), _binary(np.less_equal)
    __gt__, __ge__ = _binary(np.greater), _binary(np.greater_equal)
    __hash__ = None

    def __neg__(self):
        return np.negative(self)

    def __pos__(self):
        return np.positive(self)

    def __abs__(self):
        return np.absolute(self)

    def __invert__(self):
        return np.invert(self)

    # ---------------------------------------------------------------------- methods

    for _name in (
        "all any argmax argmin argpartition argsort astype clip compress conj conjugate copy "
        "cumprod cumsum diagonal dot fill flatten max mean min nonzero partition prod put "
        "ravel repeat reshape round sort squeeze std sum swapaxes take trace transpose "
        "var view"
    ).split():
        locals()[_name] = _method(_name)
    del _name


# ------------------------------------------------------------------ the array module


def _on_current_device(function):
    """A NumPy creation function made to allocate on the current device."""

    def create(*args, **kwargs):
        return _call_on_device(function, args, kwargs)

    create.__name__ = function.__name__
    return create


def _asarray(value, dtype=None, order=None, *, copy=None):
    """``cupy.asarray``: device arrays pass (cast when asked), host data is copied over."""
    if isinstance(value, DeviceArray):
        host = value._host
        if dtype is not None and np.dtype(dtype) != host.dtype:
            return DeviceArray(host.astype(dtype), value.index)
        return DeviceArray(host.copy(), value.index) if copy else value
    if isinstance(value, (list, tuple)) and any(isinstance(v, DeviceArray) for v in value):
        return _call_on_device(np.stack, ([_asarray(v, dtype) for v in value],), {})
    transfers.host_to_device += 1
    return DeviceArray(np.array(value, dtype=dtype, order=order or "K"), transfers.current_index)


def _array(value, dtype=None, copy=True, order="K", subok=False, ndmin=0):
    result = _asarray(value, dtype, copy=copy)
    if isinstance(value, DeviceArray) and copy and result is value:
        result = DeviceArray(value._host.copy(order=order), value.index)
    return result


def _asnumpy(value, stream=None, order="C", out=None):
    if isinstance(value, DeviceArray):
        return value.get(order=order, out=out)
    return np.asarray(value, order=order)


class _Namespace:
    """A stand-in for the ``cupy`` module (and its ``linalg``/``fft`` submodules): NumPy's
    functions, taking and returning device arrays."""

    def __init__(self, module, overrides: dict) -> None:
        self._module = module
        self._overrides = overrides
        self.__name__ = "strict_" + module.__name__

    def __getattr__(self, name):
        if name in self._overrides:
            value = self._overrides[name]
        else:
            value = getattr(self._module, name)
            if callable(value) and not isinstance(value, type):
                value = _on_current_device(value)
        setattr(self, name, value)  # cached
        return value


#: the array module of strict device arrays (what ``cupy`` is to ``cupy.ndarray``)
xp = _Namespace(
    np,
    {
        "ndarray": DeviceArray,
        "asarray": _asarray,
        "array": _array,
        "ascontiguousarray": lambda a, dtype=None: (
            _asarray(a, dtype).copy()
            if not _asarray(a, dtype).flags.c_contiguous
            else _asarray(a, dtype)
        ),
        "asnumpy": _asnumpy,
        "get_array_module": lambda *args: xp,
        "linalg": _Namespace(np.linalg, {}),
        "lib": _Namespace(np.lib, {"stride_tricks": _Namespace(np.lib.stride_tricks, {})}),
        "fft": _Namespace(np.fft, {}),
    },
)
