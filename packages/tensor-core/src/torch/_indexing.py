"""``Tensor.__getitem__`` and ``__setitem__``: basic indexing (ints, slices, ``None``,
``...``) gives views; advanced indexing (integer and bool tensors, lists) copies, with
NumPy's (= PyTorch's) result shapes."""

from __future__ import annotations

import numpy as np

from . import _dtype
from ._interface import OpDef, ops
from ._ops._dispatch import check_inplace, record
from ._ops.views import alias_of_array
from ._tensor import Tensor

__all__ = ["getitem", "setitem"]


def _index_error(error: IndexError) -> IndexError:
    text = str(error).replace("axis", "dimension")
    if text.startswith("too many indices"):
        return IndexError(text.replace("array", "tensor"))
    return IndexError(text)


def _convert(item, advanced: list):
    """One index entry in NumPy's terms; records in ``advanced`` whether it is advanced."""
    if isinstance(item, Tensor):
        if item._dtype is _dtype.bool_ or item._dtype is _dtype.uint8:
            advanced.append(True)
            return item._np.astype(bool, copy=False)
        if item._dtype.is_floating_point or item._dtype.is_complex:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if item._np.ndim == 0:
            return int(item._np)
        advanced.append(True)
        return item._np
    if isinstance(item, slice):
        step = item.step if item.step is None else int(item.step)
        if step is not None and step <= 0:
            raise ValueError("step must be greater than zero")
        start = item.start if item.start is None else int(item.start)
        stop = item.stop if item.stop is None else int(item.stop)
        return slice(start, stop, step)
    if item is None or item is Ellipsis or isinstance(item, (int, np.integer)):
        if isinstance(item, bool):
            advanced.append(True)
        return item
    if isinstance(item, (list, tuple, np.ndarray)):
        array = np.asarray(
            [_convert(i, []) if isinstance(i, Tensor) else i for i in item]
            if isinstance(item, (list, tuple))
            else item
        )
        if array.dtype.kind not in "biu":
            if array.size == 0:
                array = array.astype(np.int64)
            else:
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        advanced.append(True)
        return array
    raise TypeError(
        f"only integers, slices (`:`), ellipsis (`...`), None and long or byte "
        f"Variables are valid indices (got {type(item).__name__})"
    )


def convert_index(index):
    """``index`` in NumPy's terms, and whether it uses advanced indexing."""
    advanced: list = []
    if isinstance(index, tuple):
        return tuple(_convert(i, advanced) for i in index), bool(advanced)
    if isinstance(index, list):
        # a list of slices/None is a tuple index; a list of numbers is advanced
        if any(isinstance(i, (slice, type(None), type(Ellipsis))) for i in index):
            return tuple(_convert(i, advanced) for i in index), bool(advanced)
    return _convert(index, advanced), bool(advanced)


def _index(input: Tensor, index):
    """Advanced indexing: a new tensor (recorded as the ``index`` op)."""
    try:
        result = np.array(input._np[index])  # a copy even for a basic index (backward)
    except IndexError as error:
        raise _index_error(error) from None
    return record(
        INDEX, (input,), Tensor._from_array(result, input._dtype), (index, tuple(input._np.shape))
    )


INDEX = ops.register(
    OpDef(
        name="index",
        signature="index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
        kernels={"cpu": np.ndarray.__getitem__},
        family="indexing",
    )
)
INDEX.function = _index
INDEX.extra["binding"] = "Tensor.__getitem__"


def getitem(self: Tensor, index):
    converted, advanced = convert_index(index)
    if advanced:
        return _index(self, converted)
    try:
        array = self._np[converted]
    except IndexError as error:
        raise _index_error(error) from None
    return alias_of_array(self, array)


def _index_put_backward_mask(shape, index, dtype) -> Tensor:
    """Ones with zeros where ``index`` wrote: the gradient that reaches the old values."""
    mask = np.ones(shape, dtype=dtype.np_dtype)
    mask[index] = 0
    return Tensor._from_array(mask, dtype)


def setitem(self: Tensor, index, value) -> None:
    converted, _ = convert_index(index)
    recording = check_inplace(self, value)
    if isinstance(value, Tensor):
        source = value._np
        if source.dtype != self._np.dtype:
            source = source.astype(self._np.dtype)
    else:
        source = value
    try:
        self._np[converted] = source
    except IndexError as error:
        raise _index_error(error) from None
    except ValueError:
        target = np.empty(self._np.shape, dtype=bool)[converted].shape
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(np.shape(source))} "
            f"cannot be broadcast to indexing result of shape {list(target)}"
        ) from None
    self._bump_version()
    if recording:
        record(INDEX_PUT, (self, value), self, (converted, tuple(self._np.shape)))


INDEX_PUT = ops.register(
    OpDef(
        name="index_put_",
        signature="index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values) -> Tensor(a!)",
        kernels={"cpu": np.ndarray.__setitem__},
        family="indexing",
        inplace=True,
    )
)
INDEX_PUT.function = setitem
INDEX_PUT.extra["binding"] = "Tensor.__setitem__"
INDEX_PUT.extra["backward_mask"] = _index_put_backward_mask
