"""``Tensor.__getitem__`` and ``__setitem__``: basic indexing (ints, slices, ``None``,
``...``) gives views; advanced indexing (integer and bool tensors, lists) copies, with
NumPy's (= PyTorch's) result shapes."""

from __future__ import annotations

import numpy as np

from . import _dtype, _fastpath
from ._ops import views
from ._ops._dispatch import check_array_overlap, check_inplace_fill, record, register_op
from ._ops.views import alias_of_array, strided_view
from ._tensor import Tensor

__all__ = ["getitem", "setitem"]


def _index_error(error: IndexError, ndim: int) -> IndexError:
    text = str(error).replace("axis", "dimension")
    if text.startswith("too many indices"):
        return IndexError(f"too many indices for tensor of dimension {ndim}")
    return IndexError(text)


def _check_zero_dim_index(index) -> None:
    """PyTorch's messages for a lone int or slice on a 0-dim tensor (the 0.3 habit of
    reading a loss as ``loss.data[0]``)."""
    if isinstance(index, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(index, (int, np.integer)) and not isinstance(index, bool):
        if index != 0:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size 0")
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )


def _is_array(item) -> bool:
    """Whether an index entry is an array: host NumPy, or a device's (CuPy's) array."""
    return isinstance(item, np.ndarray) or (
        hasattr(item, "__array_function__") and not isinstance(item, np.generic)
    )


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
    raise IndexError(
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
        result = input._np[index]  # always a copy, as in PyTorch
        result = np.array(result, order="C") if isinstance(result, np.ndarray) else result.copy()
    except IndexError as error:
        raise _index_error(error, input._np.ndim) from None
    return record(
        INDEX, (input,), Tensor._from_array(result, input._dtype), (index, tuple(input._np.shape))
    )


INDEX = register_op(
    "index",
    _index,
    "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
    "indexing",
    kernel=np.ndarray.__getitem__,
    saved=("index", "shape"),
    fast={"Tensor.__getitem__": _fastpath.getitem},
    binding="Tensor.__getitem__",
)


def _split_basic(index: tuple):
    """PyTorch applies integer indices as ``select`` before advanced indexing (NumPy
    counts them as advanced): the basic part as a view index, and what remains for the
    advanced part."""
    basic, rest = [], []
    for item in index:
        if _is_array(item):
            keeps = item.ndim if item.dtype == bool else 1
            basic += [slice(None)] * keeps
            rest.append(item)
        elif item is None:
            basic.append(None)
            rest.append(slice(None))
        elif item is Ellipsis:
            basic.append(Ellipsis)
            rest.append(Ellipsis)
        elif isinstance(item, slice):
            basic.append(item)
            rest.append(slice(None))
        else:  # an integer: it removes its dim
            basic.append(item)
    return tuple(basic), tuple(rest)


def _check_masks(shape, index: tuple) -> None:
    dim = 0
    ellipsis_span = len(shape) - sum(
        (i.ndim if _is_array(i) and i.dtype == bool else 1)
        for i in index
        if i is not None and i is not Ellipsis
    )
    for item in index:
        if item is Ellipsis:
            dim += ellipsis_span
        elif _is_array(item) and item.dtype == bool:
            for k, size in enumerate(item.shape):
                if dim + k < len(shape) and shape[dim + k] != size:
                    raise IndexError(
                        f"The shape of the mask {list(item.shape)} at index {k} does "
                        f"not match the shape of the indexed tensor {list(shape)} "
                        f"at index {dim + k}"
                    )
            dim += item.ndim
        elif item is not None:
            dim += 1


def _basic_view_op(self: Tensor, index):
    """The composite PyTorch's indexing ends with for a basic index, which names the
    view's node: entries apply left to right (``None`` unsqueezes, an int selects, a slice
    slices unless it keeps a whole dim); none left is an alias. A lone slice always
    slices."""
    if isinstance(index, slice):
        return views.SLICE
    items = index if isinstance(index, tuple) else (index,)
    span = self._np.ndim - sum(i is not None and i is not Ellipsis for i in items)
    op, dim = views.ALIAS, 0
    for item in items:
        if item is None:
            op = views.UNSQUEEZE
            continue
        if item is Ellipsis:
            dim += span
            continue
        if isinstance(item, slice):
            whole = item.start in (None, 0) and item.step in (None, 1)
            if not (whole and (item.stop is None or item.stop >= self._np.shape[dim])):
                op = views.SLICE
        else:
            op = views.SELECT
        dim += 1
    return op


def _basic_view(self: Tensor, index):
    """The view for a basic index (a 0-dim view, not a NumPy scalar, for all-int ones)."""
    op = _basic_view_op(self, index)
    if not isinstance(index, tuple):
        index = (index,)
    if Ellipsis not in index:
        index = index + (Ellipsis,)
    try:
        array = self._np[index]
    except IndexError as error:
        raise _index_error(error, self._np.ndim) from None
    if array.size == 0 or any(item is None for item in index):
        # NumPy's empty views keep neither strides nor offset, and its new axes have
        # stride 0 where PyTorch's unsqueeze gives size * stride of the next dim
        return strided_view(self, *_basic_geometry(self, index), op)
    return alias_of_array(self, array, op)


def _basic_geometry(self: Tensor, index: tuple):
    """PyTorch's ``(sizes, strides, storage_offset)`` for a valid basic index. Entries
    apply left to right as in PyTorch: ``None`` unsqueezes, an int selects, a slice clamps
    its bounds and moves the offset to its (clamped) start even when it selects nothing."""
    shape, strides, offset = list(self._np.shape), list(self.stride()), self._offset
    consumed = sum(1 for item in index if item is not None and item is not Ellipsis)
    sizes, steps, dim = [], [], 0
    for item in index:
        if item is Ellipsis:
            span = len(shape) - consumed
            sizes += shape[dim : dim + span]
            steps += strides[dim : dim + span]
            dim += span
            consumed += span  # a second Ellipsis is not valid, NumPy has refused it
        elif item is None:
            sizes.append(1)
            steps.append(shape[dim] * strides[dim] if dim < len(shape) else 1)
        elif isinstance(item, slice):
            size = shape[dim]
            start = 0 if item.start is None else item.start
            stop = size if item.stop is None else item.stop
            step = 1 if item.step is None else item.step
            start = start + size if start < 0 else start
            stop = stop + size if stop < 0 else stop
            start = min(max(start, 0), size)
            stop = min(max(stop, start), size)
            offset += start * strides[dim]
            sizes.append((stop - start + step - 1) // step)
            steps.append(strides[dim] * step)
            dim += 1
        else:
            offset += (int(item) % shape[dim]) * strides[dim]
            dim += 1
    return sizes + shape[dim:], steps + strides[dim:], offset


def getitem(self: Tensor, index):
    if not self._np.ndim:
        _check_zero_dim_index(index)
    converted, advanced = convert_index(index)
    if not advanced:
        return _basic_view(self, converted)
    if not isinstance(converted, tuple):
        converted = (converted,)
    basic, rest = _split_basic(converted)
    base = (
        _basic_view(self, basic)
        if any(not (isinstance(b, slice) and b == slice(None)) for b in basic)
        else self
    )
    _check_masks(base._np.shape, rest)
    return _index(base, rest)


def _index_put_backward_mask(shape, index, dtype) -> Tensor:
    """Ones with zeros where ``index`` wrote: the gradient that reaches the old values."""
    mask = np.ones(shape, dtype=dtype.np_dtype)
    mask[index] = 0
    return Tensor._from_array(mask, dtype)


def _setitem_shape_error(self: Tensor, index, source, advanced: bool) -> RuntimeError:
    target = list(np.empty(self._np.shape, dtype=bool)[index].shape)
    value_shape = list(np.shape(source))
    if advanced:
        return RuntimeError(
            f"shape mismatch: value tensor of shape {value_shape} cannot be "
            f"broadcast to indexing result of shape {target}"
        )
    # a basic index writes through copy_, which expands the value
    lead = len(target) - len(value_shape)
    for i, size in enumerate(value_shape):
        if size != 1 and size != target[lead + i]:
            return RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing "
                f"size ({size}) at non-singleton dimension {lead + i}.  Target sizes: {target}.  "
                f"Tensor sizes: {value_shape}"
            )
    return RuntimeError(
        f"shape mismatch: value tensor of shape {value_shape} cannot be "
        f"broadcast to indexing result of shape {target}"
    )


def _setitem_shape_error(self: Tensor, index, source, advanced: bool) -> RuntimeError:
    target = list(np.empty(self._np.shape, dtype=bool)[index].shape)
    value_shape = list(np.shape(source))
    if not advanced:
        # a basic index writes through copy_, which expands the value
        lead = len(target) - len(value_shape)
        for i, size in enumerate(value_shape):
            if size != 1 and lead + i >= 0 and size != target[lead + i]:
                return RuntimeError(
                    f"The expanded size of the tensor ({target[lead + i]}) must match the "
                    f"existing size ({size}) at non-singleton dimension {lead + i}.  Target "
                    f"sizes: {target}.  Tensor sizes: {value_shape}"
                )
    return RuntimeError(
        f"shape mismatch: value tensor of shape {value_shape} cannot be "
        f"broadcast to indexing result of shape {target}"
    )


def _with_ellipsis(index):
    index = index if isinstance(index, tuple) else (index,)
    return index if Ellipsis in index else index + (Ellipsis,)


def _drop_leading_ones(source: np.ndarray, ndim: int) -> np.ndarray:
    """A value with extra leading size-1 dims fits a smaller target, as with copy_."""
    extra = source.ndim - ndim
    if extra > 0 and all(size == 1 for size in source.shape[:extra]):
        return source.reshape(source.shape[extra:])
    return source


def setitem(self: Tensor, index, value) -> None:
    if not self._np.ndim:
        _check_zero_dim_index(index)
    converted, advanced = convert_index(index)
    recording = check_inplace_fill(self, value)
    if not advanced and not self._np.flags.c_contiguous:
        # a basic index writes a view: it must not overlap (advanced ones may, as PyTorch)
        check_array_overlap(self._np[_with_ellipsis(converted)])
    if isinstance(value, Tensor):
        source = value._np
        if source.dtype != self._np.dtype:
            source = source.astype(self._np.dtype)
    else:
        source = value
    if not advanced and _is_array(source):
        source = _drop_leading_ones(source, self._np[_with_ellipsis(converted)].ndim)
    try:
        self._np[converted] = source
    except IndexError as error:
        raise _index_error(error, self._np.ndim) from None
    except ValueError:
        raise _setitem_shape_error(self, converted, source, advanced) from None
    self._bump_version()
    if recording:
        record(INDEX_PUT, (self, value), self, (converted, tuple(self._np.shape)))


INDEX_PUT = register_op(
    "index_put_",
    setitem,
    "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values) -> Tensor(a!)",
    "indexing",
    kernel=np.ndarray.__setitem__,
    inplace=True,
    saved=("index", "shape"),
    binding="Tensor.__setitem__",
    backward_mask=_index_put_backward_mask,
)
