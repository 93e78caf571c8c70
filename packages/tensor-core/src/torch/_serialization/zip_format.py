"""The zip checkpoint format (PyTorch's default since 1.6), both directions.

Layout of an archive whose folder is ``<prefix>``::

    <prefix>/data.pkl                 the object graph, pickle protocol 2
    <prefix>/.format_version          b"1"
    <prefix>/.storage_alignment       b"64"
    <prefix>/byteorder                b"little"
    <prefix>/data/<key>               the bytes of one storage per key
    <prefix>/version                  b"3\\n"
    <prefix>/.data/serialization_id   an id for this save

In ``data.pkl`` a storage is the persistent id
``("storage", <storage class>, key, location, numel)``.
"""

from __future__ import annotations

import io
import os

import numpy as np

from .._interface.backends import backend_of_array
from .._storage import TypedStorage, UntypedStorage
from . import limits, location, options
from .limits import MAX_PICKLE_BYTES, bounded_repr
from .pickler import CheckpointPickler, StorageTable
from .storage_types import dtype_of_storage_class
from .zip_reader import ZipReader, corrupt
from .zip_writer import ZipWriter

__all__ = ["save_zip", "load_zip", "read_pickle", "StorageLoader"]

_FORMAT_VERSION = 3


def save_zip(obj, file, prefix: str, protocol: int) -> None:
    """Write ``obj`` as a zip checkpoint to the binary ``file``."""
    table = StorageTable()
    graph = io.BytesIO()
    CheckpointPickler(graph, protocol, table).dump(obj)
    writer = ZipWriter(file, prefix, compute_crc=bool(options.get_crc32_options()))
    writer.write_record("data.pkl", graph.getbuffer())
    writer.write_record(".format_version", b"1")
    writer.write_record(".storage_alignment", b"64")
    writer.write_record("byteorder", b"little")
    skip = options.skipping_data()
    for stored in table.entries:
        data = stored.untyped._buffer if skip else _contiguous_bytes(stored.untyped)
        writer.write_record(f"data/{stored.key}", data, zeros=skip)
    writer.write_record("version", f"{_FORMAT_VERSION}\n".encode())
    writer.write_record(".data/serialization_id", _serialization_id())
    writer.close()


def _contiguous_bytes(untyped: UntypedStorage) -> np.ndarray:
    buffer = untyped._buffer
    if type(buffer) is not np.ndarray:  # a device's memory: its bytes on the host
        buffer = backend_of_array(buffer).to_host(buffer)
    return np.ascontiguousarray(buffer)


def _serialization_id() -> bytes:
    return str(int.from_bytes(os.urandom(16), "little")).zfill(40).encode()


def check_pid(pid, length: int) -> tuple:
    """The fields of a storage persistent id, type-checked (a file may hold anything)."""
    if not isinstance(pid, tuple) or len(pid) != length or pid[0] != "storage":
        raise TypeError(f"unexpected persistent id {bounded_repr(pid)}")
    storage_type, key, tag, numel = pid[1:5]
    dtype = dtype_of_storage_class(storage_type)
    if not isinstance(key, str):
        raise TypeError(f"storage key must be a str, got {type(key).__name__}")
    if type(numel) is not int or numel < 0:
        raise TypeError(f"storage size must be a non-negative int, got {bounded_repr(numel)}")
    return dtype, key, tag, numel


class StorageLoader:
    """Turns the storage persistent ids of ``data.pkl`` into storages read (or mapped)
    from the archive, once per key."""

    def __init__(self, reader: ZipReader, map_location, mmap: bool, byteorder: str):
        self._reader = reader
        self._map_location = map_location
        self._mmap = mmap
        self._swap = byteorder != "little"
        self._loaded: dict[str, TypedStorage] = {}

    def __call__(self, pid) -> TypedStorage:
        dtype, key, tag, numel = check_pid(pid, 5)
        loaded = self._loaded.get(key)
        if loaded is not None:
            return loaded
        nbytes = numel * dtype.itemsize
        record = f"data/{key}"
        available = self._reader.record_size(record)
        if available < nbytes:
            raise RuntimeError(
                f"torch.load: storage '{key}' needs {nbytes} bytes but its record holds "
                f"{available}; the checkpoint is corrupted"
            )
        if options.skipping_data():
            buffer = np.empty(nbytes, np.uint8)  # skip_data: shapes only, bytes unread
        elif self._mmap:
            buffer = self._reader.map(record)[:nbytes]
        else:
            buffer = self._reader.read(record, verify=limits.VERIFY_STORAGE_CRC)[:nbytes]
        if self._swap and dtype.itemsize > 1:
            if self._mmap:
                raise RuntimeError("torch.load(mmap=True) cannot map a big-endian checkpoint")
            _byteswap(buffer, dtype)
        untyped = location.restore(UntypedStorage._wrap(buffer), tag, self._map_location)
        typed = TypedStorage._wrap(untyped, dtype)
        self._loaded[key] = typed
        return typed


def _byteswap(buffer: np.ndarray, dtype) -> None:
    # complex numbers swap each of their two halves
    width = dtype.itemsize // 2 if dtype.is_complex else dtype.itemsize
    usable = buffer.nbytes // width * width
    elements = buffer[:usable].view(f"u{width}")
    elements.byteswap(inplace=True)


def read_byteorder(reader: ZipReader) -> str:
    if not reader.has_record("byteorder"):
        # files from before the record existed: little-endian unless told otherwise
        return options.assumed_byteorder()
    order = bytes(reader.read("byteorder", limit=16)).decode("ascii", "replace")
    if order not in ("little", "big"):
        raise corrupt(f"unknown byte order {order!r}")
    return order


def read_pickle(reader: ZipReader, max_pickle_bytes: int | None = None) -> bytes:
    """The bytes of ``data.pkl``, refused before inflating when over the cap:
    ``max_pickle_bytes`` when given, else DEFAULT_MAX_INFLATED_PICKLE_BYTES for a
    compressed record (a stored one is no larger than the file)."""
    if max_pickle_bytes is not None:
        limit = max_pickle_bytes
    elif reader.is_compressed("data.pkl"):
        limit = limits.DEFAULT_MAX_INFLATED_PICKLE_BYTES
    else:
        limit = MAX_PICKLE_BYTES
    size = reader.record_size("data.pkl")
    if size > limit:
        kind = "compressed " if reader.is_compressed("data.pkl") else ""
        raise RuntimeError(
            f"torch.load: the checkpoint's {kind}pickle (data.pkl) is {size} bytes, over the "
            f"{limit} allowed: unpickling can need ~100 times its size in memory. If you "
            f"trust the file, load it with torch.load(..., max_pickle_bytes={size})."
        )
    return reader.read("data.pkl", limit=limit).tobytes()


def load_zip(reader: ZipReader, unpickle, map_location, mmap: bool, max_pickle_bytes=None):
    """The object of a zip checkpoint; ``unpickle(data, persistent_load)`` runs the
    (restricted or full) unpickler over the bytes of ``data.pkl``."""
    loader = StorageLoader(reader, map_location, mmap, read_byteorder(reader))
    return unpickle(read_pickle(reader, max_pickle_bytes), loader)
