"""Type aliases for annotations, as PyTorch's ``torch.types`` spells them (libraries write
``from torch.types import Number, _size``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import IO, Any, TypeAlias, Union

import torch
from torch import Size, SymBool, SymFloat, SymInt, Tensor

__all__ = ["Number", "Device", "FileLike", "Storage"]

# the builtins under PyTorch's underscored names (torch.* shadows int, float, bool)
_bool: TypeAlias = bool
_complex: TypeAlias = complex
_float: TypeAlias = float
_int: TypeAlias = int
_str: TypeAlias = str
_bytes: TypeAlias = bytes

_dtype: TypeAlias = torch.dtype
_device: TypeAlias = torch.device
_layout: TypeAlias = torch.layout
_dispatchkey: TypeAlias = str

_size: TypeAlias = Size | list[int] | tuple[int, ...]
_symsize: TypeAlias = Size | Sequence[int | SymInt]

IntLikeType: TypeAlias = int | SymInt
FloatLikeType: TypeAlias = float | SymFloat
BoolLikeType: TypeAlias = bool | SymBool
PySymType: TypeAlias = SymInt | SymFloat | SymBool
py_sym_types = (SymInt, SymFloat, SymBool)

_TensorOrTensors: TypeAlias = Tensor | Sequence[Tensor]
_TensorOrOptionalTensors: TypeAlias = Tensor | Sequence[Tensor | None]
# (a forward reference by full name: torch-core does not import torch-autograd)
_TensorOrTensorsOrGradEdge: TypeAlias = Union[  # noqa: UP007 - a forward reference
    Tensor,
    Sequence[Tensor],
    "torch.autograd.graph.GradientEdge",
    Sequence["torch.autograd.graph.GradientEdge"],
]

#: the Python numbers a tensor op takes as a scalar
Number: TypeAlias = int | float | bool
_Number = (int, float, bool)

#: what a ``device=`` argument accepts
Device: TypeAlias = torch.device | str | int | None

#: what ``torch.save``/``torch.load`` accept as a file
FileLike: TypeAlias = Union[str, os.PathLike[str], IO[bytes]]  # noqa: UP007


class Storage:
    """The interface of a storage, for annotations: ``torch.UntypedStorage`` and
    ``torch.TypedStorage`` provide it."""

    _cdata: int
    device: torch.device
    dtype: torch.dtype
    _torch_load_uninitialized: bool

    def __deepcopy__(self, memo: dict[int, Any]) -> Storage:
        raise NotImplementedError

    def _new_shared(self, size: int) -> Storage:
        raise NotImplementedError

    def _write_file(self, f: Any, is_real_file: bool, save_size: bool, element_size: int) -> None:
        raise NotImplementedError

    def element_size(self) -> int:
        raise NotImplementedError

    def is_shared(self) -> bool:
        raise NotImplementedError

    def share_memory_(self) -> Storage:
        raise NotImplementedError

    def nbytes(self) -> int:
        raise NotImplementedError

    def cpu(self) -> Storage:
        raise NotImplementedError

    def data_ptr(self) -> int:
        raise NotImplementedError

    def from_file(self, filename: str, shared: bool = False, nbytes: int = 0) -> Storage:
        raise NotImplementedError

    def _new_with_file(self, f: Any, element_size: int) -> Storage:
        raise NotImplementedError
