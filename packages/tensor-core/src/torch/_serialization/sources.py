"""Byte sources a checkpoint is read from: a file object, an in-memory buffer, or a
memory map of a path. Every read is bounds-checked, so a size taken from a corrupt
file raises instead of reading past the end or allocating what the file lacks."""

from __future__ import annotations

import io

import numpy as np

from .limits import CHUNK_BYTES

__all__ = ["Source", "open_source", "truncated"]


def truncated(what: str) -> RuntimeError:
    return RuntimeError(
        f"torch.load: the checkpoint is truncated or corrupted ({what}); it may not have "
        f"been saved completely or was modified after saving"
    )


class Source:
    """Random access to ``size`` bytes."""

    size = 0

    def check(self, offset: int, count: int, what: str) -> None:
        if offset < 0 or count < 0 or offset + count > self.size:
            raise truncated(f"{what} at bytes {offset}..{offset + count} of {self.size}")

    def read(self, offset: int, count: int, what: str = "record") -> bytes:
        raise NotImplementedError

    def read_array(self, offset: int, count: int, what: str = "record") -> np.ndarray:
        """A fresh writable uint8 array with ``count`` bytes from ``offset``."""
        raise NotImplementedError

    def read_into(self, offset: int, array: np.ndarray, what: str = "record") -> None:
        """Fill the uint8 ``array`` with the bytes at ``offset``."""
        array[...] = self.read_array(offset, array.nbytes, what)

    def map_array(self, offset: int, count: int) -> np.ndarray:
        raise RuntimeError("torch.load: this source cannot be memory-mapped")

    def close(self) -> None:
        pass


class BufferSource(Source):
    """An in-memory buffer (bytes, bytearray, a BytesIO's contents)."""

    def __init__(self, buffer):
        self._view = memoryview(buffer).cast("B")
        self.size = self._view.nbytes

    def read(self, offset, count, what="record"):
        self.check(offset, count, what)
        return bytes(self._view[offset : offset + count])

    def read_array(self, offset, count, what="record"):
        self.check(offset, count, what)
        return np.frombuffer(self._view[offset : offset + count], np.uint8).copy()

    def read_into(self, offset, array, what="record"):
        self.check(offset, array.nbytes, what)
        array[...] = np.frombuffer(self._view[offset : offset + array.nbytes], np.uint8)

    def close(self):
        self._view.release()


class FileSource(Source):
    """A seekable binary file object, read from its current position onwards."""

    def __init__(self, file):
        self._file = file
        self._start = file.tell()
        self.size = file.seek(0, io.SEEK_END) - self._start

    def read(self, offset, count, what="record"):
        self.check(offset, count, what)
        self._file.seek(self._start + offset)
        data = self._file.read(count)
        if len(data) != count:
            raise truncated(what)
        return data

    def read_array(self, offset, count, what="record"):
        array = np.empty(count, np.uint8)
        self.read_into(offset, array, what)
        return array

    def read_into(self, offset, array, what="record"):
        count = array.nbytes
        self.check(offset, count, what)
        self._file.seek(self._start + offset)
        view = memoryview(array)
        readinto = getattr(self._file, "readinto", None)
        done = 0
        while done < count:
            stop = min(count, done + CHUNK_BYTES)
            if readinto is not None:
                got = readinto(view[done:stop])
            else:
                chunk = self._file.read(stop - done)
                got = len(chunk)
                view[done : done + got] = chunk
            if not got:
                raise truncated(what)
            done += got


class MapSource(Source):
    """A path mapped copy-on-write: storages view the file's pages and nothing is read
    until a value is used (writes stay private to this process, as with PyTorch)."""

    def __init__(self, path, shared: bool = False):
        # shared (set_default_mmap_options(MAP_SHARED)): writes to tensors go to the file
        mode = "r+" if shared else "c"
        self._map = np.memmap(path, dtype=np.uint8, mode=mode) if _nonempty(path) else None
        self.size = 0 if self._map is None else self._map.size

    def read(self, offset, count, what="record"):
        self.check(offset, count, what)
        return self._map[offset : offset + count].tobytes()

    def read_array(self, offset, count, what="record"):
        self.check(offset, count, what)
        return np.array(self._map[offset : offset + count])

    def map_array(self, offset, count):
        self.check(offset, count, "storage")
        return self._map[offset : offset + count]


def _nonempty(path) -> bool:
    import os

    return os.path.getsize(path) > 0


def open_source(f, mmap: bool):
    """A Source for ``f`` (path or file object) and the file to close afterwards."""
    import os

    if isinstance(f, (str, os.PathLike)):
        if mmap:
            import mmap as _mmap

            from .options import get_default_mmap_options

            return MapSource(f, shared=get_default_mmap_options() == _mmap.MAP_SHARED), None
        file = open(f, "rb")  # noqa: SIM115 (closed by the caller)
        return FileSource(file), file
    if isinstance(f, (bytes, bytearray, memoryview)):
        return BufferSource(f), None
    if isinstance(f, io.BytesIO):
        return BufferSource(f.getbuffer()[f.tell() :]), None
    if not hasattr(f, "read"):
        raise TypeError(
            f"torch.load: expected a path or a binary file object, got {type(f).__name__}"
        )
    seekable = getattr(f, "seekable", None)
    if seekable is not None and seekable():
        return FileSource(f), None
    return BufferSource(f.read()), None  # a pipe or socket: read it whole


class Cursor:
    """A read-only file over a Source, for unpicklers and tarfile: reads never go past
    the end, and a huge length read from the file raises instead of allocating."""

    def __init__(self, source: Source, position: int = 0, end: int | None = None):
        self._source = source
        self._position = position
        self._end = source.size if end is None else end

    @property
    def remaining(self) -> int:
        return self._end - self._position

    def read(self, count: int = -1) -> bytes:
        if count is None or count < 0 or count > self.remaining:
            count = self.remaining
        data = self._source.read(self._position, count)
        self._position += count
        return data

    def readinto(self, buffer) -> int:
        view = memoryview(buffer).cast("B")
        data = self.read(view.nbytes)
        view[: len(data)] = data
        return len(data)

    def read_exact(self, count: int, what: str) -> bytes:
        if count < 0 or count > self.remaining:
            raise truncated(what)
        return self.read(count)

    def readline(self, limit: int = -1) -> bytes:
        window = self.remaining if limit is None or limit < 0 else min(limit, self.remaining)
        window = min(window, 1 << 16)
        data = self._source.read(self._position, window)
        cut = data.find(b"\n")
        line = data if cut < 0 else data[: cut + 1]
        self._position += len(line)
        return line

    def read_array_into(self, array, what: str) -> None:
        """Fill a uint8 array with the next bytes (one copy, no temporary for files)."""
        if array.nbytes > self.remaining:
            raise truncated(what)
        self._source.read_into(self._position, array, what)
        self._position += array.nbytes

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self._position, 2: self._end}[whence]
        self._position = max(0, base + offset)
        return self._position

    def tell(self) -> int:
        return self._position

    def seekable(self) -> bool:
        return True

    def readable(self) -> bool:
        return True
