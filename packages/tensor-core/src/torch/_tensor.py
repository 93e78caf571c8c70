"""The ``Tensor``: storage + offset + sizes + strides + dtype + device, plus the autograd
fields that are part of core's data model (``requires_grad``, ``grad``, ``grad_fn``,
version counter)."""

from __future__ import annotations

import numpy as np

from . import _dtype, _grad_mode
from ._device import CPU
from ._interface import get_grad_engine, no_autograd_error
from ._interface.backends import device_of_array
from ._native import array_address
from ._size import Size
from ._storage import UntypedStorage

__all__ = ["Tensor"]

_ndarray = np.ndarray


class Tensor:
    """A multi-dimensional array on a device, viewing a flat storage.

    Create tensors with :func:`torch.tensor`, :func:`torch.zeros`, ... rather than
    with this class directly.
    """

    # PyTorch's public home of the class: ``type(x)`` and ``repr(torch.Tensor)`` show
    # ``torch.Tensor``. Pickles name their own rebuild functions, never this path, and
    # ``torch._tensor.Tensor`` stays importable for any that did.
    __module__ = "torch"

    # Slots ending in "_" are filled lazily (None until first asked for): most tensors are
    # temporaries whose storage object, offset and version counter nobody ever reads.
    __slots__ = (
        "_storage_",
        "_offset_",
        "_np",
        "_dtype",
        "_requires_grad",
        "grad",
        "_grad_fn",
        "_version_",
        "_base",
        "_view_version",
        "__weakref__",
        # arbitrary attributes, as on PyTorch's tensors (pyro tags a constrained value
        # with its unconstrained one); the dict is made only when one is set
        "__dict__",
    )

    @property
    def _device(self):
        # the device is the array's: a CPU tensor pays one type check for other backends
        array = self._np
        return CPU if type(array) is _ndarray else device_of_array(array)

    # ---------------------------------------------------------------- construction

    @classmethod
    def _from_array(cls, array: np.ndarray, dtype=None) -> Tensor:
        """Wrap a freshly computed NumPy array (no copy when it is dense)."""
        if array.size == 0 and array.ndim:
            array = _empty_with_contiguous_strides(array)
        elif 1 in array.shape and array.flags.c_contiguous:
            # NumPy lets size-1 dims carry any stride; PyTorch's contiguous strides don't
            array = _with_contiguous_strides(array)
        elif not array.flags.c_contiguous and _dense_flat(array) is None:
            # compact, keeping the dims' memory order (and a device's array type)
            if isinstance(array, _ndarray):
                array = np.array(array, order="K", subok=True)
            else:  # a device array (CuPy's refuses np.array)
                array = array.copy(order="K")
        return make(array, dtype if dtype is not None else _dtype.from_numpy_dtype(array.dtype))

    def _alias(self, array: np.ndarray, offset: int | None = None) -> Tensor:
        """A tensor for ``array``, a NumPy view of this tensor's storage: it shares the
        storage and the version counter. A copy (no shared memory) gets its own storage."""
        if not np.may_share_memory(array, self._np) and (
            offset is None and not np.may_share_memory(array, self._storage._buffer)
        ):
            return Tensor._from_array(array, self._dtype)
        return make_view(self, array, offset)

    @property
    def _storage(self) -> UntypedStorage:
        storage = self._storage_
        if storage is None:
            # only tensors made by _from_array have no storage yet: their array is dense
            # and starts its own memory block
            flat = _dense_flat(self._np)
            storage = self._storage_ = UntypedStorage._wrap(flat.view(np.uint8), self._device)
        return storage

    @property
    def _offset(self) -> int:
        offset = self._offset_
        if offset is None:
            buffer = self._storage._buffer
            start = _address(buffer) if buffer.size else 0
            address = _address(self._np)
            offset = self._offset_ = (address - start) // self._np.itemsize
        return offset

    @property
    def _version(self) -> int:
        # an int, as in PyTorch; the counter itself is the one-element list ``_version_``
        # that views share with their base (None until the first write)
        version = self._version_
        return 0 if version is None else version[0]

    @property
    def grad_fn(self):
        """The node of the graph that made this tensor (``None`` for leaves). A view whose
        base was written in place since its node was made (through the base or another
        view) gets a node reading the base's current history, as in PyTorch."""
        if self._base is not None and self._view_version != self._version_[0]:
            return get_grad_engine().refresh_view(self)
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, fn) -> None:
        self._grad_fn = fn
        if self._base is not None:
            self._view_version = self._version_[0]

    # ----------------------------------------------------------------- metadata

    @property
    def shape(self) -> Size:
        return Size(self._np.shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return Size(self._np.shape)
        return self._np.shape[self._wrap_dim(dim)]

    def dim(self) -> int:
        return self._np.ndim

    ndim = property(dim)

    def numel(self) -> int:
        return self._np.size

    nelement = numel

    def stride(self, dim: int | None = None):
        itemsize = self._np.itemsize
        strides = tuple([s // itemsize for s in self._np.strides])  # (a list: no generator)
        return strides if dim is None else strides[self._wrap_dim(dim)]

    def storage_offset(self) -> int:
        return self._offset

    def is_contiguous(self, memory_format=None) -> bool:
        """Whether the elements are laid out densely in ``memory_format``'s order
        (default ``torch.contiguous_format``; the channels-last formats are False for
        tensors of other ranks; size-1 dims may have any stride)."""
        if memory_format is None:
            return self._np.flags.c_contiguous
        from ._memory_format import format_name, is_contiguous_as

        name = format_name(memory_format, "is_contiguous")
        if name in ("contiguous_format", "preserve_format"):
            return self._np.flags.c_contiguous
        return is_contiguous_as(self._np.shape, self.stride(), name)

    def untyped_storage(self) -> UntypedStorage:
        return self._storage

    def data_ptr(self) -> int:
        return self._storage.data_ptr() + self._offset * self._np.itemsize

    def element_size(self) -> int:
        return self._np.itemsize

    def share_memory_(self) -> Tensor:
        """Move this tensor's storage into shared memory (no-op when it already is), so
        that processes it is sent to see one buffer. The data pointer changes; views of
        the storage follow. A no-op on a CUDA device (as in PyTorch: device memory is
        shared between processes by IPC handles, not moved)."""
        if type(self._np) is not _ndarray and self._device.type == "cuda":
            return self
        from ._shared_memory import share_tensor

        share_tensor(self)
        return self

    def is_shared(self) -> bool:
        """Whether this tensor's storage lives in shared memory (always for a CUDA
        tensor, as in PyTorch)."""
        if type(self._np) is not _ndarray and self._device.type == "cuda":
            return True
        from ._shared_memory import is_shared

        return is_shared(self._storage)

    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        return self._device

    @property
    def is_cuda(self) -> bool:
        return self._device.type == "cuda"

    # PyTorch's other device predicates (libraries test them: torchmetrics asks is_mps)
    is_ipu = property(lambda self: self._device.type == "ipu")
    is_maia = property(lambda self: self._device.type == "maia")
    is_meta = property(lambda self: self._device.type == "meta")
    is_mps = property(lambda self: self._device.type == "mps")
    is_mtia = property(lambda self: self._device.type == "mtia")
    is_vulkan = property(lambda self: self._device.type == "vulkan")
    is_xla = property(lambda self: self._device.type == "xla")
    is_xpu = property(lambda self: self._device.type == "xpu")
    # layouts this project does not have
    is_mkldnn = property(lambda self: False)
    is_nested = property(lambda self: False)
    is_quantized = property(lambda self: False)

    def is_floating_point(self) -> bool:
        return self._dtype.is_floating_point

    def is_complex(self) -> bool:
        return self._dtype.is_complex

    def _wrap_dim(self, dim: int) -> int:
        ndim = max(self._np.ndim, 1)
        if not -ndim <= dim < ndim:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], "
                f"but got {dim})"
            )
        return dim % ndim

    # ------------------------------------------------------------------ autograd

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if self.grad_fn is not None and not requires_grad:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        if requires_grad:
            if not (self._dtype.is_floating_point or self._dtype.is_complex):
                raise RuntimeError(
                    "only Tensors of floating point and complex dtype can require gradients"
                )
            if not get_grad_engine().available:
                raise no_autograd_error()
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulate the gradient of this tensor into the ``.grad`` of graph leaves
        (needs torch-autograd)."""
        get_grad_engine().backward((self,), (gradient,), retain_graph, create_graph, inputs)

    def register_hook(self, hook):
        """Call ``hook(grad)`` each time the gradient of this tensor is computed; a
        non-None result replaces the gradient. Returns a handle whose ``remove()``
        unregisters it (needs torch-autograd)."""
        return get_grad_engine().register_hook(self, hook)

    def retain_grad(self) -> None:
        """Fill ``.grad`` of this non-leaf tensor during backward (needs torch-autograd)."""
        get_grad_engine().retain_grad(self)

    @property
    def retains_grad(self) -> bool:
        return get_grad_engine().retains_grad(self)

    def detach_(self) -> Tensor:
        """Cut this tensor out of the autograd graph in place: it becomes a leaf."""
        if self._base is not None and (self._base._requires_grad or self._requires_grad):
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self.grad_fn = None
        self._requires_grad = False
        return self

    def detach(self) -> Tensor:
        """A tensor sharing this one's storage, cut out of the autograd graph."""
        view = self._alias(self._np.view())
        view._base = None
        return view

    @property
    def volatile(self) -> bool:
        """Always False: removed in 0.4 (use ``torch.no_grad()``); reading or setting it
        warns."""
        from ._python_map import warn_volatile_read

        warn_volatile_read()
        return False

    @volatile.setter
    def volatile(self, value) -> None:
        from ._python_map import warn_volatile_set

        warn_volatile_set()

    @property
    def data(self) -> Tensor:
        # Shares memory but not the version counter: changes through .data are invisible
        # to autograd, as the 0.4 migration guide describes.
        view = self._alias(self._np.view())
        view._version_ = None
        view._base = None
        return view

    # ------------------------------------------- Python callables over elements (CPU)

    def apply_(self, callable) -> Tensor:
        """Replace each element ``x`` by ``callable(x)`` in place (slow: a Python call per
        element; CPU only)."""
        from ._python_map import apply_

        return apply_(self, callable)

    def map_(self, tensor, callable) -> Tensor:
        """Replace each element ``x`` by ``callable(x, y)``, ``y`` the matching element of
        ``tensor`` (broadcast to this shape), in place; CPU only."""
        from ._python_map import map_

        return map_(self, tensor, callable)

    def map2_(self, x, y, callable) -> Tensor:
        """Like :meth:`map_` with two tensors: ``callable(self_i, x_i, y_i)``."""
        from ._python_map import map2_

        return map2_(self, x, y, callable)

    # --------------------------------------------------------------- conversion

    def numpy(self, *, force: bool = False) -> np.ndarray:
        if self._requires_grad and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use "
                "tensor.detach().numpy() instead."
            )
        if self._dtype._limited == "float8":  # NumPy itself has no float8 type
            raise TypeError(f"Got unsupported ScalarType {self._dtype._legacy[:-6]}")
        array = self._np
        if type(array) is not _ndarray and self._device.type != "cpu":
            if force:
                return self.cpu()._np
            raise TypeError(
                f"can't convert {self._device} device type tensor to numpy. Use Tensor.cpu() "
                "to copy the tensor to host memory first."
            )
        return array

    def __array__(self, dtype=None, copy=None):
        array = self._np
        if type(array) is not _ndarray and self._device.type != "cpu":
            array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def tolist(self):
        if self._dtype is _dtype.bfloat16:
            return self._np.astype(np.float32).tolist()
        return self._np.tolist()

    def item(self):
        if self._np.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._np.size} elements cannot be converted to Scalar"
            )
        value = self._np.reshape(())[()]
        return float(value) if self._dtype is _dtype.bfloat16 else value.item()

    def __float__(self) -> float:
        if self._requires_grad and _grad_mode._state.enabled:
            _warn_scalar_conversion()
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def __complex__(self) -> complex:
        if self._requires_grad and _grad_mode._state.enabled:
            _warn_scalar_conversion()
        return complex(self._scalar())

    def _scalar(self):
        """``item()`` for the Python conversions, which raise ValueError on a size != 1."""
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __format__(self, format_spec: str) -> str:
        # a 0-dim tensor formats as the Python number it holds; others as their repr
        if self.dim() == 0:
            return format(self.item(), format_spec)
        return object.__format__(self, format_spec)

    def __bool__(self) -> bool:
        if self._np.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._np.reshape(())[()])

    def __len__(self) -> int:
        if self._np.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._np.shape[0]

    def __iter__(self):
        if self._np.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._np.shape[0]))

    def __repr__(self) -> str:
        from ._format import tensor_repr

        return tensor_repr(self, _dtype.get_default_dtype())

    def __hash__(self) -> int:
        return id(self)

    def _bump_version(self) -> None:
        version = self._version_
        if version is None:
            self._version_ = [1]
        else:
            version[0] += 1


def make(array: np.ndarray, dtype) -> Tensor:
    """The hot-path constructor: wrap a fresh, C-contiguous (or otherwise dense) result."""
    self = _new_tensor(Tensor)
    self._storage_ = None
    self._offset_ = 0
    self._np = array
    self._dtype = dtype
    self._requires_grad = False
    self.grad = None
    self._grad_fn = None
    self._version_ = None
    self._base = None
    self._view_version = 0
    return self


def make_view(base: Tensor, array: np.ndarray, offset: int | None = None) -> Tensor:
    """A tensor for ``array``, known to view ``base``'s storage; the storage offset is
    worked out only when someone asks for it."""
    view = _new_tensor(Tensor)
    view._storage_ = base._storage
    view._offset_ = offset
    view._np = array
    view._dtype = base._dtype
    view._requires_grad = False
    view.grad = None
    view._grad_fn = None
    version = base._version_
    if version is None:
        version = base._version_ = [0]
    view._version_ = version  # views share their base's version counter
    view._view_version = version[0]
    base_of_base = base._base
    view._base = base if base_of_base is None else base_of_base
    return view


_new_tensor = object.__new__


def _with_contiguous_strides(array: np.ndarray) -> np.ndarray:
    strides, step = [], array.itemsize
    for size in reversed(array.shape):
        strides.append(step)
        step *= size
    strides = tuple(reversed(strides))
    if strides == array.strides:
        return array
    # subok: a device's array type (see torch._interface.backends) is kept
    return restrided(array, array.shape, strides, subok=True)


def _empty_with_contiguous_strides(array: np.ndarray) -> np.ndarray:
    # NumPy gives 0 strides to empty arrays; PyTorch's contiguous strides treat a size-0
    # dim as size 1
    strides, step = [], array.itemsize
    for size in reversed(array.shape):
        strides.append(step)
        step *= max(size, 1)
    return restrided(array, array.shape, tuple(reversed(strides)), subok=True)


_SAME_SIZE_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def restrided(array: np.ndarray, shape, strides, **options) -> np.ndarray:
    """``np.lib.stride_tricks.as_strided``, also for ml_dtypes' types (float8_e5m2, ...),
    whose array-interface type string NumPy cannot read back: those go through a view
    as unsigned integers of the same size."""
    if not isinstance(array, _ndarray):  # a device array: its array module's as_strided
        from ._interface.backends import backend_of_array

        tricks = backend_of_array(array).array_module.lib.stride_tricks
        return tricks.as_strided(array, shape, strides)
    as_strided = np.lib.stride_tricks.as_strided
    if array.dtype.isbuiltin == 1 or array.dtype.kind == "V":
        return as_strided(array, shape, strides, **options)
    bits = array.view(_SAME_SIZE_UINT[array.itemsize])
    return as_strided(bits, shape, strides, **options).view(array.dtype)


def _address(array) -> int:
    """Where ``array``'s first element is (a device array, CuPy's: its data pointer)."""
    if isinstance(array, _ndarray):
        return array_address(array)
    return array.data.ptr


def _dense_flat(array: np.ndarray):
    """The 1-D array of the memory that ``array`` covers exactly, or None when ``array``
    has gaps, overlaps or negative strides."""
    if array.flags.c_contiguous:
        return array.reshape(-1)
    if any(s < 0 for s in array.strides):
        return None
    flat = array.ravel(order="K")
    return flat if np.may_share_memory(flat, array) else None


def _is_grad_recording(*tensors) -> bool:
    """True when the engine must record an op on these inputs (the only autograd check on
    the hot path)."""
    if not _grad_mode._state.enabled:
        return False
    return any(t._requires_grad for t in tensors)


_SCALAR_WARNED = [False]


def _warn_scalar_conversion() -> None:
    """float()/complex() of a tensor that requires grad warns once per process."""
    if _SCALAR_WARNED[0]:
        return
    _SCALAR_WARNED[0] = True
    import warnings

    warnings.warn(
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
        "behavior.\nConsider using tensor.detach() first.",
        UserWarning,
        stacklevel=3,
    )
