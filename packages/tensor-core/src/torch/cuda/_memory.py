"""Device memory counters in the shape of PyTorch's caching-allocator statistics.

Each device has one :class:`MemoryCounters`. ``allocate``/``free`` count the bytes of
tensor blocks (rounded up to 512 bytes, as PyTorch's allocator rounds); ``reserved`` models
the allocator's cache: segments of 2 MiB (for blocks up to 1 MiB) or rounded up to 2 MiB
are reserved as needed and kept after the blocks in them are freed, until
:meth:`MemoryCounters.empty_cache` returns what no block uses.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

__all__ = ["MemoryCounters", "round_block", "BLOCK", "SEGMENT"]

BLOCK = 512  # the allocator's rounding of a block
SEGMENT = 2 << 20  # the size of a reserved segment (2 MiB)


def round_block(nbytes: int) -> int:
    """The bytes a block of ``nbytes`` takes (0 stays 0)."""
    return -(-nbytes // BLOCK) * BLOCK


def _round_segment(nbytes: int) -> int:
    return -(-nbytes // SEGMENT) * SEGMENT


class _Stat:
    """current / peak / allocated (total ever added) / freed (total ever removed)."""

    __slots__ = ("current", "peak", "allocated", "freed")

    def __init__(self) -> None:
        self.current = self.peak = self.allocated = self.freed = 0

    def add(self, amount: int) -> None:
        self.current += amount
        self.allocated += amount
        if self.current > self.peak:
            self.peak = self.current

    def remove(self, amount: int) -> None:
        self.current -= amount
        self.freed += amount

    def reset_peak(self) -> None:
        self.peak = self.current

    def reset_totals(self) -> None:
        self.allocated = self.freed = 0


class MemoryCounters:
    """The allocation statistics of one device (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.bytes = _Stat()  # allocated_bytes
        self.blocks = _Stat()  # allocation (count)
        self.reserved = _Stat()  # reserved_bytes
        self.segments = _Stat()  # segment (count)

    def allocate(self, nbytes: int) -> None:
        with self._lock:
            self.bytes.add(nbytes)
            self.blocks.add(1)
            missing = self.bytes.current - self.reserved.current
            if missing > 0:  # the cache has no room: reserve a new segment
                self.reserved.add(_round_segment(missing))
                self.segments.add(1)

    def free(self, nbytes: int) -> None:
        with self._lock:
            self.bytes.remove(nbytes)
            self.blocks.remove(1)

    def empty_cache(self) -> None:
        """Give back the reserved memory that no block uses."""
        with self._lock:
            keep = _round_segment(self.bytes.current)
            if self.reserved.current > keep:
                self.reserved.remove(self.reserved.current - keep)
                self.segments.remove(self.segments.current - (1 if keep else 0))

    def reset_peak(self) -> None:
        with self._lock:
            for stat in (self.bytes, self.blocks, self.reserved, self.segments):
                stat.reset_peak()

    def reset_totals(self) -> None:
        with self._lock:
            for stat in (self.bytes, self.blocks, self.reserved, self.segments):
                stat.reset_totals()

    def stats(self) -> OrderedDict:
        """The counters under PyTorch's ``memory_stats`` keys, sorted by key."""
        flat: dict[str, int] = {}
        for name, stat in (
            ("active", self.blocks),
            ("active_bytes", self.bytes),
            ("allocated_bytes", self.bytes),
            ("allocation", self.blocks),
            ("requested_bytes", self.bytes),
            ("reserved_bytes", self.reserved),
            ("segment", self.segments),
        ):
            for field in ("current", "peak", "allocated", "freed"):
                flat[f"{name}.all.{field}"] = getattr(stat, field)
        flat["num_alloc_retries"] = 0
        flat["num_ooms"] = 0
        flat["num_sync_all_streams"] = 0
        flat["num_device_alloc"] = self.segments.allocated
        flat["num_device_free"] = self.segments.freed
        return OrderedDict(sorted(flat.items()))
