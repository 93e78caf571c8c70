"""The pickle-sequence format of PyTorch 0.4 - 1.5 (``_use_new_zipfile_serialization=False``).

One stream of consecutive pickles, then raw storage bytes::

    pickle(MAGIC_NUMBER) pickle(1001) pickle(sys_info)
    pickle(object graph)        storages as ("storage", class, key, location, numel, view)
    pickle(list of keys)
    for each key: int64 numel, little-endian, then numel * element size bytes

Loading allocates each storage when the graph names it and fills it after the key
list, so every claimed size is checked against the bytes the file has left first.
"""

from __future__ import annotations

import io
import pickle
import struct

import numpy as np

from .._storage import TypedStorage, UntypedStorage
from . import location
from .limits import bounded_repr
from .pickler import CheckpointPickler, StorageTable
from .sources import Cursor, truncated
from .zip_format import check_pid

__all__ = ["MAGIC_NUMBER", "PROTOCOL_VERSION", "save_legacy", "load_legacy"]

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001
_SYS_INFO = {
    "protocol_version": PROTOCOL_VERSION,
    "little_endian": True,
    "type_sizes": {"short": 2, "int": 4, "long": 4},
}


def save_legacy(obj, file, protocol: int) -> None:
    """Write ``obj`` in the pickle-sequence format to the binary ``file``."""
    for header in (MAGIC_NUMBER, PROTOCOL_VERSION, _SYS_INFO):
        pickle.dump(header, file, protocol=protocol)
    table = StorageTable(legacy=True)
    graph = io.BytesIO()
    CheckpointPickler(graph, protocol, table).dump(obj)
    file.write(graph.getbuffer())
    by_key = {stored.key: stored for stored in table.entries}
    keys = sorted(by_key)
    pickle.dump(keys, file, protocol=protocol)
    for key in keys:
        stored = by_key[key]
        data = np.ascontiguousarray(stored.untyped._buffer)
        file.write(struct.pack("<q", data.nbytes // stored.dtype.itemsize))
        file.write(memoryview(data))


class _LegacyStorages:
    """Storages named by the graph, allocated empty and filled after it."""

    def __init__(self, cursor: Cursor, map_location):
        self._cursor = cursor
        self._map_location = map_location
        self.roots: dict[str, TypedStorage] = {}
        self._views: dict[str, TypedStorage] = {}
        self._claimed = 0

    def __call__(self, pid) -> TypedStorage:
        dtype, key, tag, numel = check_pid(pid, 6)
        root = self.roots.get(key)
        if root is None:
            nbytes = numel * dtype.itemsize
            self._claimed += nbytes
            if self._claimed > self._cursor.remaining:
                raise truncated(f"storages claim {self._claimed} bytes, the file has less")
            untyped = UntypedStorage._wrap(np.empty(nbytes, np.uint8))
            untyped = location.restore(untyped, tag, self._map_location)
            root = self.roots[key] = TypedStorage._wrap(untyped, dtype)
        view = pid[5]
        if view is None:
            return root
        return self._view_of(root, view)

    def _view_of(self, root: TypedStorage, view) -> TypedStorage:
        # pre-1.0 storage views: (view key, offset, size) in elements of the root
        if not isinstance(view, tuple) or len(view) != 3:
            raise TypeError("bad storage view metadata")
        view_key, offset, size = view
        if view_key in self._views:
            return self._views[view_key]
        itemsize = root.dtype.itemsize
        if type(offset) is not int or type(size) is not int or offset < 0 or size < 0:
            raise RuntimeError("storage view with a negative offset or size")
        if (offset + size) * itemsize > root._untyped.nbytes():
            raise RuntimeError("storage view runs past the end of its storage")
        part = root._untyped._buffer[offset * itemsize : (offset + size) * itemsize]
        typed = TypedStorage._wrap(UntypedStorage._wrap(part), root.dtype)
        self._views[view_key] = typed
        return typed

    def fill(self, keys) -> None:
        """Read the raw bytes that follow the key list into the allocated storages."""
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise RuntimeError("torch.load: the storage key list is corrupted")
        missing = set(self.roots) - set(keys)
        if missing:
            raise truncated(f"no data for storages {sorted(missing)[:5]}")
        for key in keys:
            storage = self.roots.get(key)
            if storage is None:
                raise RuntimeError(f"torch.load: data for storage '{key}' that nothing uses")
            (numel,) = struct.unpack("<q", self._cursor.read_exact(8, "storage size"))
            if numel != storage.size():
                raise RuntimeError(
                    f"torch.load: storage '{key}' has wrong size: expected {storage.size()} "
                    f"got {numel}"
                )
            self._cursor.read_array_into(storage._untyped._buffer, f"storage '{key}'")


def load_legacy(cursor: Cursor, unpickle_stream, map_location):
    """The object of a pickle-sequence checkpoint; ``unpickle_stream(cursor,
    persistent_load)`` runs the unpickler on the next pickle of the stream."""
    magic = unpickle_stream(cursor, None)
    if magic != MAGIC_NUMBER:
        raise RuntimeError("Invalid magic number; corrupt file?")
    version = unpickle_stream(cursor, None)
    if version != PROTOCOL_VERSION:
        raise RuntimeError(f"Invalid protocol version: {bounded_repr(version)}")
    sys_info = unpickle_stream(cursor, None)
    if not isinstance(sys_info, dict) or sys_info.get("little_endian") is False:
        raise RuntimeError("torch.load: big-endian legacy checkpoints are not supported")
    storages = _LegacyStorages(cursor, map_location)
    result = unpickle_stream(cursor, storages)
    storages.fill(unpickle_stream(cursor, None))
    return result
