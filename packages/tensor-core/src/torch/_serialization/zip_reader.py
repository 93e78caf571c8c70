"""Reads the zip archive of a checkpoint, trusting none of its numbers.

The central directory is located and parsed with every offset and size checked against
the file; record data is checked against its CRC; deflated records (PyTorch never writes
them, other tools might) are inflated into a buffer whose size was checked first, so a
zip bomb raises before anything is allocated.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from .limits import CHUNK_BYTES, MAX_DEFLATE_RATIO, MAX_RECORDS
from .sources import Source

__all__ = ["ZipReader", "ZIP_MAGIC"]

ZIP_MAGIC = b"PK\x03\x04"
_EOCD = struct.Struct("<IHHHHIIH")
_EOCD64 = struct.Struct("<IQHHIIQQQQ")
_LOCATOR64 = struct.Struct("<IIQI")
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")
_LOCAL = struct.Struct("<IHHHHHIIIHH")
_U16_MAX, _U32_MAX = 0xFFFF, 0xFFFFFFFF
_STORED, _DEFLATED = 0, 8
_INFLATE_STEP_BYTES = 1 << 20  # zlib builds each piece in blocks, then joins them: 2x


def corrupt(what: str) -> RuntimeError:
    return RuntimeError(
        f"torch.load: the checkpoint is not a valid zip archive ({what}); the file is "
        f"corrupted, truncated, or not a checkpoint"
    )


class _Record:
    __slots__ = ("name", "method", "flags", "crc", "packed_size", "size", "header_offset")

    def __init__(self, name, method, flags, crc, packed_size, size, header_offset):
        self.name, self.method, self.flags, self.crc = name, method, flags, crc
        self.packed_size, self.size, self.header_offset = packed_size, size, header_offset


class ZipReader:
    """The records of a zip archive held by ``source``, by name."""

    def __init__(self, source: Source):
        self._source = source
        self._records: dict[str, _Record] = {}
        self._directory_end = 0
        self._read_directory()
        first = next(iter(self._records), "")
        if "/" not in first:
            raise corrupt("its first record is not inside a folder")
        self.prefix = first.split("/", 1)[0]

    # ------------------------------------------------------------------ directory

    def _find_end_record(self) -> int:
        size = self._source.size
        tail_start = max(0, size - (_EOCD.size + _U16_MAX))
        tail = self._source.read(tail_start, size - tail_start, "end of archive")
        position = tail.rfind(b"PK\x05\x06")
        while position >= 0:
            if position + _EOCD.size <= len(tail):
                comment = struct.unpack_from("<H", tail, position + 20)[0]
                if position + _EOCD.size + comment == len(tail):
                    return tail_start + position
            position = tail.rfind(b"PK\x05\x06", 0, position)
        raise corrupt("no central directory found")

    def _read_directory(self) -> None:
        end = self._find_end_record()
        fields = _EOCD.unpack(self._source.read(end, _EOCD.size))
        _, disk, _, _, count, directory_size, directory_start, _ = fields
        limit = end
        if _U16_MAX in (count,) or _U32_MAX in (directory_size, directory_start):
            count, directory_size, directory_start, limit = self._read_zip64_end(end)
        elif disk != 0:
            raise corrupt("archives split over several disks are not supported")
        if count > MAX_RECORDS or count * _CENTRAL.size > directory_size:
            raise corrupt(f"{count} records in a directory of {directory_size} bytes")
        if directory_start + directory_size > limit:
            raise corrupt("the central directory lies outside the file")
        self._directory_end = directory_start
        directory = self._source.read(directory_start, directory_size, "central directory")
        position = 0
        for _ in range(count):
            position = self._parse_entry(directory, position)

    def _read_zip64_end(self, end: int):
        if end < _LOCATOR64.size:
            raise corrupt("missing zip64 locator")
        locator = _LOCATOR64.unpack(self._source.read(end - _LOCATOR64.size, _LOCATOR64.size))
        if locator[0] != 0x07064B50:
            raise corrupt("missing zip64 locator")
        record_start = locator[2]
        if record_start + _EOCD64.size > end - _LOCATOR64.size:
            raise corrupt("zip64 end record outside the file")
        fields = _EOCD64.unpack(self._source.read(record_start, _EOCD64.size))
        if fields[0] != 0x06064B50:
            raise corrupt("bad zip64 end record")
        return fields[7], fields[8], fields[9], record_start

    def _parse_entry(self, directory: bytes, position: int) -> int:
        if position + _CENTRAL.size > len(directory):
            raise corrupt("central directory cut short")
        fields = _CENTRAL.unpack_from(directory, position)
        if fields[0] != 0x02014B50:
            raise corrupt("bad central directory entry")
        flags, method, crc = fields[3], fields[4], fields[7]
        packed_size, size = fields[8], fields[9]
        name_length, extra_length, comment_length = fields[10], fields[11], fields[12]
        header_offset = fields[16]
        name_start = position + _CENTRAL.size
        extra_start = name_start + name_length
        end = extra_start + extra_length + comment_length
        if end > len(directory):
            raise corrupt("central directory entry cut short")
        try:
            name = directory[name_start:extra_start].decode("utf-8")
        except UnicodeDecodeError:
            raise corrupt("a record name is not UTF-8") from None
        extra = directory[extra_start : extra_start + extra_length]
        size, packed_size, header_offset = _apply_zip64(extra, size, packed_size, header_offset)
        if name in self._records:
            raise corrupt(f"record '{name}' appears twice")
        if flags & 1:
            raise corrupt(f"record '{name}' is encrypted")
        if method not in (_STORED, _DEFLATED):
            raise corrupt(f"record '{name}' uses unsupported compression method {method}")
        if header_offset >= self._directory_end:
            raise corrupt(f"record '{name}' starts outside the file")
        self._records[name] = _Record(name, method, flags, crc, packed_size, size, header_offset)
        return end

    # -------------------------------------------------------------------- records

    def names(self) -> list[str]:
        return list(self._records)

    def has_record(self, name: str) -> bool:
        return f"{self.prefix}/{name}" in self._records

    def _record(self, name: str) -> _Record:
        record = self._records.get(f"{self.prefix}/{name}")
        if record is None:
            raise corrupt(f"record '{name}' is missing")
        return record

    def record_size(self, name: str) -> int:
        return self._record(name).size

    def _data_offset(self, record: _Record) -> int:
        header = self._source.read(record.header_offset, _LOCAL.size, "local header")
        fields = _LOCAL.unpack(header)
        if fields[0] != 0x04034B50:
            raise corrupt(f"bad local header for '{record.name}'")
        start = record.header_offset + _LOCAL.size + fields[9] + fields[10]
        if start + record.packed_size > self._directory_end:
            raise corrupt(f"record '{record.name}' runs past the end of the data")
        if record.method == _STORED and record.packed_size != record.size:
            raise corrupt(f"stored record '{record.name}' has two different sizes")
        return start

    def read(self, name: str, limit: int | None = None, verify: bool = True) -> np.ndarray:
        """The bytes of record ``name`` as a fresh uint8 array, CRC-checked unless
        ``verify`` is False; records over ``limit`` bytes are refused before reading."""
        record = self._record(name)
        if limit is not None and record.size > limit:
            raise corrupt(f"record '{name}' claims {record.size} bytes, over the {limit} allowed")
        start = self._data_offset(record)
        if record.method == _STORED:
            data = self._source.read_array(start, record.size, f"record '{name}'")
        else:
            data = self._inflate(record, start)
        # a CRC of 0 on a stored record means "not computed" (set_crc32_options(False),
        # skip_data), as PyTorch's reader also accepts
        unchecked = record.crc == 0 and record.method == _STORED
        if verify and not unchecked and _crc32(data) != record.crc:
            raise corrupt(f"CRC mismatch in record '{name}'")
        return data

    def is_compressed(self, name: str) -> bool:
        return self._record(name).method != _STORED

    def map(self, name: str) -> np.ndarray:
        """Record ``name`` mapped from the file without reading it (stored records only)."""
        record = self._record(name)
        if record.method != _STORED:
            raise RuntimeError(f"torch.load(mmap=True): record '{name}' is compressed")
        return self._source.map_array(self._data_offset(record), record.size)

    def _inflate(self, record: _Record, start: int) -> np.ndarray:
        # A deflate stream can grow at most ~1032 times: a larger claim is a bomb
        if record.size > max(record.packed_size, 1) * MAX_DEFLATE_RATIO:
            raise corrupt(
                f"record '{record.name}' claims {record.size} bytes from "
                f"{record.packed_size} compressed bytes (a zip bomb?)"
            )
        output = np.empty(record.size, np.uint8)
        inflater = zlib.decompressobj(-15)
        done = 0
        for chunk_start in range(0, record.packed_size, CHUNK_BYTES):
            count = min(CHUNK_BYTES, record.packed_size - chunk_start)
            pending = self._source.read(start + chunk_start, count, f"record '{record.name}'")
            done = self._inflate_chunk(record, inflater, pending, output, done)
        if done != record.size or not inflater.eof:
            raise corrupt(f"record '{record.name}' inflates to the wrong size")
        return output

    @staticmethod
    def _inflate_chunk(record: _Record, inflater, pending: bytes, output, done: int) -> int:
        """Inflate ``pending`` into ``output`` from byte ``done`` on, a small piece per
        step: the output is filled in place, never held twice (a 1 GiB storage needs
        1 GiB, not 2), and more than the stated size is never produced."""
        while True:
            limit = min(_INFLATE_STEP_BYTES, record.size - done + 1)
            try:
                piece = inflater.decompress(pending, limit)
            except zlib.error as error:
                raise corrupt(f"record '{record.name}': {error}") from None
            if done + len(piece) > record.size:
                raise corrupt(f"record '{record.name}' inflates past its stated size")
            output[done : done + len(piece)] = np.frombuffer(piece, np.uint8)
            done += len(piece)
            pending = inflater.unconsumed_tail
            if not pending and (not piece or inflater.eof):
                return done


def _apply_zip64(extra: bytes, size: int, packed_size: int, header_offset: int):
    """The real sizes and offset when the 32-bit fields defer to a zip64 extra field."""
    if _U32_MAX not in (size, packed_size, header_offset):
        return size, packed_size, header_offset
    position = 0
    while position + 4 <= len(extra):
        tag, length = struct.unpack_from("<HH", extra, position)
        body = extra[position + 4 : position + 4 + length]
        position += 4 + length
        if tag != 1:
            continue
        values = list(struct.unpack_from(f"<{len(body) // 8}Q", body))
        if size == _U32_MAX:
            size = _take(values)
        if packed_size == _U32_MAX:
            packed_size = _take(values)
        if header_offset == _U32_MAX:
            header_offset = _take(values)
        return size, packed_size, header_offset
    raise corrupt("a record needs a zip64 field that is missing")


def _take(values: list) -> int:
    if not values:
        raise corrupt("zip64 field too short")
    return values.pop(0)


def _crc32(data: np.ndarray) -> int:
    crc = 0
    view = memoryview(data)
    for start in range(0, data.nbytes, CHUNK_BYTES):
        crc = zlib.crc32(view[start : start + CHUNK_BYTES], crc)
    return crc
