"""Key-value stores: the meeting place of the processes of a group.

:class:`Store` is the interface every store offers (PyTorch's method names and
semantics); :class:`HashStore` keeps its table in this process, :class:`PrefixStore`
namespaces another store. The TCP and file stores live in ``_tcp_store.py`` and
``_file_store.py``; all of them keep their keys in one :class:`_Table`, whose logic is
written once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from datetime import timedelta

__all__ = [
    "DistError",
    "DistBackendError",
    "DistNetworkError",
    "DistStoreError",
    "Store",
    "HashStore",
    "PrefixStore",
]

DEFAULT_STORE_TIMEOUT = timedelta(seconds=300)


class DistError(RuntimeError):
    """Base of the errors torch.distributed raises."""


class DistBackendError(DistError):
    """A collective failed in the backend (a peer died, timed out, or disagreed)."""


class DistNetworkError(DistError):
    """A network operation (connecting to a store, a peer) failed."""


class DistStoreError(DistError):
    """A store operation failed, e.g. a key did not appear within the timeout."""


for _error in (DistError, DistBackendError, DistNetworkError, DistStoreError):
    _error.__module__ = "torch.distributed"


def _as_bytes(value) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, list):  # PyTorch accepts a list of byte values
        return bytes(value)
    raise TypeError(f"store values must be str or bytes, not {type(value).__name__}")


def _seconds(timeout) -> float:
    if isinstance(timeout, timedelta):
        return timeout.total_seconds()
    return float(timeout)


class _Table:
    """A dictionary of byte strings with PyTorch's store operations, safe across threads.

    Waiting operations block on a condition variable until every key they name exists
    or the deadline passes (then they return ``None``/``False``; the callers raise).
    """

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}
        self.changed = threading.Condition()

    def set(self, key: str, value: bytes) -> None:
        with self.changed:
            self.data[key] = value
            self.changed.notify_all()

    def wait(self, keys: Iterable[str], seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        with self.changed:
            while not all(k in self.data for k in keys):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
            return True

    def get(self, key: str, seconds: float) -> bytes | None:
        if not self.wait([key], seconds):
            return None
        with self.changed:
            return self.data[key]

    def add(self, key: str, amount: int) -> int:
        with self.changed:
            value = int(self.data.get(key, b"0")) + int(amount)
            self.data[key] = str(value).encode()
            self.changed.notify_all()
            return value

    def append(self, key: str, value: bytes) -> None:
        with self.changed:
            self.data[key] = self.data.get(key, b"") + value
            self.changed.notify_all()

    def compare_set(self, key: str, expected: bytes, desired: bytes) -> bytes:
        with self.changed:
            current = self.data.get(key)
            if current is None:
                if expected:  # absent key and a non-empty expectation: nothing set
                    return expected
                self.data[key] = desired
            elif current == expected:
                self.data[key] = desired
            self.changed.notify_all()
            return self.data[key]

    def check(self, keys: Iterable[str]) -> bool:
        with self.changed:
            return all(k in self.data for k in keys)

    def delete(self, key: str) -> bool:
        with self.changed:
            return self.data.pop(key, None) is not None

    def num_keys(self) -> int:
        with self.changed:
            return len(self.data)


class Store:
    """A key-value store shared by the processes of a group.

    Values are bytes (``str`` values are stored UTF-8 encoded); ``add`` keeps an integer
    as its decimal text. ``get`` and ``wait`` block until the keys exist, raising
    :class:`DistStoreError` after the store's ``timeout``.

    Subclasses implement the ``_``-prefixed primitives.
    """

    def __init__(self, timeout: timedelta = DEFAULT_STORE_TIMEOUT) -> None:
        self._timeout = timeout

    # -- the public API ------------------------------------------------------------
    @property
    def timeout(self) -> timedelta:
        """How long ``get`` and ``wait`` block before raising."""
        return self._timeout

    def set_timeout(self, timeout: timedelta) -> None:
        """Change the store's ``timeout``."""
        self._timeout = timeout

    def set(self, key: str, value) -> None:
        """Store ``value`` (str or bytes) under ``key``, replacing any old value."""
        self._set(key, _as_bytes(value))

    def get(self, key: str) -> bytes:
        """The value of ``key``, waiting up to ``timeout`` for it to be set."""
        value = self._get(key, _seconds(self.timeout))
        if value is None:
            raise self._timeout_error([key], self.timeout)
        return value

    def add(self, key: str, amount: int) -> int:
        """Add ``amount`` to the integer under ``key`` (0 when absent); the new value."""
        return self._add(key, int(amount))

    def append(self, key: str, value) -> None:
        """Append ``value`` to the bytes under ``key`` (set it when absent)."""
        self._append(key, _as_bytes(value))

    def compare_set(self, key: str, expected_value, desired_value) -> bytes:
        """Set ``key`` to ``desired_value`` if it holds ``expected_value`` (or is absent
        and ``expected_value`` is empty); the value it holds afterwards."""
        return self._compare_set(key, _as_bytes(expected_value), _as_bytes(desired_value))

    def wait(self, keys: list[str], timeout: timedelta | None = None) -> None:
        """Block until every key of ``keys`` is set, or raise after ``timeout``
        (the store's timeout by default)."""
        timeout = self.timeout if timeout is None else timeout
        if not self._wait(list(keys), _seconds(timeout)):
            raise self._timeout_error(list(keys), timeout)

    def check(self, keys: list[str]) -> bool:
        """Whether every key of ``keys`` is set, without waiting."""
        return self._check(list(keys))

    def delete_key(self, key: str) -> bool:
        """Remove ``key``; whether it existed."""
        return self._delete(key)

    def num_keys(self) -> int:
        """How many keys the store holds."""
        return self._num_keys()

    def multi_get(self, keys: list[str]) -> list[bytes]:
        """The values of several keys, each waited for as ``get`` does."""
        return [self.get(key) for key in keys]

    def multi_set(self, keys: list[str], values: list) -> None:
        """Set several keys."""
        for key, value in zip(keys, values, strict=True):
            self.set(key, value)

    def _timeout_error(self, keys, timeout) -> DistStoreError:
        return DistStoreError("Wait timeout")

    # -- primitives ----------------------------------------------------------------
    def _set(self, key: str, value: bytes) -> None:
        raise NotImplementedError

    def _get(self, key: str, seconds: float) -> bytes | None:
        raise NotImplementedError

    def _add(self, key: str, amount: int) -> int:
        raise NotImplementedError

    def _append(self, key: str, value: bytes) -> None:
        raise NotImplementedError

    def _compare_set(self, key: str, expected: bytes, desired: bytes) -> bytes:
        raise NotImplementedError

    def _wait(self, keys: list[str], seconds: float) -> bool:
        raise NotImplementedError

    def _check(self, keys: list[str]) -> bool:
        raise NotImplementedError

    def _delete(self, key: str) -> bool:
        raise NotImplementedError

    def _num_keys(self) -> int:
        raise NotImplementedError


class _TableStore(Store):
    """A store whose primitives are a :class:`_Table`'s methods."""

    def __init__(self, table: _Table, timeout: timedelta = DEFAULT_STORE_TIMEOUT) -> None:
        super().__init__(timeout)
        self._table = table

    def _set(self, key, value):
        self._table.set(key, value)

    def _get(self, key, seconds):
        return self._table.get(key, seconds)

    def _add(self, key, amount):
        return self._table.add(key, amount)

    def _append(self, key, value):
        self._table.append(key, value)

    def _compare_set(self, key, expected, desired):
        return self._table.compare_set(key, expected, desired)

    def _wait(self, keys, seconds):
        return self._table.wait(keys, seconds)

    def _check(self, keys):
        return self._table.check(keys)

    def _delete(self, key):
        return self._table.delete(key)

    def _num_keys(self):
        return self._table.num_keys()


class HashStore(_TableStore):
    """A store held in this process's memory, shared by its threads.

    Examples::

        >>> import torch.distributed as dist
        >>> store = dist.HashStore()
        >>> store.set("epoch", "3")
        >>> store.add("epoch", 1)
        4
        >>> store.get("epoch")
        b'4'
    """

    def __init__(self) -> None:
        super().__init__(_Table())


class PrefixStore(Store):
    """A view of ``store`` whose keys all start with ``prefix + "/"``, so several users
    of one store do not see each other's keys.

    Args:
        prefix (str): prepended to every key.
        store (Store): the underlying store.

    Examples::

        >>> import torch.distributed as dist
        >>> base = dist.HashStore()
        >>> dist.PrefixStore("job1", base).set("ready", "1")
        >>> base.get("job1/ready")
        b'1'
    """

    def __init__(self, prefix: str, store: Store) -> None:
        super().__init__(store.timeout)
        self._prefix = prefix
        self._store = store

    @property
    def underlying_store(self) -> Store:
        """The store this one prefixes keys of."""
        return self._store

    @property
    def timeout(self) -> timedelta:
        return self._store.timeout

    def set_timeout(self, timeout: timedelta) -> None:
        self._store.set_timeout(timeout)

    def _key(self, key: str) -> str:
        return f"{self._prefix}/{key}"

    def _set(self, key, value):
        self._store._set(self._key(key), value)

    def _get(self, key, seconds):
        return self._store._get(self._key(key), seconds)

    def _add(self, key, amount):
        return self._store._add(self._key(key), amount)

    def _append(self, key, value):
        self._store._append(self._key(key), value)

    def _compare_set(self, key, expected, desired):
        return self._store._compare_set(self._key(key), expected, desired)

    def _wait(self, keys, seconds):
        return self._store._wait([self._key(k) for k in keys], seconds)

    def _check(self, keys):
        return self._store._check([self._key(k) for k in keys])

    def _delete(self, key):
        return self._store._delete(self._key(key))

    def _num_keys(self):
        return self._store._num_keys()

    def _timeout_error(self, keys, timeout):
        return self._store._timeout_error([self._key(k) for k in keys], timeout)
