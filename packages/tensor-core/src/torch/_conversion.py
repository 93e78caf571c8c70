"""Conversions between dtypes and devices (``to``, ``type``, ``double()``, ...), copies
(``clone``, ``contiguous``, ``copy_``), ``set_`` and the ``new_*`` constructors."""

from __future__ import annotations

import warnings

import numpy as np

from . import _creation_layout, _dtype
from ._device import device as _device_cls
from ._dtype_support import to_float8
from ._interface.backends import backends, get_backend
from ._interface.backends import resolve as resolve_device
from ._layout import contiguous_format, memory_format
from ._memory_format import (
    contiguous_strides,
    empty_array,
    format_name,
    suggest_memory_format,
    target_strides,
)
from ._ops._dispatch import check_inplace, defop, record, register_op
from ._storage import UntypedStorage
from ._tensor import Tensor, make

__all__ = [
    "to",
    "type_",
    "clone",
    "contiguous",
    "copy_",
    "set_",
    "new_tensor",
    "new_empty",
    "new_zeros",
    "new_ones",
    "new_full",
    "DTYPE_METHODS",
    "cpu",
    "cuda",
]

_NO_CUDA = "Torch not compiled with CUDA enabled"


def _register(name, function, signature, inplace=False, saved=()):
    return register_op(name, function, signature, "conversion", inplace=inplace, saved=saved)


def cast(input: Tensor, dtype, copy: bool = False, memory_format=None) -> Tensor:
    """``input`` converted to ``dtype`` and laid out by ``memory_format`` (default
    ``preserve_format``); ``input`` itself when nothing changes (as PyTorch's ``to``:
    the format counts as unchanged when it is the one the strides suggest)."""
    name = format_name(memory_format, "to")
    if dtype is input._dtype and not copy:
        if name == "preserve_format":
            return input
        if suggest_memory_format(input._np.shape, input.stride()) == name:
            return input
    if input._dtype.is_complex and not dtype.is_complex:
        warnings.warn(
            "Casting complex values to real discards the imaginary part", UserWarning, stacklevel=3
        )
    with np.errstate(invalid="ignore", over="ignore"):
        with warnings.catch_warnings():
            warnings.simplefilter(
                "ignore",
                np.exceptions.ComplexWarning if hasattr(np, "exceptions") else np.ComplexWarning,
            )
            result = _copy_in_format(input, name, dtype)
    return record(TO_COPY, (input,), result, (input._dtype,))


def _copy_in_format(input: Tensor, name: str, dtype) -> Tensor:
    """A copy of ``input`` converted to ``dtype`` with the strides ATen's ``empty_like``
    gives for format ``name`` (values converted by NumPy's unsafe cast)."""
    array = input._np
    if dtype._limited == "float8":
        array = to_float8(array, dtype)
    strides = target_strides(array.shape, input.stride(), name)
    if strides == contiguous_strides(array.shape):
        # NumPy's C-order copy has these strides (_from_array fixes size-0/1 dims')
        return Tensor._from_array(array.astype(dtype.np_dtype, order="C"), dtype)
    out = empty_array(array.shape, strides, dtype.np_dtype)
    np.copyto(out, array, casting="unsafe")
    return make(out, dtype)


TO_COPY = _register(
    "_to_copy",
    cast,
    "_to_copy(Tensor self, *, ScalarType? dtype=None) -> Tensor",
    saved=("input_dtype",),
)


def _check_device(device):
    """``device`` resolved (an indexed non-CPU device), or None for the CPU."""
    return None if device is None else resolve_device(device)


def to_device(input: Tensor, target) -> Tensor:
    """A copy of ``input`` on ``target`` (a resolved device, None for the CPU), recorded
    for autograd: the gradient goes back to ``input``'s device."""
    source = input._device
    array = input._np
    if target is None:
        moved = get_backend(source.type).to_host(array)
    elif source.type == "cpu":
        moved = get_backend(target.type).from_host(array, target.index)
    elif source.type == target.type:
        moved = get_backend(target.type).to_device(array, target.index)
    else:
        host = get_backend(source.type).to_host(array)
        moved = get_backend(target.type).from_host(host, target.index)
    return record(TO_DEVICE, (input,), make(moved, input._dtype), (source,))


TO_DEVICE = _register(
    "_to_device",
    to_device,
    "_to_device(Tensor self, Device device) -> Tensor",
    saved=("input_device",),
)


@defop("to", method=True, public=False)
def to(self: Tensor, *args, **kwargs) -> Tensor:
    """``self`` converted to a dtype and/or device: ``to(dtype)``, ``to(device,
    dtype=None)``, ``to(other)`` (its dtype and device). Returns ``self`` when nothing
    changes, unless ``copy=True``.

    Examples::

        >>> x = torch.tensor([1.5, 2.5])
        >>> x.to(torch.int32), x.to("cpu") is x, x.to(torch.ones(1, dtype=torch.float64)).dtype
        (tensor([1, 2], dtype=torch.int32), True, torch.float64)
    """
    dtype = kwargs.pop("dtype", None)
    device = kwargs.pop("device", None)
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    memory_format = kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for arg in args:
        if isinstance(arg, _dtype.dtype):
            dtype = arg
        elif isinstance(arg, Tensor):
            dtype, device = arg._dtype, arg._device
        elif isinstance(arg, (str, _device_cls, int)) and not isinstance(arg, bool):
            device = arg
        elif isinstance(arg, bool):
            copy = arg  # to(dtype, non_blocking, copy) positional form
        else:
            raise TypeError(f"to() received an invalid combination of arguments: {arg!r}")
    if device is not None:
        target = _check_device(device)
        if target != _check_device(self._device):
            moved = to_device(self, target)
            return cast(moved, dtype or self._dtype, False, memory_format)
    return cast(self, dtype or self._dtype, copy, memory_format)


def _parse_type_name(name: str):
    prefix = "torch."
    if name.startswith("torch.cuda."):
        if _cuda_runtime() is None:
            raise RuntimeError(_NO_CUDA_LIBRARY)
        name = "torch." + name[len("torch.cuda.") :]
    legacy = name[len(prefix) :] if name.startswith(prefix) else name
    for d in _dtype.ALL_DTYPES:
        if d._legacy == legacy:
            return d
    raise ValueError(f"invalid type: '{name}'")


@defop("type", method=True, public=False)
def type_(self: Tensor, dtype=None, non_blocking: bool = False, **kwargs):
    """With no argument, the legacy type name (``'torch.FloatTensor'``); otherwise
    ``self`` converted to ``dtype`` (a dtype, a name such as ``'torch.IntTensor'``, or a
    legacy class such as ``torch.IntTensor``).

    Examples::

        >>> torch.zeros(1, dtype=torch.float64).type()
        'torch.DoubleTensor'
        >>> torch.zeros(1).type(torch.IntTensor).dtype
        torch.int32
    """
    if dtype is None:
        prefix = "torch.cuda." if self._device.type == "cuda" else "torch."
        return prefix + self._dtype._legacy
    name = dtype if isinstance(dtype, str) else None
    if isinstance(dtype, str):
        dtype = _parse_type_name(dtype)
    elif not isinstance(dtype, _dtype.dtype):
        name = getattr(dtype, "__module__", "") + "." + getattr(dtype, "__name__", "")
        dtype = getattr(dtype, "_legacy_dtype", None) or _parse_type_name(str(dtype))
    if name is not None and name.startswith("torch.cuda."):
        return to(self, "cuda", dtype)
    if name is not None and self._device.type != "cpu":
        return to(self, "cpu", dtype)  # a CPU type name such as 'torch.FloatTensor'
    return cast(self, dtype)


def _dtype_method(target):
    def method(self: Tensor, memory_format=None) -> Tensor:
        return cast(self, target, memory_format=memory_format)

    method.__name__ = target.name
    method.__doc__ = f"``self.to({target})``."
    return method


DTYPE_METHODS = {
    "double": _dtype.float64,
    "float": _dtype.float32,
    "half": _dtype.float16,
    "bfloat16": _dtype.bfloat16,
    "long": _dtype.int64,
    "int": _dtype.int32,
    "short": _dtype.int16,
    "char": _dtype.int8,
    "byte": _dtype.uint8,
    "bool": _dtype.bool_,
    "chalf": _dtype.complex32,
    "cfloat": _dtype.complex64,
    "cdouble": _dtype.complex128,
}
DTYPE_METHODS = {name: _dtype_method(d) for name, d in DTYPE_METHODS.items()}
for _name, _method in DTYPE_METHODS.items():  # Tensor.float(), Tensor.long(), ...
    defop(_name, _method, method=True, public=False)


@defop("cpu", method=True, public=False)
def cpu(self: Tensor, memory_format=None) -> Tensor:
    """``self`` on the CPU (``self`` itself when it is already there)."""
    if type(self._np) is np.ndarray:
        return self
    return to(self, "cpu", memory_format=memory_format)


_NO_ACCELERATOR = "Cannot access accelerator device when none is available."
# PyTorch's CPU build, asked for CUDA memory by a deprecated ``device=`` argument
_NO_CUDA_LIBRARY = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because "
    "you are trying to use some CUDA functionality, but the CUDA library has not been "
    "loaded by the dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN "
    "IF you don't directly use any symbols from the CUDA library! One common culprit is a "
    "lack of -Wl,--no-as-needed in your link arguments; many dynamic linkers will delete "
    "dynamic library dependencies if you don't depend on any of their symbols.  You can "
    "check if this has occurred by using ldd on your binary to see if there is a "
    "dependency on *_cuda.so library."
)


def _cuda_runtime():
    """torch.cuda's runtime (simulated or CuPy devices), or None without CUDA."""
    from .cuda import _runtime

    return _runtime.get()


@defop("cuda", method=True, public=False)
def cuda(self: Tensor, device=None, non_blocking=False, memory_format=None) -> Tensor:
    """``self`` on a CUDA device (``device``: an index or device, default the current);
    ``self`` itself when it is there already.

    Examples::

        >>> torch.ones(2).cuda()  # doctest: +SKIP
        tensor([1., 1.], device='cuda:0')
    """
    if _cuda_runtime() is None:
        if isinstance(device, int) and not isinstance(device, bool):
            raise RuntimeError(_NO_ACCELERATOR)
        raise AssertionError(_NO_CUDA)
    if device is None or isinstance(device, int):
        device = _device_cls("cuda", device)
    elif not isinstance(device, _device_cls):
        device = _device_cls(device)
    if device.type != "cuda":
        raise RuntimeError(f"Invalid device, must be cuda device, but got: {device}")
    return to(self, device, memory_format=memory_format)


def _deprecated_device_argument(method: str, device) -> None:
    if device is not None:
        warnings.warn(
            f"The argument 'device' of Tensor.{method}() is deprecated. Please do not pass "
            "this argument.",
            DeprecationWarning,
            stacklevel=3,
        )


@defop("pin_memory", method=True, public=False)
def pin_memory(self: Tensor, device=None) -> Tensor:
    """A copy of this CPU tensor in page-locked host memory, from which copies to a CUDA
    device can run asynchronously (``self`` when it is pinned already). Needs CUDA.

    Examples::

        >>> torch.ones(2).pin_memory().is_pinned()  # doctest: +SKIP
        True
    """
    _deprecated_device_argument("pin_memory", device)
    runtime = _cuda_runtime()
    if runtime is None:
        raise RuntimeError(_NO_CUDA_LIBRARY if device is not None else _NO_ACCELERATOR)
    if self._device.type != "cpu":
        raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
    if runtime.is_pinned(self._np):
        return self
    return make(runtime.pin(self._np), self._dtype)


@defop("is_pinned", method=True, public=False)
def is_pinned(self: Tensor, device=None) -> bool:
    """Whether this tensor's memory is page-locked host memory (``pin_memory``).

    Examples::

        >>> torch.ones(2).is_pinned()
        False
    """
    _deprecated_device_argument("is_pinned", device)
    if self._device.type != "cpu":
        return False
    runtime = _cuda_runtime() if "cuda" in backends() else None
    return runtime is not None and runtime.is_pinned(self._np)


@defop("get_device", method=True, public=False)
def get_device(self: Tensor) -> int:
    """The index of the device this tensor is on; -1 on the CPU.

    Examples::

        >>> torch.ones(2).get_device()
        -1
    """
    index = self._device.index
    return -1 if index is None else index


@defop("clone", method=True)
def clone(input: Tensor, *, memory_format: memory_format | None = None) -> Tensor:
    """A copy of ``input`` with its own storage (dense inputs keep their strides).

    Examples::

        >>> x = torch.zeros(2, 3).t()
        >>> x.clone().stride(), x.clone().data_ptr() != x.data_ptr()
        ((1, 3), True)
    """
    name = format_name(memory_format, "clone")
    return record(CLONE, (input,), _copy_in_format(input, name, input._dtype))


CLONE = _register(
    "clone", clone, "clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor"
)


@defop("contiguous", method=True, public=False)
def contiguous(self: Tensor, memory_format=None) -> Tensor:
    """``self`` when it is contiguous in ``memory_format`` (default
    ``torch.contiguous_format``), else a copy laid out in it."""
    name = format_name(memory_format, "contiguous", "contiguous_format")
    if name == "contiguous_format" and self._np.flags.c_contiguous:
        return self
    if self.is_contiguous(memory_format):
        return self
    if name == "preserve_format":
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    return clone(self, memory_format=memory_format or contiguous_format)


@defop("copy_", method=True, public=False)
def copy_(self: Tensor, src, non_blocking: bool = False) -> Tensor:
    """Copy ``src`` into ``self`` (broadcast to ``self``'s shape, converted to its dtype);
    returns ``self``.

    Examples::

        >>> x = torch.zeros(2, 3)
        >>> x.copy_(torch.tensor([1, 2, 3]))
        tensor([[1., 2., 3.],
                [1., 2., 3.]])
    """
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    recording = check_inplace(self, src)
    try:
        source = np.broadcast_to(src._np, self._np.shape)
    except ValueError:
        raise RuntimeError(
            f"The size of tensor a ({self._np.shape[-1] if self._np.ndim else 1}) "
            f"must match the size of tensor b "
            f"({src._np.shape[-1] if src._np.ndim else 1}) at non-singleton "
            f"dimension {self._np.ndim - 1}"
        ) from None
    if np.may_share_memory(source, self._np):
        source = source.copy()
    if self._dtype._limited == "float8":
        source = to_float8(source, self._dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        np.copyto(self._np, source, casting="unsafe")
    self._bump_version()
    if recording:
        record(COPY_, (self, src), self, (src._dtype,))
    return self


COPY_ = _register(
    "copy_",
    copy_,
    "copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
    inplace=True,
    saved=("src_dtype",),
)


@defop("set_", method=True, public=False)
def set_(self: Tensor, source=None, storage_offset: int = 0, size=None, stride=None) -> Tensor:
    """Make ``self`` view ``source``: another tensor (all of its geometry) or a storage
    (with ``storage_offset``, ``size`` and ``stride``); with no source, an empty storage."""
    from ._ops.views import strided_alias

    if isinstance(source, Tensor):
        if source._dtype is not self._dtype:
            raise RuntimeError(
                f"Could not set tensor of type {self._dtype._legacy[:-6]} to a "
                f"tensor of type {source._dtype._legacy[:-6]}"
            )
        donor = source
    else:
        storage = UntypedStorage(0) if source is None else getattr(source, "_untyped", source)
        if not isinstance(storage, UntypedStorage):
            raise TypeError(f"set_(): expected a Tensor or a storage, got {type(source).__name__}")
        if size is None:
            size = (storage.nbytes() // self._np.itemsize - storage_offset,)
        shape = tuple(size)
        stride = tuple(stride) if stride is not None else contiguous_strides(shape)
        # an empty view of the storage's own buffer: on its device, whichever is current
        # (a device's arrays refuse host ones, and arrays of another device, beside them)
        empty = storage._buffer[:0].view(self._dtype.np_dtype)
        holder = Tensor._from_array(empty, self._dtype)
        holder._storage_ = storage
        donor = strided_alias(holder, shape, stride, storage_offset)
    self._storage_, self._offset_, self._np = donor._storage, donor._offset, donor._np
    self._bump_version()
    return self


def _new_layout(layout, fn: str, args: tuple) -> bool:
    """Checks ``layout`` (TypeError for a non-layout, named after ``fn``); True for sparse."""
    return _creation_layout.is_sparse_layout(layout, fn, args)


def _new(self: Tensor, factory, size, dtype, requires_grad, device, **extra) -> Tensor:
    from . import _creation

    device = self._device if device is None else device
    result = getattr(_creation, factory)(*size, dtype=dtype or self._dtype, device=device, **extra)
    if requires_grad:
        result.requires_grad_(True)
    return result


def _new_in_layout(self: Tensor, factory, size, dtype, layout, device, requires_grad) -> Tensor:
    """:func:`_new` for the factories that take a sparse ``layout`` themselves (after
    ``new_<factory>``'s own check of it)."""
    if layout is not None:
        _new_layout(layout, f"new_{factory}", size)
    return _new(self, factory, size, dtype, requires_grad, device, layout=layout)


@defop("new_tensor", method=True, public=False)
def new_tensor(self: Tensor, data, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A new tensor holding a copy of ``data``, with ``self``'s dtype by default."""
    from ._creation import tensor

    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or "
            "sourceTensor.detach().clone().requires_grad_(True), rather than "
            "tensor.new_tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
    device = self._device if device is None else device
    return tensor(data, dtype=dtype or self._dtype, device=device, requires_grad=requires_grad)


@defop("new_empty", method=True, public=False)
def new_empty(
    self: Tensor, *size, dtype=None, layout=None, device=None, requires_grad=False
) -> Tensor:
    """An uninitialised tensor of ``size`` with ``self``'s dtype by default."""
    return _new_in_layout(self, "empty", size, dtype, layout, device, requires_grad)


@defop("new_zeros", method=True, public=False)
def new_zeros(
    self: Tensor, *size, dtype=None, layout=None, device=None, requires_grad=False
) -> Tensor:
    """Zeros of ``size`` with ``self``'s dtype by default.

    Examples::

        >>> torch.tensor([1], dtype=torch.int16).new_zeros(2, 2)
        tensor([[0, 0],
                [0, 0]], dtype=torch.int16)
    """
    return _new_in_layout(self, "zeros", size, dtype, layout, device, requires_grad)


@defop("new_ones", method=True, public=False)
def new_ones(
    self: Tensor, *size, dtype=None, layout=None, device=None, requires_grad=False
) -> Tensor:
    """Ones of ``size`` with ``self``'s dtype by default."""
    if layout is not None and _new_layout(layout, "new_ones", size):
        raise _creation_layout.refuse_sparse("new_ones")
    return _new(self, "ones", size, dtype, requires_grad, device)


@defop("new_full", method=True, public=False)
def new_full(
    self: Tensor, size, fill_value, dtype=None, device=None, requires_grad=False, layout=None
) -> Tensor:
    """``size`` filled with ``fill_value``, with ``self``'s dtype by default."""
    if layout is not None and _new_layout(layout, "new_full", (size, fill_value)):
        raise _creation_layout.refuse_sparse("new_full")
    from ._creation import full

    device = self._device if device is None else device
    return full(
        size, fill_value, dtype=dtype or self._dtype, device=device, requires_grad=requires_grad
    )
