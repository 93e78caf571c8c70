"""What Lua Torch 7's ``torch.save``/``torch.load`` format is made of: the type tags
written before each value and the tensor and storage classes with their element types.

The layout, binary or ascii (File.lua of torch7 writes both): each value is an int tag
then its payload. A number is a double; a string an int length then its bytes; a
boolean an int (1 for true); a table or a torch object an int reference index (an
object written before is written as its index alone), then for a table the number of
pairs and each key and value, for a torch object a version string ``"V <n>"``, its
class name and what its class writes. A tensor writes its dimension count, sizes and
strides (longs), its 1-based storage offset (a long) and its storage (an object); a
storage its element count (a long) and the elements. Binary files store ints as 4 bytes,
longs as 8 (4 in files from 32-bit builds), all little-endian; ascii files write each
number as text followed by a space or a newline, and raw bytes followed by a newline.
"""

from __future__ import annotations

import numpy as np

import torch

TYPE_NIL = 0
TYPE_NUMBER = 1
TYPE_STRING = 2
TYPE_TABLE = 3
TYPE_TORCH = 4
TYPE_BOOLEAN = 5
TYPE_FUNCTION = 6
TYPE_RECUR_FUNCTION = 8
LEGACY_TYPE_RECUR_FUNCTION = 7

# element type of each Lua Torch tensor/storage class: the part between "torch." and
# "Tensor"/"Storage" (CUDA classes load as CPU tensors of the same element type)
ELEMENT_TYPES = {
    "Byte": torch.uint8,
    "Char": torch.int8,
    "Short": torch.int16,
    "Int": torch.int32,
    "Long": torch.int64,
    "Float": torch.float32,
    "Double": torch.float64,
    "Half": torch.float16,
    "Cuda": torch.float32,
    "CudaByte": torch.uint8,
    "CudaChar": torch.int8,
    "CudaShort": torch.int16,
    "CudaInt": torch.int32,
    "CudaLong": torch.int64,
    "CudaDouble": torch.float64,
    "CudaHalf": torch.float16,
}

CPU_PREFIX = {dtype: name for name, dtype in ELEMENT_TYPES.items() if not name.startswith("Cuda")}

NUMPY_TYPES = {
    torch.uint8: np.dtype("<u1"),
    torch.int8: np.dtype("<i1"),
    torch.int16: np.dtype("<i2"),
    torch.int32: np.dtype("<i4"),
    torch.int64: np.dtype("<i8"),
    torch.float32: np.dtype("<f4"),
    torch.float64: np.dtype("<f8"),
    torch.float16: np.dtype("<f2"),
}


def open_stream(file, format, long_size, binary, ascii):
    """``binary(file, long_size)`` or ``ascii(file)`` as ``format`` says, after checking
    the reader's and the writer's common arguments."""
    if format == "binary":
        if long_size not in (4, 8):
            raise ValueError(f"long_size must be 4 or 8, got {long_size}")
        return binary(file, long_size)
    if format == "ascii":
        return ascii(file)
    raise ValueError(f"format must be 'binary' or 'ascii', got {format!r}")


def split_class_name(name):
    """``("Tensor" | "Storage", dtype)`` for a tensor or storage class name, else None."""
    for kind in ("Tensor", "Storage"):
        if name.startswith("torch.") and name.endswith(kind):
            prefix = name[len("torch.") : -len(kind)]
            if prefix in ELEMENT_TYPES:
                return kind, ELEMENT_TYPES[prefix]
    return None


class TorchObject:
    """An object of a Lua Torch class that has no Python counterpart here: its class
    name (``torch_typename()``) and its fields, readable as attributes or items.

    Examples::

        >>> from torch.utils.serialization import TorchObject
        >>> obj = TorchObject("nn.SpatialFullConvolution", {"kW": 3})
        >>> obj.torch_typename(), obj.kW, obj["kW"]
        ('nn.SpatialFullConvolution', 3, 3)
    """

    def __init__(self, typename, fields=None):
        self._typename = typename
        self._fields = dict(fields or {})

    def torch_typename(self):
        return self._typename

    def __getattr__(self, name):
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(f"{self._typename} object has no field {name!r}")

    def __getitem__(self, key):
        return self._fields[key]

    def keys(self):
        return self._fields.keys()

    def __repr__(self):
        return f"TorchObject({self._typename!r}, fields={sorted(map(str, self._fields))})"


class LuaFunction:
    """A Lua function found in a file: its dumped bytecode and its upvalues. It cannot
    run in Python; it is kept so that a file can be read (and written back)."""

    def __init__(self, bytecode, upvalues, recursive=True):
        self.bytecode, self.upvalues, self.recursive = bytecode, upvalues, recursive

    def __call__(self, *args, **kwargs):
        raise RuntimeError("a Lua function read from a .t7 file cannot be called from Python")

    def __repr__(self):
        return f"<Lua function, {len(self.bytecode)} bytes of bytecode>"
