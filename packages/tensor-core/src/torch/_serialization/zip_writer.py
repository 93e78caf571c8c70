"""Writes the uncompressed zip archive that holds a checkpoint.

Every record's data starts at a multiple of 64 bytes (the padding goes into an extra
field of the local header), so a reader can map a storage straight from the file with
the alignment any dtype needs. Sizes and CRCs follow each record in a data descriptor,
and zip64 fields appear only when a size or offset needs them.
"""

from __future__ import annotations

import struct
import threading
import zlib

from .limits import CHUNK_BYTES

__all__ = ["ZipWriter", "ALIGNMENT"]

ALIGNMENT = 64
_LOCAL = struct.Struct("<IHHHHHIIIHH")
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")
_EOCD = struct.Struct("<IHHHHIIH")
_EOCD64 = struct.Struct("<IQHHIIQQQQ")
_LOCATOR64 = struct.Struct("<IIQI")
_U32_MAX = 0xFFFFFFFF
_DOS_DATE = (0 << 9) | (1 << 5) | 1  # 1980-01-01, the earliest date zip can state
_PADDING_ID = 0x4246  # "FB": an extra field that only carries alignment padding
_UTF8_NAMES = 0x0800
_HAS_DESCRIPTOR = 0x0008  # CRC and sizes follow the data
_DESCRIPTOR_SIGNATURE = 0x08074B50
_THREADED_CRC_BYTES = 1 << 23


def _crc32(data: memoryview) -> int:
    crc = 0
    for start in range(0, len(data), CHUNK_BYTES):
        crc = zlib.crc32(data[start : start + CHUNK_BYTES], crc)
    return crc


class _Entry:
    __slots__ = ("name", "offset", "size", "crc")

    def __init__(self, name: bytes, offset: int, size: int, crc: int):
        self.name, self.offset, self.size, self.crc = name, offset, size, crc

    @property
    def needs_zip64(self) -> bool:
        return self.size >= _U32_MAX or self.offset >= _U32_MAX


class ZipWriter:
    """Append records to ``file`` (anything with ``write``) under the folder ``prefix``;
    ``close()`` writes the central directory."""

    def __init__(self, file, prefix: str, compute_crc: bool = True):
        self._file = file
        self._prefix = prefix
        self._compute_crc = compute_crc
        self._entries: list[_Entry] = []
        self._names: set[bytes] = set()
        self._position = 0  # offsets are relative to where the archive starts

    def _write(self, data) -> None:
        self._file.write(data)
        self._position += len(data)

    def write_record(self, name: str, data, *, zeros: bool = False) -> None:
        """Store ``data`` (bytes or any contiguous buffer) as ``<prefix>/<name>``.

        The CRC goes into a data descriptor after the bytes (as PyTorch writes it), so
        a large record's CRC is computed by a helper thread while the bytes are written:
        both release the GIL, and the record is read from memory twice in parallel
        instead of one pass after the other.
        """
        view = memoryview(data).cast("B")  # with zeros=True only its size is used
        full_name = f"{self._prefix}/{name}".encode()
        if full_name in self._names:
            raise RuntimeError(f"torch.save: record '{name}' written twice")
        self._names.add(full_name)
        entry = _Entry(full_name, self._position, view.nbytes, 0)
        self._entries.append(entry)
        large = entry.size >= _U32_MAX
        zip64 = struct.pack("<HHQQ", 1, 16, 0, 0) if large else b""
        header_end = entry.offset + _LOCAL.size + len(full_name) + len(zip64) + 4
        padding = -header_end % ALIGNMENT
        extra = zip64 + struct.pack("<HH", _PADDING_ID, padding) + b"Z" * padding
        size_field = _U32_MAX if large else 0
        header = _LOCAL.pack(
            0x04034B50,
            45 if large else 20,
            _UTF8_NAMES | _HAS_DESCRIPTOR,
            0,  # stored
            0,
            _DOS_DATE,
            0,  # CRC and sizes follow the data
            size_field,
            size_field,
            len(full_name),
            len(extra),
        )
        self._write(header + full_name + extra)
        if zeros:
            entry.crc = self._write_zeros(view.nbytes)
        elif self._compute_crc:
            entry.crc = self._write_data(view)
        else:
            self._write_chunks(view)
        sizes = struct.pack("<QQ" if large else "<II", entry.size, entry.size)
        self._write(struct.pack("<II", _DESCRIPTOR_SIGNATURE, entry.crc) + sizes)

    def _write_data(self, view: memoryview) -> int:
        """Write ``view`` and return its CRC-32."""
        if view.nbytes < _THREADED_CRC_BYTES:
            self._write(view)
            return _crc32(view)
        result = []
        worker = threading.Thread(target=lambda: result.append(_crc32(view)), daemon=True)
        worker.start()
        try:
            self._write_chunks(view)
        finally:
            worker.join()
        return result[0]

    def _write_chunks(self, view: memoryview) -> None:
        for start in range(0, view.nbytes, CHUNK_BYTES):
            self._write(view[start : start + CHUNK_BYTES])

    def _write_zeros(self, nbytes: int) -> int:
        """Reserve ``nbytes`` of zeros (``skip_data``); the CRC is left 0, as the bytes
        are meant to be filled in later."""
        block = bytes(min(nbytes, CHUNK_BYTES))
        for start in range(0, nbytes, CHUNK_BYTES):
            self._write(memoryview(block)[: min(CHUNK_BYTES, nbytes - start)])
        return 0

    def close(self) -> None:
        """Write the central directory and the end records."""
        directory_start = self._position
        any_zip64 = False
        for entry in self._entries:
            any_zip64 |= entry.needs_zip64
            self._write(self._central_header(entry))
        directory_size = self._position - directory_start
        count = len(self._entries)
        if any_zip64 or count >= 0xFFFF or directory_start >= _U32_MAX:
            eocd64_offset = self._position
            self._write(
                _EOCD64.pack(
                    0x06064B50, _EOCD64.size - 12, 45, 45, 0, 0, count, count,
                    directory_size, directory_start,
                )
            )  # fmt: skip
            self._write(_LOCATOR64.pack(0x07064B50, 0, eocd64_offset, 1))
            count16, size32, start32 = 0xFFFF, _U32_MAX, _U32_MAX
        else:
            count16, size32, start32 = count, directory_size, directory_start
        self._write(_EOCD.pack(0x06054B50, 0, 0, count16, count16, size32, start32, 0))

    def _central_header(self, entry: _Entry) -> bytes:
        values = []
        size_field = offset_field = None
        if entry.size >= _U32_MAX:
            values += [entry.size, entry.size]
            size_field = _U32_MAX
        if entry.offset >= _U32_MAX:
            values.append(entry.offset)
            offset_field = _U32_MAX
        extra = struct.pack(f"<HH{len(values)}Q", 1, 8 * len(values), *values) if values else b""
        header = _CENTRAL.pack(
            0x02014B50,
            45 if values else 20,
            45 if values else 20,
            _UTF8_NAMES | _HAS_DESCRIPTOR,
            0,
            0,
            _DOS_DATE,
            entry.crc,
            entry.size if size_field is None else size_field,
            entry.size if size_field is None else size_field,
            len(entry.name),
            len(extra),
            0,
            0,
            0,
            0,
            entry.offset if offset_field is None else offset_field,
        )
        return header + entry.name + extra
