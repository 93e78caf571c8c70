"""The pickler ``torch.save`` uses: it writes PyTorch's public names, so real PyTorch can
read the result, and it turns every storage into a persistent id, so each storage is
written once and views saved together share it again when loaded.

It is the pure-Python pickler subclassed: the pickle of a checkpoint holds only the
object graph (tensor bytes go elsewhere), so its speed does not matter, and the Python
implementation lets globals be written under the names PyTorch uses.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict

from .. import _dtype, _layout, _utils
from .._device import device
from .._interface import pickling
from .._interface.backends import backends
from .._size import Size
from .._storage import TypedStorage, UntypedStorage
from .._tensor import Tensor
from . import names as _names
from .location import location_tag
from .storage_types import storage_class_for

__all__ = ["CheckpointPickler", "StorageTable"]

# our objects -> the (module, name) PyTorch knows them by
_PUBLIC_NAMES = {
    Size: ("torch", "Size"),
    device: ("torch", "device"),
    Tensor: ("torch", "Tensor"),
    UntypedStorage: ("torch.storage", "UntypedStorage"),
    TypedStorage: ("torch.storage", "TypedStorage"),
    _utils._rebuild_from_type_v2: ("torch._tensor", "_rebuild_from_type_v2"),
}


class _StoredStorage:
    __slots__ = ("untyped", "dtype", "key")

    def __init__(self, untyped, dtype, key):
        self.untyped, self.dtype, self.key = untyped, dtype, key


class StorageTable:
    """The storages met while pickling, each under one key, in the order first met."""

    def __init__(self, legacy: bool = False):
        self._by_id: dict[int, _StoredStorage] = {}
        self.entries: list[_StoredStorage] = []
        self._legacy = legacy  # legacy ids carry a sixth field (view metadata)

    def persistent_id(self, storage) -> tuple:
        if isinstance(storage, TypedStorage):
            untyped, dtype = storage._untyped, storage.dtype
            storage_type = storage_class_for(dtype) or UntypedStorage
        else:
            untyped, dtype, storage_type = storage, _dtype.uint8, UntypedStorage
        if untyped.device.type != "cpu" and untyped.device.type not in backends():
            raise RuntimeError(f"torch.save: cannot save a storage on {untyped.device}")
        stored = self._by_id.get(id(untyped))
        if stored is None:
            stored = _StoredStorage(untyped, dtype, str(len(self.entries)))
            self._by_id[id(untyped)] = stored
            self.entries.append(stored)
        elif stored.dtype is not dtype:
            raise RuntimeError(
                "Cannot save multiple tensors or storages that view the same data as "
                "different types"
            )
        itemsize = dtype.itemsize if storage_type is not UntypedStorage else 1
        numel = untyped.nbytes() // itemsize
        pid = ("storage", storage_type, stored.key, location_tag(untyped), numel)
        return pid + (None,) if self._legacy else pid


def _parameter_type():
    # not loading torch-nn: without it imported, no tensor can be a Parameter
    return pickling.find_global("torch.nn.parameter", "Parameter", load_owner=False)


class CheckpointPickler(pickle._Pickler):
    """Pickles a checkpoint's object graph; storages go to ``storages``."""

    dispatch = pickle._Pickler.dispatch.copy()

    def __init__(self, file, protocol: int, storages: StorageTable):
        super().__init__(file, protocol)
        self._storages = storages

    def persistent_id(self, obj):
        if isinstance(obj, (TypedStorage, UntypedStorage)):
            return self._storages.persistent_id(obj)
        return None

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return _reduce_tensor(obj)
        return NotImplemented

    def save_global(self, obj, name=None):
        public = _PUBLIC_NAMES.get(obj) if _hashable(obj) else None
        if public is None and name is None:
            public = _names.pytorch_name(obj)
        if public is None:
            return super().save_global(obj, name)
        self.write_global(obj, *public)

    def write_global(self, obj, module: str, name: str) -> None:
        """Write a reference to ``module.name`` standing for ``obj``."""
        if self.proto >= 4:
            self.save(module)
            self.save(name)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + module.encode() + b"\n" + name.encode() + b"\n")
        self.memoize(obj)

    def _save_dtype(self, obj) -> None:
        self.write_global(obj, "torch", obj.name)

    def _save_layout(self, obj) -> None:
        self.write_global(obj, "torch", obj.name)

    def _save_device(self, obj) -> None:
        args = (obj.type,) if obj.index is None else (obj.type, obj.index)
        self.save_reduce(device, args, obj=obj)

    dispatch[_dtype.dtype] = _save_dtype
    dispatch[_layout.layout] = _save_layout
    dispatch[_layout.memory_format] = _save_layout
    dispatch[device] = _save_device


def _hashable(obj) -> bool:
    try:
        hash(obj)
    except TypeError:
        return False
    return True


def _reduce_tensor(tensor: Tensor):
    """How a tensor is pickled: PyTorch's rebuild call with its storage as a persistent id."""
    if tensor.layout is not _layout.strided:
        raise RuntimeError(f"torch.save: {tensor.layout} tensors are not supported yet")
    parameter = _parameter_type()
    if parameter is not None and type(tensor) is parameter:
        plain = Tensor.detach(tensor)
        return (_utils._rebuild_parameter, (plain, tensor.requires_grad, OrderedDict()))
    rebuild = _tensor_rebuild_args(tensor)
    if type(tensor) is not Tensor:
        return (_utils._rebuild_from_type_v2, (rebuild[0], type(tensor), rebuild[1], None))
    return rebuild


def _tensor_rebuild_args(tensor: Tensor):
    dtype = tensor._dtype
    if dtype is _dtype.complex32:
        # held as complex64 here: PyTorch would read its 8-byte elements as 4-byte ones
        raise RuntimeError("torch.save: complex32 tensors cannot be saved yet")
    storage = TypedStorage._wrap(tensor._storage, dtype)
    geometry = (tensor.storage_offset(), tuple(tensor.shape), tuple(tensor.stride()))
    hooks = OrderedDict()
    if storage_class_for(dtype) is None:  # no typed class: the dtype travels separately
        args = (tensor._storage, *geometry, tensor.requires_grad, hooks, dtype)
        return (_utils._rebuild_tensor_v3, args)
    return (_utils._rebuild_tensor_v2, (storage, *geometry, tensor.requires_grad, hooks))
