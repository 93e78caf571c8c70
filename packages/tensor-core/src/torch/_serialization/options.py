"""Process-wide options of ``torch.save`` / ``torch.load``, set through the public
functions of ``torch.serialization``: whether saves compute CRC-32s, the byte order
assumed for checkpoints without a ``byteorder`` record, the mmap flags of
``load(mmap=True)``, and whether storage bytes are skipped (``skip_data``)."""

from __future__ import annotations

import enum
import mmap as _mmap
import sys

__all__ = [
    "LoadEndianness",
    "get_crc32_options",
    "set_crc32_options",
    "get_default_load_endianness",
    "set_default_load_endianness",
    "get_default_mmap_options",
    "set_default_mmap_options",
    "skip_data",
    "skipping_data",
    "assumed_byteorder",
]


class LoadEndianness(enum.Enum):
    """Byte order assumed for a checkpoint that does not record its own."""

    NATIVE = 1
    LITTLE = 2
    BIG = 3


class _State:
    compute_crc32 = True
    load_endianness: LoadEndianness | None = None
    mmap_flags = _mmap.MAP_PRIVATE
    skip_data_depth = 0


def get_crc32_options() -> bool:
    """Whether :func:`torch.save` computes the CRC-32 of each record (default True)."""
    return _State.compute_crc32


def set_crc32_options(compute_crc32: bool) -> None:
    """Whether :func:`torch.save` computes the CRC-32 of each record.

    Without them saving is faster, ``torch.load`` still reads the file, but zip tools
    report every record as corrupt.

    Args:
        compute_crc32 (bool): compute them (``True``, the default) or write zeros.
    """
    _State.compute_crc32 = compute_crc32


def get_default_load_endianness() -> LoadEndianness | None:
    """The byte order :func:`torch.load` assumes for checkpoints without a ``byteorder``
    record; None means little-endian (what such files were written in)."""
    return _State.load_endianness


def set_default_load_endianness(endianness: LoadEndianness | None) -> None:
    """Set the byte order :func:`torch.load` assumes for checkpoints that do not record
    one.

    Args:
        endianness (LoadEndianness or None): ``LITTLE``, ``BIG``, ``NATIVE`` (this
            machine's), or None for the default (little-endian).
    """
    if endianness is not None and not isinstance(endianness, LoadEndianness):
        raise TypeError("Invalid argument type in function set_default_load_endianness")
    _State.load_endianness = endianness


def assumed_byteorder() -> str:
    """``"little"`` or ``"big"``: the order of a checkpoint without a byteorder record."""
    endianness = _State.load_endianness
    if endianness is LoadEndianness.BIG:
        return "big"
    if endianness is LoadEndianness.NATIVE:
        return sys.byteorder
    return "little"


def get_default_mmap_options() -> int:
    """The flags of the mapping ``torch.load(mmap=True)`` makes: ``mmap.MAP_PRIVATE``
    (default: writes to loaded tensors stay in this process) or ``mmap.MAP_SHARED``."""
    return _State.mmap_flags


class set_default_mmap_options:
    """Set the flags of the mapping ``torch.load(mmap=True)`` makes; usable as a plain
    call or as a context manager that restores the previous flags on exit.

    Args:
        flags (int): ``mmap.MAP_PRIVATE`` (copy-on-write, the default) or
            ``mmap.MAP_SHARED`` (writes to the loaded tensors go to the file).

    Examples::

        >>> import mmap
        >>> with torch.serialization.set_default_mmap_options(mmap.MAP_SHARED):
        ...     torch.serialization.get_default_mmap_options() == mmap.MAP_SHARED
        True
        >>> torch.serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
        True
    """

    def __init__(self, flags: int) -> None:
        if flags not in (_mmap.MAP_PRIVATE, _mmap.MAP_SHARED):
            raise ValueError(
                "Invalid argument in function set_default_mmap_options, expected "
                f"mmap.MAP_PRIVATE or mmap.MAP_SHARED, but got {flags}"
            )
        self._previous = _State.mmap_flags
        _State.mmap_flags = flags

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info) -> None:
        _State.mmap_flags = self._previous


class skip_data:
    """Context manager: :func:`torch.save` writes every record but leaves the bytes of
    storages as zeros (to be filled in by a later pass), and :func:`torch.load` builds
    tensors of the saved shapes without reading their bytes (their values are
    undefined).

    Args:
        materialize_fake_tensors (bool): accepted for compatibility (this project has no
            fake tensors). Default: ``False``.

    Examples::

        >>> import io
        >>> buffer = io.BytesIO()
        >>> with torch.serialization.skip_data():
        ...     torch.save(torch.ones(3), buffer)
        >>> _ = buffer.seek(0)
        >>> torch.load(buffer)
        tensor([0., 0., 0.])
    """

    def __init__(self, materialize_fake_tensors: bool = False) -> None:
        self.materialize_fake_tensors = materialize_fake_tensors

    def __enter__(self) -> skip_data:
        _State.skip_data_depth += 1
        return self

    def __exit__(self, *exc_info) -> None:
        _State.skip_data_depth -= 1


def skipping_data() -> bool:
    return _State.skip_data_depth > 0
