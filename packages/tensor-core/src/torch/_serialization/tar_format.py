"""The tar checkpoint format of the earliest PyTorch (0.1.x), read only.

A tar archive with four members:

- ``sys_info``: a pickle (unused here);
- ``storages``: pickle(count), then per storage pickle((key, location, storage class)),
  int64 numel and the raw bytes; then pickle of views ``[(key, root key, offset, numel)]``;
- ``tensors``: pickle(count), then per tensor pickle((key, storage key, tensor class)),
  int32 ndim, 4 padding bytes, ndim int64 sizes, ndim int64 strides, int64 offset;
- ``pickle``: the object graph, naming storages and tensors by key as persistent ids.

Its pickles can name anything, so it is read only with ``weights_only=False``.
"""

from __future__ import annotations

import struct

import numpy as np

from .. import _utils
from .._storage import TypedStorage, UntypedStorage
from . import location
from .limits import bounded_repr
from .sources import BufferSource, Cursor, truncated
from .storage_types import dtype_of_storage_class

__all__ = ["is_tar_checkpoint", "load_tar"]


def is_tar_checkpoint(cursor: Cursor) -> bool:
    import tarfile  # only old files need it: kept out of `import torch`

    start = cursor.tell()
    try:
        with tarfile.open(fileobj=cursor, mode="r:") as tar:
            return "storages" in tar.getnames()
    except (tarfile.TarError, EOFError, ValueError, OSError, UnicodeError):
        return False
    finally:
        cursor.seek(start)


def _member(tar, name: str) -> Cursor:
    try:
        info = tar.getmember(name)
    except KeyError:
        raise RuntimeError(f"torch.load: tar checkpoint without a '{name}' member") from None
    extracted = tar.extractfile(info)
    if extracted is None:
        raise RuntimeError(f"torch.load: tar member '{name}' is not a file")
    return Cursor(BufferSource(extracted.read()))


def _read_storages(cursor: Cursor, unpickle_stream, map_location) -> dict:
    objects: dict = {}
    count = unpickle_stream(cursor, None)
    for _ in range(_as_count(count)):
        key, tag, storage_class = unpickle_stream(cursor, None)
        dtype = dtype_of_storage_class(storage_class)
        (numel,) = struct.unpack("<q", cursor.read_exact(8, "storage size"))
        if numel < 0 or numel * dtype.itemsize > cursor.remaining:
            raise truncated(f"storage {key} of {numel} elements")
        buffer = np.empty(numel * dtype.itemsize, np.uint8)
        cursor.read_array_into(buffer, f"storage {key}")
        untyped = location.restore(UntypedStorage._wrap(buffer), tag, map_location)
        objects[_key(key)] = TypedStorage._wrap(untyped, dtype)
    for target, root_key, offset, numel in unpickle_stream(cursor, None):
        root = objects[_key(root_key)]
        size = root.dtype.itemsize
        if offset < 0 or numel < 0 or (offset + numel) * size > root.nbytes():
            raise RuntimeError("torch.load: a storage view runs past its storage")
        part = root._untyped._buffer[offset * size : (offset + numel) * size]
        objects[_key(target)] = TypedStorage._wrap(UntypedStorage._wrap(part), root.dtype)
    return objects


def _read_tensors(cursor: Cursor, unpickle_stream, objects: dict) -> None:
    count = unpickle_stream(cursor, None)
    for _ in range(_as_count(count)):
        key, storage_key, _tensor_class = unpickle_stream(cursor, None)
        storage = objects[_key(storage_key)]
        (ndim,) = struct.unpack("<i", cursor.read_exact(4, "tensor dims"))
        cursor.read_exact(4, "tensor dims")  # ndim was once written as 8 bytes
        if not 0 <= ndim <= 64:
            raise RuntimeError(f"torch.load: tensor with {ndim} dims")
        sizes = struct.unpack(f"<{ndim}q", cursor.read_exact(8 * ndim, "tensor sizes"))
        strides = struct.unpack(f"<{ndim}q", cursor.read_exact(8 * ndim, "tensor strides"))
        (offset,) = struct.unpack("<q", cursor.read_exact(8, "tensor offset"))
        objects[_key(key)] = _utils._rebuild_tensor(storage, offset, sizes, strides)


def _key(key):
    # keys were C pointers saved as ints; the graph may spell them as strings
    return int(key) if isinstance(key, (str, bytes)) else key


def _as_count(count) -> int:
    if type(count) is not int or count < 0:
        raise RuntimeError(f"torch.load: bad count {bounded_repr(count)} in a tar checkpoint")
    return count


def load_tar(cursor: Cursor, unpickle_stream, map_location):
    """The object of a tar checkpoint (``unpickle_stream`` must be the full unpickler)."""
    import tarfile

    with tarfile.open(fileobj=cursor, mode="r:") as tar:
        objects = _read_storages(_member(tar, "storages"), unpickle_stream, map_location)
        _read_tensors(_member(tar, "tensors"), unpickle_stream, objects)
        graph = _member(tar, "pickle")

    def persistent_load(saved_id):
        if isinstance(saved_id, tuple):
            return saved_id[0]  # a module class saved with its source: the class itself
        return objects[_key(saved_id)]

    return unpickle_stream(graph, persistent_load)
