"""Bounds the cost of the dicts and sets a ``weights_only`` load builds.

A dict insert compares the new key with every earlier key of the same hash. Integers
and tuples of them hash predictably (``hash(k * (2**61 - 1)) == 0``), so a file can
fill one dict with thousands of keys of one hash and make loading quadratic (40k
such keys, 650 KB of pickle, took 15 s). Strings are safe while Python randomizes their
hashes. The guard counts, per container, the distinct keys of each hash and refuses a
container once one hash has more than ``MAX_EQUAL_HASHES`` of them, keeping every load
linear in the size of its pickle. Keys must also be cheap to hash: scalars, framework
objects, instances of user-allowed classes, and tuples of these of bounded size (a tuple
nested through the memo would otherwise cost ``2**depth`` per hash).
"""

from __future__ import annotations

import pickle
import sys

from .limits import MAX_EQUAL_HASHES, MAX_KEY_NODES, bounded_repr

__all__ = ["HashGuard"]

_SCALARS = frozenset({str, bytes, int, float, bool, complex, type(None)})
# with randomized string hashes a file cannot aim its keys at one hash
_STR_HASHES_RANDOM = bool(sys.flags.hash_randomization)
# an int of smaller magnitude hashes to itself (but -1, to -2): distinct ones cannot pile
# up on one hash, so the usual keys (optimizer state ids) skip the counting
_HASH_MODULUS = (1 << 61) - 1


def _needs_count(key) -> bool:
    kind = type(key)
    if kind is str:
        return not _STR_HASHES_RANDOM
    if kind is int:
        return not -_HASH_MODULUS < key < _HASH_MODULUS
    return key is not None and kind is not bool


def _key_error(detail: str) -> pickle.UnpicklingError:
    return pickle.UnpicklingError(f"Weights only load failed: {detail}")


class HashGuard:
    """Counts equal hashes per container while a pickle builds dicts and sets."""

    def __init__(self, user_types: set[int]):
        self._user_types = user_types
        # id(container) -> (container, {hash: [distinct keys with that hash]}); the
        # container is held so that its id is not reused while the load runs
        self._buckets: dict[int, tuple[object, dict[int, list]]] = {}

    def set_item(self, target: dict, key, value) -> None:
        """``target[key] = value`` once ``key`` passes the checks."""
        if _needs_count(key):
            self._count(target, key)
        target[key] = value

    def set_items(self, target: dict, items: list) -> None:
        """``target[items[i]] = items[i + 1]`` for every even ``i`` (SETITEMS, DICT)."""
        needs_count, count, modulus = _needs_count, self._count, _HASH_MODULUS
        for index in range(0, len(items), 2):
            key = items[index]
            kind = type(key)
            if kind is int:  # the common cases inline: this runs per key of every dict
                if not -modulus < key < modulus:
                    count(target, key)
            elif (kind is not str or not _STR_HASHES_RANDOM) and needs_count(key):
                count(target, key)
            target[key] = items[index + 1]

    def check_keys(self, keys) -> None:
        """Check the keys a call (``set(list)``, ``OrderedDict(pairs)``) is about to
        insert into a container of its own."""
        buckets: dict[int, list] = {}
        for key in keys:
            if _needs_count(key):
                self._count_in(buckets, key)

    def release(self) -> None:
        self._buckets.clear()

    def _count(self, target, key) -> None:
        entry = self._buckets.get(id(target))
        if entry is None or entry[0] is not target:
            entry = self._buckets[id(target)] = (target, {})
        self._count_in(entry[1], key)

    def _count_in(self, buckets: dict[int, list], key) -> None:
        code = self._hash(key)
        same = buckets.get(code)
        if same is None:
            buckets[code] = [key]
            return
        for earlier in same:  # at most MAX_EQUAL_HASHES cheap-to-compare keys
            if earlier == key:
                return
        same.append(key)
        if len(same) > MAX_EQUAL_HASHES:
            raise _key_error(
                f"more than {MAX_EQUAL_HASHES} distinct keys of one dict or set have the "
                f"same hash ({bounded_repr(same[0])}, {bounded_repr(same[1])}, ...): "
                f"building it would take time quadratic in their number, so the file is "
                f"refused as a hash-collision attack."
            )

    def _hash(self, key) -> int:
        kind = type(key)
        if kind in _SCALARS:
            return hash(key)
        if isinstance(key, tuple):
            self._check_tuple(key)
            return hash(key)
        if self._cheap_hash(kind):
            return hash(key)
        raise _key_error(
            f"a {kind.__module__}.{kind.__qualname__} cannot be a dict key or set element "
            f"in a weights-only load (allowed: str, bytes, numbers, None, torch objects, "
            f"allowed classes, and tuples of these)."
        )

    def _cheap_hash(self, kind: type) -> bool:
        # hashed by identity, a framework class (dtype, device), or a class the user allowed
        module = getattr(kind, "__module__", "") or ""
        return (
            kind.__hash__ is object.__hash__
            or module == "torch"
            or module.startswith("torch.")
            or id(kind) in self._user_types
        )

    def _check_tuple(self, key: tuple) -> None:
        nodes, pending = 0, [key]
        while pending:
            item = pending.pop()
            nodes += 1
            if nodes > MAX_KEY_NODES:
                raise _key_error(
                    f"a tuple used as a dict key or set element holds more than "
                    f"{MAX_KEY_NODES} items (counting nested ones); hashing it could take "
                    f"time exponential in its size."
                )
            if isinstance(item, tuple):
                pending.extend(item)
            elif type(item) not in _SCALARS and not self._cheap_hash(type(item)):
                self._hash(item)  # raises, naming the type
