"""Caps the reader enforces before it allocates anything a file asks for.

A checkpoint from an untrusted source may claim any size. Each claim is checked against
what the file can physically hold, so a lie costs an exception, never the memory.
"""

from __future__ import annotations

import reprlib

# Deflate cannot expand data more than about 1032:1; a record claiming more than this
# ratio is a zip bomb, refused before its output buffer exists.
MAX_DEFLATE_RATIO = 1100

# The pickle of one checkpoint (the object graph without the tensor bytes).
MAX_PICKLE_BYTES = 1 << 32

# The largest a *compressed* data.pkl may inflate to, unless torch.load's
# ``max_pickle_bytes`` says otherwise. Unpickling can build ~80 bytes of objects per byte
# of pickle (EMPTY_DICT is one byte), so a 58 KB deflated pickle of 60 MB would need
# 5 GB. A stored pickle is bounded by the file itself; PyTorch never compresses records.
DEFAULT_MAX_INFLATED_PICKLE_BYTES = 1 << 24

# Keys (or set elements) of one container whose hashes are all equal. Each insert walks
# every earlier key with that hash, so N of them cost N**2 / 2 comparisons: 40k colliding
# ints in a 650 KB pickle took 15 s. Distinct keys hash alike only by accident (-1, -2).
MAX_EQUAL_HASHES = 32

# Nodes of one tuple used as a dict key or set element: hashing a tuple is not cached
# and walks all of it, so a tuple nested through the memo (t = (t1, t1), ...) would
# cost 2**depth per hash.
MAX_KEY_NODES = 256

# Entries in one zip's central directory; real checkpoints have one per storage.
MAX_RECORDS = 1 << 22

# Dimensions of one tensor (PyTorch's own limit is 64 in most kernels).
MAX_DIMS = 64

# Bytes read per call when copying a record out of a file or checking its CRC.
CHUNK_BYTES = 1 << 24

# Whether the bytes of each storage are checked against their CRC on load. The records
# that drive parsing (data.pkl, byteorder, ...) always are. Storages are not by default:
# PyTorch does not check them either, and the CRC pass over a large checkpoint costs
# more than reading it (about 1 s per GB against ~0.3 s). Set it to True to catch bit rot.
VERIFY_STORAGE_CRC = False


class _BoundedRepr(reprlib.Repr):
    """reprlib with small limits, safe for values a file built: nested shared lists
    cost at most a few hundred nodes, a 500k-bit integer is not converted to text."""

    def __init__(self):
        super().__init__()
        self.maxlevel, self.maxlist, self.maxtuple, self.maxdict = 3, 6, 6, 4
        self.maxstring, self.maxother, self.maxlong = 60, 60, 40

    def repr_int(self, x, level):
        if x.bit_length() > 128:
            return f"<int of {x.bit_length()} bits>"
        return super().repr_int(x, level)

    def repr_instance(self, x, level):
        if type(x) in (float, complex, bool, type(None)):
            return repr(x)
        if isinstance(x, type):
            return f"<class {x.__module__}.{x.__qualname__}>"[: self.maxother]
        return f"<{type(x).__name__}>"  # no user __repr__ runs for an error message


_BOUNDED = _BoundedRepr()


def bounded_repr(value) -> str:
    """A short repr of ``value`` that costs little whatever the file made it."""
    try:
        return _BOUNDED.repr(value)
    except Exception:  # a repr that raises (e.g. int too large for str)
        return f"<{type(value).__name__}>"
