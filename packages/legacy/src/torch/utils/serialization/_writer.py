"""Writing Python values in Lua Torch 7's serialization format (binary or ascii)."""

from __future__ import annotations

import struct

import torch

from . import _format as fmt
from ._lua_modules import fields_for_lua


class _BinaryOut:
    def __init__(self, file, long_size):
        self.file, self.long_size = file, long_size

    def write_int(self, value):
        self.file.write(struct.pack("<i", value))

    def write_longs(self, values):
        code = "<q" if self.long_size == 8 else "<i"
        for value in values:
            self.file.write(struct.pack(code, value))

    def write_double(self, value):
        self.file.write(struct.pack("<d", value))

    def write_bytes(self, data):
        self.file.write(data)

    def write_array(self, array):
        self.file.write(array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes())


class _AsciiOut:
    """Numbers as text, a space between the numbers of one group and a newline after it;
    raw bytes followed by a newline (what Lua Torch's ascii files look like)."""

    def __init__(self, file):
        self.file = file

    def _numbers(self, texts):
        if texts:
            self.file.write((" ".join(texts) + "\n").encode("ascii"))

    def write_int(self, value):
        self._numbers([str(int(value))])

    def write_longs(self, values):
        self._numbers([str(int(v)) for v in values])

    def write_double(self, value):
        self._numbers([_double_text(value)])

    def write_bytes(self, data):
        self.file.write(data)
        if data:
            self.file.write(b"\n")

    def write_array(self, array):
        if array.dtype.kind == "f":
            self._numbers([_double_text(float(v)) for v in array.tolist()])
        else:
            self._numbers([str(int(v)) for v in array.tolist()])


def _double_text(value):
    return repr(float(value))  # shortest text that reads back to the same double


class T7Writer:
    """Writes Python values as one Lua Torch 7 file.

    ``None``, bools, ints and floats (Lua numbers: doubles), ``str``/``bytes``, lists
    and tuples (tables with keys 1..n), dicts (tables), tensors and storages of the
    types Lua Torch has (uint8, int8, int16, int32, int64, float16, float32, float64),
    ``torch.legacy.nn`` modules and criterions, :class:`TorchObject` and
    :class:`LuaFunction` values. An object met twice is written once and referenced,
    and tensors that share a storage still share it when read back.
    """

    def __init__(self, file, format="binary", long_size=8):
        self.out = fmt.open_stream(file, format, long_size, _BinaryOut, _AsciiOut)
        self.indices = {}
        self._keep_alive = []  # the ids in `indices` stay unique while writing

    def write_string(self, value):
        data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
        self.out.write_int(len(data))
        self.out.write_bytes(data)

    def _reference(self, tag, key, holder):
        """Write ``tag`` and the object's index; True when it was written before."""
        self.out.write_int(tag)
        if key in self.indices:
            self.out.write_int(self.indices[key])
            return True
        self.indices[key] = len(self.indices) + 1
        self._keep_alive.append(holder)
        self.out.write_int(self.indices[key])
        return False

    def write_object(self, obj):
        if obj is None:
            self.out.write_int(fmt.TYPE_NIL)
        elif isinstance(obj, bool):
            self.out.write_int(fmt.TYPE_BOOLEAN)
            self.out.write_int(1 if obj else 0)
        elif isinstance(obj, (int, float)):
            self.out.write_int(fmt.TYPE_NUMBER)
            self.out.write_double(float(obj))
        elif isinstance(obj, (str, bytes, bytearray)):
            self.out.write_int(fmt.TYPE_STRING)
            self.write_string(obj)
        elif isinstance(obj, torch.Tensor):
            self._write_tensor(obj)
        elif isinstance(obj, torch.TypedStorage):
            self._write_storage(obj)
        elif isinstance(obj, (list, tuple)):
            self._write_table(obj, {i + 1: v for i, v in enumerate(obj)})
        elif isinstance(obj, dict):
            self._write_table(obj, obj)
        elif isinstance(obj, fmt.LuaFunction):
            self._write_function(obj)
        elif isinstance(obj, fmt.TorchObject):
            self._write_class_object(obj, obj.torch_typename(), obj._fields)
        elif _is_legacy_module(obj):
            self._write_class_object(obj, f"nn.{type(obj).__name__}", fields_for_lua(obj))
        else:
            raise TypeError(f"cannot write an object of type {type(obj).__name__} to a .t7 file")

    def _write_table(self, obj, pairs):
        if self._reference(fmt.TYPE_TABLE, id(obj), obj):
            return
        self.out.write_int(len(pairs))
        for key, value in pairs.items():
            self.write_object(key)
            self.write_object(value)

    def _write_function(self, function):
        tag = fmt.TYPE_RECUR_FUNCTION if function.recursive else fmt.TYPE_FUNCTION
        if self._reference(tag, id(function), function):
            return
        self.out.write_int(len(function.bytecode))
        self.out.write_bytes(function.bytecode)
        self.write_object(function.upvalues)

    def _write_header(self, class_name, key, holder):
        if self._reference(fmt.TYPE_TORCH, key, holder):
            return True
        self.write_string("V 1")
        self.write_string(class_name)
        return False

    def _write_class_object(self, obj, class_name, fields):
        if not self._write_header(class_name, id(obj), obj):
            self.write_object(fields)

    def _write_tensor(self, tensor):
        prefix = _lua_prefix(tensor.dtype)
        if self._write_header(f"torch.{prefix}Tensor", id(tensor), tensor):
            return
        if tensor.numel() == 0:
            self.out.write_int(0)
            self.out.write_longs([])
            self.out.write_longs([])
            self.out.write_longs([1])
            self.write_object(None)
            return
        # Lua has no 0-dimensional tensors: a scalar is written as one element
        sizes = list(tensor.shape) or [1]
        strides = list(tensor.stride()) or [1]
        self.out.write_int(len(sizes))
        self.out.write_longs(sizes)
        self.out.write_longs(strides)
        self.out.write_longs([tensor.storage_offset() + 1])
        self._write_storage(tensor.storage())

    def _write_storage(self, storage):
        prefix = _lua_prefix(storage.dtype)
        key = ("storage", storage.data_ptr(), storage.dtype)
        if self._write_header(f"torch.{prefix}Storage", key, storage):
            return
        size = storage.size()
        values = torch.empty(0, dtype=storage.dtype).set_(storage, 0, (size,), (1,))
        self.out.write_longs([size])
        self.out.write_array(values.numpy())


def _lua_prefix(dtype):
    if dtype not in fmt.CPU_PREFIX:
        raise TypeError(
            f"Lua Torch has no tensor type for {dtype}: convert it first (e.g. .byte() "
            "for bool, .float() for bfloat16)"
        )
    return fmt.CPU_PREFIX[dtype]


def _is_legacy_module(obj):
    module_types = []
    try:
        from torch.legacy import nn
    except ImportError:  # pragma: no cover - torch.legacy ships with this module
        return False
    module_types = (nn.Module, nn.Criterion)
    return isinstance(obj, module_types)
