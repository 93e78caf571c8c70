"""The ``Tensor``: storage + offset + sizes + strides + dtype + device, plus the autograd
fields that are part of core's data model (``requires_grad``, ``grad``, ``grad_fn``,
version counter)."""

from __future__ import annotations

import numpy as np

from . import _dtype, _grad_mode
from ._device import CPU
from ._interface import get_grad_engine, no_autograd_error
from ._size import Size
from ._storage import UntypedStorage

__all__ = ["Tensor"]


class Tensor:
    """A multi-dimensional array on a device, viewing a flat storage.

    Create tensors with :func:`torch.tensor`, :func:`torch.zeros`, ... rather than
    with this class directly.
    """

    __slots__ = (
        "_storage",
        "_offset",
        "_np",
        "_dtype",
        "_device",
        "_requires_grad",
        "grad",
        "grad_fn",
        "_version",
        "__weakref__",
    )

    # ---------------------------------------------------------------- construction

    @classmethod
    def _from_array(cls, array: np.ndarray, dtype=None) -> Tensor:
        """Wrap a freshly computed NumPy array without copying when it is C-contiguous."""
        if not array.flags.c_contiguous:
            array = np.ascontiguousarray(array)
        self = object.__new__(cls)
        self._storage = UntypedStorage._wrap(array.reshape(-1).view(np.uint8))
        self._offset = 0
        self._np = array
        self._dtype = dtype if dtype is not None else _dtype.from_numpy_dtype(array.dtype)
        self._device = CPU
        self._requires_grad = False
        self.grad = None
        self.grad_fn = None
        self._version = [0]
        return self

    def _view_from_array(self, array: np.ndarray) -> Tensor:
        """A tensor for ``array``, which NumPy computed from ``self._np``: a view sharing
        this tensor's storage when ``array`` lies in it, else a new tensor."""
        buffer = self._storage._buffer
        if not np.may_share_memory(array, buffer):
            return Tensor._from_array(array, self._dtype)
        view = object.__new__(Tensor)
        view._storage = self._storage
        start = buffer.ctypes.data
        view._offset = (array.__array_interface__["data"][0] - start) // array.itemsize
        view._np = array
        view._dtype = self._dtype
        view._device = self._device
        view._requires_grad = False
        view.grad = None
        view.grad_fn = None
        view._version = self._version  # views share their base's version counter
        return view

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
        strides = tuple(s // itemsize for s in self._np.strides)
        return strides if dim is None else strides[self._wrap_dim(dim)]

    def storage_offset(self) -> int:
        return self._offset

    def is_contiguous(self) -> bool:
        return self._np.flags.c_contiguous

    def untyped_storage(self) -> UntypedStorage:
        return self._storage

    def data_ptr(self) -> int:
        return self._storage.data_ptr() + self._offset * self._np.itemsize

    def element_size(self) -> int:
        return self._np.itemsize

    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        return self._device

    @property
    def is_cuda(self) -> bool:
        return self._device.type == "cuda"

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

    def detach(self) -> Tensor:
        """A tensor sharing this one's storage, cut out of the autograd graph."""
        view = self._view_from_array(self._np.view())
        view._version = self._version
        return view

    @property
    def data(self) -> Tensor:
        # Shares memory but not the version counter: changes through .data are invisible
        # to autograd, as the 0.4 migration guide describes.
        view = self._view_from_array(self._np.view())
        view._version = [0]
        return view

    # --------------------------------------------------------------- conversion

    def numpy(self, *, force: bool = False) -> np.ndarray:
        if self._requires_grad and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use "
                "tensor.detach().numpy() instead."
            )
        return self._np

    def __array__(self, dtype=None, copy=None):
        return self._np if dtype is None else self._np.astype(dtype)

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
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

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

    def __getitem__(self, index):
        if isinstance(index, Tensor):
            index = index._np
        elif isinstance(index, tuple):
            index = tuple(i._np if isinstance(i, Tensor) else i for i in index)
        return self._view_from_array(self._np[index])

    def __repr__(self) -> str:
        from ._format import tensor_repr

        return tensor_repr(self, _dtype.get_default_dtype())

    def __hash__(self) -> int:
        return id(self)

    def _bump_version(self) -> None:
        self._version[0] += 1


def _is_grad_recording(*tensors) -> bool:
    """True when the engine must record an op on these inputs (the only autograd check on
    the hot path)."""
    if not _grad_mode._state.enabled:
        return False
    return any(t._requires_grad for t in tensors)
