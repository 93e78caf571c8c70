"""Reading Lua Torch 7 serialized objects (binary or ascii) into Python values."""

from __future__ import annotations

import math
import struct

import numpy as np

import torch

from . import _format as fmt
from ._lua_modules import legacy_class, module_from_fields

_WHITESPACE = b" \t\r\n"


class _BinaryStream:
    def __init__(self, file, long_size):
        self.file, self.long_size = file, long_size

    def _take(self, n):
        data = self.file.read(n)
        if len(data) != n:
            raise EOFError(f"the .t7 file ended early (wanted {n} bytes, got {len(data)})")
        return data

    def read_int(self):
        return struct.unpack("<i", self._take(4))[0]

    def read_long(self):
        return struct.unpack("<q" if self.long_size == 8 else "<i", self._take(self.long_size))[0]

    def read_longs(self, n):
        return [self.read_long() for _ in range(n)]

    def read_double(self):
        return struct.unpack("<d", self._take(8))[0]

    def read_bytes(self, n):
        return self._take(n)

    def read_array(self, n, dtype):
        np_type = fmt.NUMPY_TYPES[dtype]
        return np.frombuffer(self._take(n * np_type.itemsize), dtype=np_type).copy()


class _AsciiStream:
    """Numbers are whitespace-separated text; one newline after a group is consumed, as
    Lua Torch's reader does, so that raw bytes that follow start at the right place."""

    def __init__(self, file):
        self.file = file

    def _peek(self):
        position = self.file.tell()
        char = self.file.read(1)
        self.file.seek(position)
        return char

    def _token(self):
        char = self.file.read(1)
        while char and char in _WHITESPACE:
            char = self.file.read(1)
        if not char:
            raise EOFError("the .t7 file ended early (wanted a number)")
        chars = [char]
        while (char := self._peek()) and char not in _WHITESPACE:
            chars.append(self.file.read(1))
        return b"".join(chars).decode("ascii")

    def _end_of_group(self):
        if self._peek() == b"\n":
            self.file.read(1)

    def _numbers(self, n, convert):
        values = [convert(self._token()) for _ in range(n)]
        if n:
            self._end_of_group()
        return values

    def read_int(self):
        return self._numbers(1, int)[0]

    def read_long(self):
        return self._numbers(1, int)[0]

    def read_longs(self, n):
        return self._numbers(n, int)

    def read_double(self):
        return self._numbers(1, float)[0]

    def read_bytes(self, n):
        data = self.file.read(n)
        if len(data) != n:
            raise EOFError(f"the .t7 file ended early (wanted {n} bytes, got {len(data)})")
        if n:
            self._end_of_group()
        return data

    def read_array(self, n, dtype):
        convert = float if dtype.is_floating_point else int
        return np.array(self._numbers(n, convert), dtype=fmt.NUMPY_TYPES[dtype])


class T7Reader:
    """Reads the objects of one Lua Torch 7 file.

    Args:
        file: a binary file object opened for reading.
        format (str): ``"binary"`` or ``"ascii"``.
        long_size (int): bytes of a long in a binary file, 8 or 4 (32-bit builds).
        unknown_classes (bool): read objects of classes with no Python counterpart as
            :class:`TorchObject` (``True``) or raise (``False``).
    """

    def __init__(self, file, format="binary", long_size=8, unknown_classes=True):
        self.stream = fmt.open_stream(file, format, long_size, _BinaryStream, _AsciiStream)
        self.unknown_classes = unknown_classes
        self.objects = {}

    def read_string(self):
        data = self.stream.read_bytes(self.stream.read_int())
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data

    def read_object(self):
        tag = self.stream.read_int()
        if tag == fmt.TYPE_NIL:
            return None
        if tag == fmt.TYPE_NUMBER:
            return _number(self.stream.read_double())
        if tag == fmt.TYPE_STRING:
            return self.read_string()
        if tag == fmt.TYPE_BOOLEAN:
            return self.stream.read_int() == 1
        if tag in (
            fmt.TYPE_TABLE,
            fmt.TYPE_TORCH,
            fmt.TYPE_FUNCTION,
            fmt.TYPE_RECUR_FUNCTION,
            fmt.LEGACY_TYPE_RECUR_FUNCTION,
        ):
            index = self.stream.read_int()
            if index in self.objects:
                return self.objects[index]
            if tag == fmt.TYPE_TABLE:
                return self._read_table(index)
            if tag == fmt.TYPE_TORCH:
                return self._read_torch(index)
            return self._read_function(index, tag != fmt.TYPE_FUNCTION)
        raise RuntimeError(
            f"unknown type tag {tag} in the .t7 file: not a Lua Torch file, "
            "or read with the wrong format or long_size"
        )

    def _read_table(self, index):
        table = {}
        self.objects[index] = table  # before the contents: a table may hold itself
        for _ in range(self.stream.read_int()):
            key = self.read_object()
            table[key] = self.read_object()
        # keys 1..n (in any order) make a Python list, as a Lua array is used
        if (
            table
            and all(type(k) is int for k in table)
            and set(table) == set(range(1, len(table) + 1))
        ):
            listed = [table[i] for i in range(1, len(table) + 1)]
            self.objects[index] = listed
            return listed
        return table

    def _read_function(self, index, recursive):
        bytecode = self.stream.read_bytes(self.stream.read_int())
        function = fmt.LuaFunction(bytecode, None, recursive)
        self.objects[index] = function
        function.upvalues = self.read_object()
        return function

    def _read_torch(self, index):
        first = self.read_string()
        if isinstance(first, str) and first.startswith("V "):
            class_name = self.read_string()
        else:  # files of the first format carry no version
            class_name = first
        kind = fmt.split_class_name(class_name)
        if kind is not None and kind[0] == "Storage":
            result = self._read_storage(kind[1])
        elif kind is not None:
            result = self._read_tensor(kind[1])
        else:
            return self._read_class_object(index, class_name)
        self.objects[index] = result
        return result

    def _read_storage(self, dtype):
        size = self.stream.read_long()
        return torch.from_numpy(self.stream.read_array(size, dtype)).storage()

    def _read_tensor(self, dtype):
        ndim = self.stream.read_int()
        sizes = self.stream.read_longs(ndim)
        strides = self.stream.read_longs(ndim)
        offset = self.stream.read_long() - 1
        storage = self.read_object()
        if ndim == 0 or storage is None:
            return torch.empty(0, dtype=dtype)
        return torch.empty(0, dtype=dtype).set_(storage, offset, sizes, strides)

    def _read_class_object(self, index, class_name):
        cls = legacy_class(class_name)
        if cls is None and not self.unknown_classes:
            raise TypeError(
                f"the .t7 file holds an object of class {class_name}, which has "
                "no Python counterpart (pass unknown_classes=True to read it)"
            )
        placeholder = fmt.TorchObject(class_name)
        self.objects[index] = placeholder
        fields = self.read_object()
        if cls is None:
            placeholder._fields = dict(fields) if isinstance(fields, dict) else {"": fields}
            return placeholder
        module = module_from_fields(cls, fields if isinstance(fields, dict) else {})
        self.objects[index] = module
        return module


def _number(value):
    """Lua has one number type: an integral value comes back as an int."""
    if math.isfinite(value) and value == int(value) and abs(value) < 2**53:
        return int(value)
    return value
