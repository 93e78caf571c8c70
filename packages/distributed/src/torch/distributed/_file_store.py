"""FileStore: a store kept in a file that every process of the group can open (a local
or shared file system).

The file is an append-only log of records (key, value; a deletion is a record without
a value); every operation takes an ``flock`` on the file, replays the log and appends
what it changes. Waits poll the file.
"""

from __future__ import annotations

import fcntl
import os
import struct
import time

from ._store import DEFAULT_STORE_TIMEOUT, Store

__all__ = ["FileStore"]

_DELETED = (1 << 64) - 1
# users of the file: the last to close it removes it
_USERS_KEY = "cleanup/"
_POLL_SECONDS = 0.005


def _record(key: str, value: bytes | None) -> bytes:
    raw = key.encode()
    size = _DELETED if value is None else len(value)
    return struct.pack("!Q", len(raw)) + raw + struct.pack("!Q", size) + (value or b"")


def _replay(blob: bytes) -> dict[str, bytes]:
    table: dict[str, bytes] = {}
    at = 0
    while at + 8 <= len(blob):
        (klen,) = struct.unpack_from("!Q", blob, at)
        key = blob[at + 8 : at + 8 + klen].decode()
        at += 8 + klen
        (vlen,) = struct.unpack_from("!Q", blob, at)
        at += 8
        if vlen == _DELETED:
            table.pop(key, None)
        else:
            table[key] = blob[at : at + vlen]
            at += vlen
    return table


class FileStore(Store):
    """A store kept in the file ``file_name``, shared by the processes that open it.

    Args:
        file_name (str): the file (created when missing).
        world_size (int): how many processes use it; ``-1`` when not known.

    Examples::

        >>> import os, tempfile
        >>> import torch.distributed as dist
        >>> path = os.path.join(tempfile.mkdtemp(), "store")
        >>> store = dist.FileStore(path, 1)
        >>> store.set("key", "value")
        >>> dist.FileStore(path, 1).get("key")
        b'value'
    """

    def __init__(self, file_name: str, world_size: int = -1) -> None:
        super().__init__(DEFAULT_STORE_TIMEOUT)
        self._path = os.fspath(file_name)
        self._world_size = world_size
        self._closed = False
        self._add(_USERS_KEY, 1)

    @property
    def path(self) -> str:
        """The store's file."""
        return self._path

    def _locked(self, change):
        """Run ``change(table) -> (result, records)`` on the current table under an
        exclusive lock, appending the records it returns."""
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            blob = b""
            while chunk := os.read(fd, 1 << 20):
                blob += chunk
            result, records = change(_replay(blob))
            if records:
                os.write(fd, b"".join(records))
            return result
        finally:
            os.close(fd)

    def _poll(self, ready, seconds: float):
        """Re-read the file until ``ready(table)`` gives a value other than None."""
        deadline = time.monotonic() + seconds
        while True:
            result = self._locked(lambda table: (ready(table), []))
            if result is not None or time.monotonic() > deadline:
                return result
            time.sleep(_POLL_SECONDS)

    def _set(self, key, value):
        self._locked(lambda t: (None, [_record(key, value)]))

    def _get(self, key, seconds):
        return self._poll(lambda t: t.get(key), seconds)

    def _add(self, key, amount):
        def change(table):
            value = int(table.get(key, b"0")) + amount
            return value, [_record(key, str(value).encode())]

        return self._locked(change)

    def _append(self, key, value):
        self._locked(lambda t: (None, [_record(key, t.get(key, b"") + value)]))

    def _compare_set(self, key, expected, desired):
        def change(table):
            current = table.get(key)
            if current is None and expected:
                return expected, []
            if current is None or current == expected:
                return desired, [_record(key, desired)]
            return current, []

        return self._locked(change)

    def _wait(self, keys, seconds):
        found = self._poll(lambda t: True if all(k in t for k in keys) else None, seconds)
        return bool(found)

    def _check(self, keys):
        return self._locked(lambda t: (all(k in t for k in keys), []))

    def _delete(self, key):
        return self._locked(lambda t: (key in t, [_record(key, None)] if key in t else []))

    def _num_keys(self):
        return self._locked(lambda t: (len(t), []))

    def _close(self) -> None:
        """Leave the store; the last user removes the file."""
        if self._closed or not os.path.exists(self._path):
            return
        self._closed = True
        if self._add(_USERS_KEY, -1) == 0:
            try:
                os.unlink(self._path)
            except OSError:
                pass

    def __del__(self) -> None:
        try:
            self._close()
        except Exception:
            pass
