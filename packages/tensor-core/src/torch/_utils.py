"""Functions that checkpoints name to rebuild tensors and parameters.

PyTorch's pickles call ``torch._utils._rebuild_tensor_v2(storage, offset, size, stride,
...)`` and friends; the same names live here so its files load and files written here
load there. Every argument comes from a file that may be hostile, so the geometry is
checked in full before any view of the storage is made.
"""

from __future__ import annotations

import numpy as np

from . import _dtype
from ._interface import pickling
from ._interface.backends import strided_view
from ._serialization.limits import MAX_DIMS, bounded_repr
from ._storage import TypedStorage, UntypedStorage
from ._tensor import Tensor

__all__: list[str] = []


def _element_size(dtype) -> int:
    """Bytes per element of ``dtype``."""
    return dtype.itemsize


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _check_geometry(nbytes: int, itemsize: int, offset, size, stride) -> tuple:
    """``(offset, size, stride)`` as Python ints once they are known to fit the storage."""
    if not _is_int(offset):
        raise TypeError(f"storage offset must be an int, got {type(offset).__name__}")
    if not isinstance(size, (tuple, list)) or not isinstance(stride, (tuple, list)):
        raise TypeError("size and stride must be tuples of ints")
    if len(size) != len(stride):
        raise RuntimeError(f"size {list(size)} and stride {list(stride)} have different lengths")
    if len(size) > MAX_DIMS:
        raise RuntimeError(f"a tensor of {len(size)} dims is over the limit of {MAX_DIMS}")
    if not all(_is_int(v) for v in size) or not all(_is_int(v) for v in stride):
        raise TypeError("size and stride must be tuples of ints")
    offset, size, stride = int(offset), tuple(map(int, size)), tuple(map(int, stride))
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension: {list(size)}")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"tensor strides must be non-negative, got {list(stride)}")
    if 0 not in size:
        needed = (offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1) * itemsize
        if needed > nbytes:
            raise RuntimeError(
                f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
                f"{offset}, and itemsize {itemsize} requiring a storage size of {needed} are "
                f"out of bounds for storage of size {nbytes}"
            )
    return offset, size, stride


def _tensor_on_storage(untyped: UntypedStorage, dtype, offset, size, stride) -> Tensor:
    """A tensor viewing ``untyped`` with the given geometry (in elements of ``dtype``)."""
    if not isinstance(untyped, UntypedStorage):
        raise TypeError(f"expected a storage, got {type(untyped).__name__}")
    if not isinstance(dtype, _dtype.dtype):
        raise TypeError(f"expected a torch.dtype, got {type(dtype).__name__}")
    if dtype is _dtype.complex32:
        # PyTorch stores 4-byte elements; this project holds complex32 as complex64
        raise RuntimeError("torch.load: complex32 tensors are not supported yet")
    itemsize = dtype.itemsize
    offset, size, stride = _check_geometry(untyped.nbytes(), itemsize, offset, size, stride)
    buffer = untyped._buffer if 0 not in size else untyped._buffer[:0]
    array = strided_view(
        size,
        dtype.np_dtype,
        buffer,
        offset * itemsize if 0 not in size else 0,
        tuple(s * itemsize for s in stride),
    )
    # an empty view of the storage's own buffer: on its device, whichever is current (a
    # device's arrays refuse host ones, and arrays of another device, beside them)
    holder = Tensor._from_array(untyped._buffer[:0].view(dtype.np_dtype), dtype)
    holder._storage_ = untyped
    tensor = holder._alias(array, offset)
    tensor._base = None  # a loaded tensor is not a view of anything, as in PyTorch
    return tensor


def _rebuild_tensor(storage, storage_offset, size, stride) -> Tensor:
    """A tensor viewing a typed ``storage`` (its dtype is the storage's)."""
    if not isinstance(storage, TypedStorage):
        raise TypeError(f"expected a typed storage, got {type(storage).__name__}")
    return _tensor_on_storage(storage._untyped, storage.dtype, storage_offset, size, stride)


def _set_requires_grad(tensor: Tensor, requires_grad) -> Tensor:
    if not isinstance(requires_grad, bool):
        raise TypeError(f"requires_grad must be a bool, got {type(requires_grad).__name__}")
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def _rebuild_tensor_v2(
    storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None
) -> Tensor:
    """The tensor of a checkpoint: a view of ``storage`` plus its ``requires_grad`` flag.
    Backward hooks are never restored (PyTorch does not save them either)."""
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    return _set_requires_grad(tensor, requires_grad)


def _rebuild_tensor_v3(
    storage, storage_offset, size, stride, requires_grad, backward_hooks, dtype, metadata=None
) -> Tensor:
    """As ``_rebuild_tensor_v2`` for dtypes without a typed storage class: the storage
    is untyped and the dtype is given."""
    untyped = storage._untyped if isinstance(storage, TypedStorage) else storage
    tensor = _tensor_on_storage(untyped, dtype, storage_offset, size, stride)
    return _set_requires_grad(tensor, requires_grad)


def _parameter_class():
    """The class PyTorch's checkpoints call ``torch.nn.parameter.Parameter``: torch-nn's
    when installed (it registers it), else None."""
    return pickling.find_global("torch.nn.parameter", "Parameter")


def _rebuild_parameter(data, requires_grad, backward_hooks) -> Tensor:
    """An ``nn.Parameter`` around ``data`` (a plain tensor without torch-nn)."""
    if not isinstance(data, Tensor):
        raise TypeError(f"Parameter data must be a Tensor, got {type(data).__name__}")
    if not isinstance(requires_grad, bool):
        raise TypeError(f"requires_grad must be a bool, got {type(requires_grad).__name__}")
    parameter = _parameter_class()
    if parameter is None:
        return _set_requires_grad(data, requires_grad)
    return parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state) -> Tensor:
    """``_rebuild_parameter`` for a parameter that carried Python attributes."""
    result = _rebuild_parameter(data, requires_grad, backward_hooks)
    _apply_state(result, state)
    return result


def _apply_state(obj, state) -> None:
    """Set the Python attributes a checkpoint recorded for a tensor (see
    ``torch._serialization.tensor_state``: private fields are refused)."""
    from ._serialization.tensor_state import apply_tensor_state

    apply_tensor_state(obj, state)


def _rebuild_from_type_v2(func, new_type, args, state):
    """A tensor of class ``new_type`` (a Tensor subclass) built by ``func(*args)``, where
    ``func`` is one of the tensor rebuilders above (a file cannot name another callable
    here to get around what weights_only loading allows it to call)."""
    if func not in _TENSOR_REBUILDERS:
        raise TypeError(f"_rebuild_from_type_v2: {bounded_repr(func)} is not a tensor rebuilder")
    result = func(*args)
    if not isinstance(new_type, type) or not issubclass(new_type, Tensor):
        raise TypeError(f"{bounded_repr(new_type)} is not a Tensor class")
    if type(result) is not new_type:
        subclass = object.__new__(new_type)
        for slot in Tensor.__slots__:
            if slot != "__weakref__":
                object.__setattr__(subclass, slot, getattr(result, slot))
        result = subclass
    _apply_state(result, state)
    return result


_TENSOR_REBUILDERS = (
    _rebuild_tensor,
    _rebuild_tensor_v2,
    _rebuild_tensor_v3,
    _rebuild_parameter,
    _rebuild_parameter_with_state,
)
