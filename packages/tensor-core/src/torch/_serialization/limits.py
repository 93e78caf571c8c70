"""Caps the reader enforces before it allocates anything a file asks for.

A checkpoint from an untrusted source may claim any size. Each claim is checked against
what the file can physically hold, so a lie costs an exception, never the memory.
"""

from __future__ import annotations

# Deflate cannot expand data more than about 1032:1; a record claiming more than this
# ratio is a zip bomb, refused before its output buffer exists.
MAX_DEFLATE_RATIO = 1100

# The pickle of one checkpoint (the object graph without the tensor bytes).
MAX_PICKLE_BYTES = 1 << 32

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
