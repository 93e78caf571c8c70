"""The typed storage classes PyTorch names in its checkpoints (``torch.FloatStorage``,
``torch.LongStorage``, ...).

A checkpoint refers to each storage by one of these classes, which is how the element
type of its bytes is recorded. Here they are thin subclasses of ``TypedStorage`` whose
class fixes the dtype; ``torch.FloatStorage(3)`` makes a zeroed storage of three floats.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from .._storage import TypedStorage, UntypedStorage
from .limits import bounded_repr

__all__ = [
    "LEGACY_STORAGES",
    "storage_class_for",
    "dtype_of_storage_class",
    "dtype_of_storage_name",
]


def _new_storage(cls, *args, **kwargs):
    """``FloatStorage()``, ``FloatStorage(n)`` or ``FloatStorage([values])``."""
    dtype = cls._storage_dtype
    if kwargs or len(args) > 1:
        raise TypeError(f"{cls.__name__}(): expected a size or a sequence of values")
    if not args:
        values = np.zeros(0, dtype.np_dtype)
    elif isinstance(args[0], int) and not isinstance(args[0], bool):
        if args[0] < 0:
            raise RuntimeError(f"{cls.__name__}(): size must be non-negative, got {args[0]}")
        values = np.zeros(args[0], dtype.np_dtype)
    else:
        values = np.asarray(list(args[0]), dtype.np_dtype)
    untyped = UntypedStorage._wrap(np.ascontiguousarray(values).view(np.uint8).reshape(-1))
    storage = object.__new__(cls)
    storage._untyped = untyped
    storage.dtype = dtype
    return storage


def _make_class(dtype) -> type:
    name = dtype._legacy[: -len("Tensor")] + "Storage"
    cls = type(
        name,
        (TypedStorage,),
        {
            "__slots__": (),
            "__module__": "torch",
            "__new__": _new_storage,
            "_storage_dtype": dtype,
            "__doc__": f"A storage of {dtype} elements (the name PyTorch's checkpoints use).",
        },
    )
    return cls


# complex32, uint16/32/64 and the float8 types have no legacy class in PyTorch: their
# storages are written untyped, with the dtype beside them (_rebuild_tensor_v3)
LEGACY_STORAGES: dict[str, type] = {
    cls.__name__: cls for cls in (_make_class(d) for d in _dtype.CLASSIC_DTYPES)
}
_BY_DTYPE = {cls._storage_dtype: cls for cls in LEGACY_STORAGES.values()}


def storage_class_for(dtype):
    """The legacy class naming ``dtype``'s storages, or None (complex32)."""
    return _BY_DTYPE.get(dtype)


def dtype_of_storage_class(cls):
    """The element type a storage class in a checkpoint stands for (uint8 when untyped)."""
    if cls is UntypedStorage:
        return _dtype.uint8
    dtype = getattr(cls, "_storage_dtype", None) if isinstance(cls, type) else None
    if dtype is None:
        raise TypeError(f"{bounded_repr(cls)} is not a storage class")
    return dtype


def dtype_of_storage_name(name: str):
    """The element type of the storage class called ``name`` (``"FloatStorage"``)."""
    cls = LEGACY_STORAGES.get(name)
    if cls is None:
        raise KeyError(f'pickle storage type "{name}" is not recognized')
    return cls._storage_dtype
