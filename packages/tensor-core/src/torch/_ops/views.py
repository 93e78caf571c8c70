"""View ops: results share storage with their input, exactly as in PyTorch.

Primitives (registered, differentiable): ``view``, ``reshape``, ``permute``, ``expand``,
``as_strided``. Everything else (``t``, ``transpose``, ``narrow``, ``select``,
``unsqueeze``, ``squeeze``, ``flatten``, ``unflatten``, ``unfold``, ``diagonal``,
``unbind``, ``split``, ``chunk``, ``movedim``, basic indexing) is a composite of them.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype, _fastpath, _grad_mode
from .._interface import OpDef
from .._interface.backends import strided_view as array_view
from .._memory_format import contiguous_strides
from .._tensor import Tensor, make_view
from ._dispatch import (
    SparseLayoutError,
    check_tensor,
    contiguous,
    defop,
    record,
    register_op,
    sparse_kernel,
)

__all__ = [
    "view",
    "reshape",
    "permute",
    "expand",
    "as_strided",
    "t",
    "transpose",
    "narrow",
    "select",
    "unsqueeze",
    "squeeze",
    "flatten",
    "unflatten",
    "unfold",
    "diagonal",
    "unbind",
    "split",
    "chunk",
    "movedim",
    "view_as",
    "expand_as",
    "swapaxes",
    "swapdims",
    "moveaxis",
]


#: what a view recorded by its geometry saves (``(shape, strides, offset)`` of each)
_GEOMETRIES = ("input_geometry", "view_geometry")


def _register(name: str, signature: str, function, view: bool = True, saved=_GEOMETRIES):
    return register_op(name, function, signature, "view", view=view, saved=saved)


# ------------------------------------------------------------------------- helpers


def shape_arg(shape) -> tuple:
    """Sizes given as varargs or as one sequence."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    try:
        return tuple(int(s) for s in shape)
    except TypeError:
        raise TypeError(f"expected a sequence of ints, got {shape!r}") from None


def infer_shape(shape: tuple, numel: int) -> tuple:
    """``shape`` with one ``-1`` replaced so the element count is ``numel``."""
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if any(s < -1 for s in shape):
        raise RuntimeError(f"invalid shape dimension {min(shape)}")
    known = math.prod(s for s in shape if s != -1)
    if unknown:
        if known == 0 and numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                "unspecified dimension size -1 can be any value and is ambiguous"
            )
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        i = unknown[0]
        return shape[:i] + (numel // known,) + shape[i + 1 :]
    if known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def view_strides(old_shape, old_strides, new_shape):
    """Strides that let ``new_shape`` view a tensor of ``old_shape``/``old_strides``
    without copying, or None when no such strides exist (PyTorch's rule: each group of
    new dims must exactly cover a group of old dims that is contiguous within itself)."""
    if math.prod(old_shape) == 0 or not old_shape:
        if old_shape and tuple(old_shape) == tuple(new_shape):
            return tuple(old_strides)  # PyTorch keeps an empty tensor's strides as they are
        return contiguous_strides(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_stride = old_strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[d]
        chunk_ends = d == 0 or (
            old_shape[d - 1] != 1 and old_strides[d - 1] != tensor_numel * chunk_stride
        )
        if not chunk_ends:
            continue
        while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
            new_strides[view_d] = view_numel * chunk_stride
            view_numel *= new_shape[view_d]
            view_d -= 1
        if view_numel != tensor_numel:
            return None
        if d > 0:
            chunk_stride = old_strides[d - 1]
            tensor_numel = view_numel = 1
    return tuple(new_strides) if view_d == -1 else None


def geometry(t: Tensor) -> tuple:
    """``(sizes, strides, storage_offset)`` in elements."""
    return (tuple(t._np.shape), t.stride(), t._offset)


def _with_strides(base: Tensor, array: np.ndarray, strides) -> np.ndarray:
    """The empty ``array`` given the strides (in elements) PyTorch reports for it."""
    itemsize = array.itemsize
    return np.ndarray(
        array.shape, array.dtype, base._storage._buffer[:0], 0, tuple(s * itemsize for s in strides)
    )


def strided_alias(base: Tensor, shape, strides, offset: int) -> Tensor:
    """A tensor viewing ``base``'s storage with the given geometry (bounds-checked)."""
    itemsize = base._np.itemsize
    shape, strides = tuple(shape), tuple(strides)
    if any(n < 0 for n in shape):
        raise RuntimeError(
            f"Storage size calculation overflowed with sizes={list(shape)} and "
            f"strides={list(strides)}"
        )
    if any(s < 0 for s in strides):
        raise RuntimeError(
            f"as_strided: Negative strides are not supported at the moment, got "
            f"strides: {list(strides)}"
        )
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    storage = base._storage
    if 0 not in shape:
        needed = (offset + sum((n - 1) * s for n, s in zip(shape, strides)) + 1) * itemsize
        if needed > storage.nbytes():
            raise RuntimeError(
                f"setStorage: sizes {list(shape)}, strides {list(strides)}, storage offset "
                f"{offset}, and itemsize {itemsize} requiring a storage size of {needed} are out "
                f"of bounds for storage of size {storage.nbytes()}"
            )
        array = array_view(
            shape,
            base._dtype.np_dtype,
            storage._buffer,
            offset * itemsize,
            tuple(s * itemsize for s in strides),
        )
    else:
        array = array_view(
            shape,
            base._dtype.np_dtype,
            storage._buffer[:0],
            0,
            tuple(s * itemsize for s in strides),
        )
    return make_view(base, array, offset)


def _record_view(name_op: OpDef, input: Tensor, result: Tensor, saved=()) -> Tensor:
    if not (input._requires_grad and _grad_mode._state.enabled):
        return result  # nothing to record: the geometries are not worked out
    return record(name_op, (input,), result, (geometry(input), geometry(result)) + saved)


def _named(name: str, saved=_GEOMETRIES) -> OpDef:
    """An unregistered op for the composite view ``name``: torch-autograd records it with
    the derivative of the primitive it is made of (a strided view, a ``view`` or a
    ``permute``) under the node name PyTorch gives it (``select`` -> ``SelectBackward0``)."""
    return OpDef(
        name=f"_view_{name}", signature="", kernels={}, family="view", view=True, saved=saved
    )


#: the composites recorded as strided views, under PyTorch's node names
SELECT, SLICE, ALIAS, DIAGONAL, UNFOLD, UNSQUEEZE = (
    _named(n) for n in ("select", "slice", "alias", "diagonal", "unfold", "unsqueeze")
)
#: these record which of their outputs a view is too
UNBIND, SPLIT, SPLIT_WITH_SIZES = (
    _named(n, (*_GEOMETRIES, "output_nr")) for n in ("unbind", "split", "split_with_sizes")
)
#: the composites recorded as ``view``s or ``permute``s
VIEW_UNSQUEEZE, SQUEEZE, SQUEEZE_DIM, SQUEEZE_DIMS = (
    _named(n) for n in ("unsqueeze_view", "squeeze", "squeeze_dim", "squeeze_dims")
)
TRANSPOSE, T = _named("transpose", ("dims",)), _named("t", ("dims",))


# ----------------------------------------------------------------------- primitives


@defop("view", method=True, public=False, fast={"Tensor.view": _fastpath.view})
def view(input: Tensor, *shape) -> Tensor:
    """A view of ``input`` with another shape (one dim may be ``-1``), or with another
    dtype of the same or a different element size. Raises RuntimeError when the strides
    of ``input`` do not allow the shape without a copy (use ``reshape`` then).

    Examples::

        >>> x = torch.arange(6)
        >>> x.view(2, 3)
        tensor([[0, 1, 2],
                [3, 4, 5]])
        >>> x.view(2, 3).t().view(6)
        Traceback (most recent call last):
        ...
        RuntimeError: view size is not compatible with input tensor's size and stride ...
    """
    if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
        return _view_dtype(input, shape[0])
    return _view_shape(input, shape, VIEW)


def _view_shape(input: Tensor, shape, op) -> Tensor:
    """:func:`view` to a shape, recorded as ``op`` (``view`` or a composite's name)."""
    target = infer_shape(shape_arg(shape), input._np.size)
    if input._np.flags.c_contiguous and input._np.size:
        result = make_view(input, input._np.reshape(target))  # (always a view)
    else:
        strides = view_strides(tuple(input._np.shape), input.stride(), target)
        if strides is None:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
            )
        result = strided_alias(input, target, strides, input._offset)
    return _record_view(op, input, result)


def _view_dtype(input: Tensor, dtype) -> Tensor:
    old, new = input._dtype, dtype
    if old.itemsize != new.itemsize:
        names = f"{old._legacy[:-6]} as {new._legacy[:-6]}"
        if input._np.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 to view {names} (different element sizes)")
        if input.stride(-1) != 1:
            raise RuntimeError(
                f"self.stride(-1) must be 1 to view {names} (different element "
                f"sizes), but got {input.stride(-1)}"
            )
        if new.itemsize > old.itemsize and input._np.shape[-1] % (new.itemsize // old.itemsize):
            raise RuntimeError(
                f"self.size(-1) must be divisible by {new.itemsize // old.itemsize}"
                f" to view {names} (different element sizes), but got "
                f"{input._np.shape[-1]}"
            )
    array = input._np.view(new.np_dtype)
    if array.size == 0:  # NumPy's empty views lose the strides PyTorch keeps
        strides = list(input.stride())
        if old.itemsize != new.itemsize:
            strides = [s * old.itemsize // new.itemsize for s in strides[:-1]] + [1]
        array = _with_strides(input, array, strides)
    result = input._alias(array, input._offset * old.itemsize // new.itemsize)
    result._dtype = new
    result._offset_ = input._offset * old.itemsize // new.itemsize
    # as PyTorch: a view by dtype shares storage and version counter but is not
    # differentiable, so it is no view for autograd (``_base`` None; in-place writes into it
    # leave the history of ``input`` alone)
    result._base = None
    return result


VIEW = _register("view", "view(Tensor(a) self, SymInt[] size) -> Tensor(a)", view)


@defop("reshape", method=True)
def reshape(input: Tensor, *shape) -> Tensor:
    """``input`` with another shape: a view when the strides allow one, else a copy.

    Examples::

        >>> torch.arange(6).reshape(2, -1)
        tensor([[0, 1, 2],
                [3, 4, 5]])
    """
    check_tensor(input, "reshape")
    target = infer_shape(shape_arg(shape), input._np.size)
    if input._np.flags.c_contiguous and input._np.size:
        result = make_view(input, input._np.reshape(target))  # (always a view)
    else:
        strides = view_strides(tuple(input._np.shape), input.stride(), target)
        if strides is not None:
            result = strided_alias(input, target, strides, input._offset)
        else:
            result = Tensor._from_array(contiguous(input._np).reshape(target), input._dtype)
    return record(RESHAPE, (input,), result, (tuple(input._np.shape),))


RESHAPE = _register(
    "reshape",
    "reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)",
    reshape,
    view=False,
    saved=("input_shape",),
)


@defop("permute", method=True)
def permute(input: Tensor, *dims) -> Tensor:
    """A view of ``input`` with its dims reordered.

    Examples::

        >>> torch.zeros(2, 3, 4).permute(2, 0, 1).shape
        torch.Size([4, 2, 3])
    """
    return _permute(input, shape_arg(dims), PERMUTE)


def _permute(input: Tensor, dims, op) -> Tensor:
    """:func:`permute`, recorded as ``op`` (``permute`` or a composite's name)."""
    ndim = input._np.ndim
    if len(dims) != ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{ndim} is not equal to len(dims) = {len(dims)}"
        )
    wrapped = tuple(input._wrap_dim(d) for d in dims)
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    if input._np.size == 0:
        # NumPy's views of empty arrays lose the strides and storage offset
        shape, strides = input._np.shape, input.stride()
        result = strided_alias(
            input, [shape[d] for d in wrapped], [strides[d] for d in wrapped], input._offset
        )
    else:
        result = make_view(input, input._np.transpose(wrapped))  # (always a view)
    return record(op, (input,), result, (wrapped,))


PERMUTE = _register(
    "permute", "permute(Tensor(a) self, int[] dims) -> Tensor(a)", permute, saved=("dims",)
)


@defop("expand", method=True, public=False)
def expand(input: Tensor, *sizes) -> Tensor:
    """A view of ``input`` with size-1 dims repeated to ``sizes`` (stride 0, no copy);
    ``-1`` keeps a dim's size and new leading dims may be added.

    Examples::

        >>> torch.tensor([[1], [2]]).expand(2, 3)
        tensor([[1, 1, 1],
                [2, 2, 2]])
    """
    sizes = shape_arg(sizes)
    shape, strides = tuple(input._np.shape), input.stride()
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError(
            f"expand({input.type()}{{{list(shape)}}}, size={list(sizes)}): the number of sizes "
            f"provided ({len(sizes)}) must be greater or equal to the number of dimensions in "
            f"the tensor ({len(shape)})"
        )
    new_shape, new_strides = [], []
    for i, size in enumerate(sizes):
        if i < lead:
            if size < 0:
                raise RuntimeError(
                    f"The expanded size of the tensor ({size}) isn't allowed in a "
                    f"leading, non-existing dimension {i}"
                )
            new_shape.append(size)
            new_strides.append(0)
            continue
        old = shape[i - lead]
        if size == -1 or size == old:
            new_shape.append(old)
            new_strides.append(strides[i - lead])
        elif old == 1:
            new_shape.append(size)
            new_strides.append(0)
        else:
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size ({old}) "
                f"at non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                f"{list(shape)}"
            )
    result = strided_alias(input, new_shape, new_strides, input._offset)
    return record(EXPAND, (input,), result, (shape,))


EXPAND = _register(
    "expand",
    "expand(Tensor(a) self, SymInt[] size) -> Tensor(a)",
    expand,
    saved=("input_shape",),
)


@defop("as_strided", method=True, inplace=True, torch_inplace=True)
def as_strided(input: Tensor, size, stride, storage_offset=None) -> Tensor:
    """A view of ``input``'s storage with the given sizes, strides and offset (in
    elements). Out-of-bounds geometry raises RuntimeError.

    Examples::

        >>> torch.arange(6).as_strided((2, 2), (1, 2), 1)
        tensor([[1, 3],
                [2, 4]])
    """
    offset = input._offset if storage_offset is None else int(storage_offset)
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    result = strided_alias(input, size, stride, offset)
    return _record_view(AS_STRIDED, input, result)


AS_STRIDED = _register(
    "as_strided",
    "as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, "
    "SymInt? storage_offset=None) -> Tensor(a)",
    as_strided,
)


def strided_view(input: Tensor, shape, strides, offset: int, op=None, saved=()) -> Tensor:
    """A view of ``input`` with the geometry PyTorch gives it, where NumPy's differs
    (empty views keep neither strides nor storage offset), recorded as an ``as_strided``
    (under the name of ``op``, a composite, when given)."""
    result = strided_alias(input, shape, strides, offset)
    return _record_view(op or AS_STRIDED, input, result, saved)


def alias_of_array(input: Tensor, array: np.ndarray, op=None, saved=()) -> Tensor:
    """The view of ``input`` that NumPy computed as ``array`` (basic indexing), recorded
    for autograd as an ``as_strided`` (under the name of ``op``, a composite, when given)."""
    result = input._alias(array)
    return _record_view(op or AS_STRIDED, input, result, saved)


# ----------------------------------------------------------------------- composites


@defop("t", method=True, inplace=True, fast={"Tensor.t": _fastpath.transpose_2d})
def t(input: Tensor) -> Tensor:
    """Transpose of a tensor of at most 2 dims (a view)."""
    try:
        ndim = input._np.ndim
    except SparseLayoutError as error:
        return sparse_kernel("t", error)(input)
    if ndim > 2:
        raise RuntimeError(
            f"t() expects a tensor with <= 2 dimensions, but self is {input._np.ndim}D"
        )
    return _transpose(input, 0, 1, T) if input._np.ndim == 2 else view(input, input.shape)


@defop("transpose", method=True, inplace=True, aliases=("swapaxes", "swapdims"))
def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """A view of ``input`` with dims ``dim0`` and ``dim1`` swapped.

    Examples::

        >>> torch.zeros(2, 3, 4).transpose(0, 2).stride()
        (1, 4, 12)
    """
    try:
        input._np  # noqa: B018 - a sparse tensor has no dense data
    except SparseLayoutError as error:
        return sparse_kernel("transpose", error)(input, dim0, dim1)
    return _transpose(input, dim0, dim1, TRANSPOSE)


def _transpose(input: Tensor, dim0: int, dim1: int, op) -> Tensor:
    if input._np.ndim == 0:
        input._wrap_dim(dim0), input._wrap_dim(dim1)
        return view(input, ())
    order = list(range(input._np.ndim))
    d0, d1 = input._wrap_dim(dim0), input._wrap_dim(dim1)
    order[d0], order[d1] = order[d1], order[d0]
    if input._np.size == 0:
        return _permute(input, tuple(order), op)  # (keeps the strides of an empty tensor)
    # a valid permutation by construction: no need for _permute's checks
    result = make_view(input, input._np.swapaxes(d0, d1))
    return record(op, (input,), result, (tuple(order),))


swapaxes = swapdims = transpose


@defop("movedim", method=True, aliases=("moveaxis",))
def movedim(input: Tensor, source, destination) -> Tensor:
    """A view of ``input`` with the dims in ``source`` moved to ``destination``."""
    src = (source,) if isinstance(source, int) else tuple(source)
    dst = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(src)} "
            f"dims) should contain the same number of dims as destination "
            f"({list(dst)} dims)"
        )
    src = [input._wrap_dim(d) for d in src]
    dst = [input._wrap_dim(d) for d in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise RuntimeError("movedim: repeated dim in `source` or `destination`")
    order = [d for d in range(input._np.ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute(input, order)


moveaxis = movedim


@defop("narrow", method=True)
def narrow(input: Tensor, dim: int, start, length: int, _op=None, _saved=()) -> Tensor:
    """A view of ``length`` entries of ``input`` along ``dim`` from ``start``.

    Examples::

        >>> torch.arange(6).narrow(0, 2, 3)
        tensor([2, 3, 4])
    """
    if input._np.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = input._wrap_dim(dim)
    size = input._np.shape[d]
    start = int(start)
    if not -size <= start <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    if start < 0:
        start += size
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    if length == 0 or input._np.size == 0:
        shape, strides = list(input._np.shape), input.stride()
        shape[d] = length
        offset = input._offset + start * strides[d]
        return strided_view(input, shape, strides, offset, _op or SLICE, _saved)
    index = (slice(None),) * d + (slice(start, start + length),)
    return alias_of_array(input, input._np[index], _op or SLICE, _saved)


@defop("select", method=True)
def select(input: Tensor, dim: int, index: int, _op=None, _saved=()) -> Tensor:
    """The slice of ``input`` at ``index`` along ``dim``, which is removed (a view).

    Examples::

        >>> torch.arange(6).view(2, 3).select(1, -1)
        tensor([2, 5])
    """
    if input._np.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = input._wrap_dim(dim)
    size = input._np.shape[d]
    index = int(index)
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size "
            f"{list(input._np.shape)} at dimension {d}"
        )
    if input._np.size == 0:
        shape, strides = list(input._np.shape), list(input.stride())
        offset = input._offset + (index % size) * strides[d]
        del shape[d], strides[d]
        return strided_view(input, shape, strides, offset, _op or SELECT, _saved)
    array = input._np[(slice(None),) * d + (index, Ellipsis)]
    return alias_of_array(input, array, _op or SELECT, _saved)


@defop("unsqueeze", method=True, inplace=True)
def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """A view of ``input`` with a size-1 dim inserted at ``dim``."""
    ndim = input._np.ndim + 1
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, "
            f"{ndim - 1}], but got {dim})"
        )
    dim %= ndim
    shape = list(input._np.shape)
    shape.insert(dim, 1)
    if input._np.size == 0:
        strides = list(input.stride())
        strides.insert(dim, shape[dim + 1] * strides[dim] if dim < ndim - 1 else 1)
        return strided_view(input, shape, strides, input._offset, UNSQUEEZE)
    return _view_shape(input, shape, VIEW_UNSQUEEZE)


@defop("squeeze", method=True, inplace=True)
def squeeze(input: Tensor, dim=None) -> Tensor:
    """A view of ``input`` without size-1 dims (all of them, or those in ``dim``)."""
    shape = input._np.shape
    if dim is None:
        dims = {i for i, s in enumerate(shape) if s == 1}
    else:
        dims = {input._wrap_dim(d) for d in ((dim,) if isinstance(dim, int) else dim)}
        dims = {d for d in dims if input._np.ndim and shape[d] == 1}
    op = SQUEEZE if dim is None else SQUEEZE_DIM if isinstance(dim, int) else SQUEEZE_DIMS
    if input._np.size == 0:
        strides = input.stride()
        keep = [i for i in range(len(shape)) if i not in dims]
        return strided_view(
            input, [shape[i] for i in keep], [strides[i] for i in keep], input._offset, op
        )
    return _view_shape(input, [s for i, s in enumerate(shape) if i not in dims], op)


@defop("flatten", method=True)
def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """``input`` with dims ``start_dim`` to ``end_dim`` merged into one (a view when
    possible)."""
    if input._np.ndim == 0:
        return reshape(input, 1)
    start, end = input._wrap_dim(start_dim), input._wrap_dim(end_dim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    shape = input._np.shape
    return reshape(input, shape[:start] + (math.prod(shape[start : end + 1]),) + shape[end + 1 :])


@defop("unflatten", method=True)
def unflatten(input: Tensor, dim: int, sizes) -> Tensor:
    """A view of ``input`` with dim ``dim`` split into ``sizes`` (one may be ``-1``)."""
    d = input._wrap_dim(dim)
    sizes = infer_shape(tuple(sizes), input._np.shape[d])
    shape = input._np.shape
    return view(input, shape[:d] + sizes + shape[d + 1 :])


@defop("unfold", method=True, public=False)
def unfold(input: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """A view of all windows of ``size`` entries along ``dimension``, ``step`` apart, in
    a new last dim.

    Examples::

        >>> torch.arange(5).unfold(0, 2, 2)
        tensor([[0, 1],
                [2, 3]])
    """
    shape, strides = list(input._np.shape), list(input.stride())
    if not shape:
        shape, strides = [1], [1]
    d = input._wrap_dim(dimension)
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if size > shape[d]:
        raise RuntimeError(
            f"maximum size for tensor at dimension {d} is {shape[d]} but size is {size}"
        )
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    window_stride = strides[d]
    shape[d] = (shape[d] - size) // step + 1
    strides[d] *= step
    if input._np.ndim == 0:
        shape, strides = [], []
    result = strided_alias(input, shape + [size], strides + [window_stride], input._offset)
    return _record_view(UNFOLD, input, result)


@defop("diagonal", method=True)
def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A view of the diagonal of ``input`` over ``dim1`` and ``dim2`` (shifted by
    ``offset``), as a new last dim."""
    d1, d2 = input._wrap_dim(dim1), input._wrap_dim(dim2)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    shape, strides = input._np.shape, input.stride()
    if offset >= 0:
        length = max(min(shape[d1], shape[d2] - offset), 0)
        start = offset * strides[d2]
    else:
        length = max(min(shape[d1] + offset, shape[d2]), 0)
        start = -offset * strides[d1]
    keep = [i for i in range(len(shape)) if i not in (d1, d2)]
    result = strided_alias(
        input,
        [shape[i] for i in keep] + [length],
        [strides[i] for i in keep] + [strides[d1] + strides[d2]],
        input._offset + (start if length else 0),
    )
    return _record_view(DIAGONAL, input, result)


@defop("unbind", method=True)
def unbind(input: Tensor, dim: int = 0) -> tuple:
    """The slices of ``input`` along ``dim``, as a tuple of views."""
    if input._np.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = input._wrap_dim(dim)
    return tuple(select(input, d, i, UNBIND, (i,)) for i in range(input._np.shape[d]))


@defop("split", method=True)
def split(tensor: Tensor, split_size_or_sections, dim: int = 0) -> tuple:
    """``tensor`` cut along ``dim`` into pieces of ``split_size_or_sections`` entries
    (the last may be smaller) or into pieces of the listed sizes; views.

    Examples::

        >>> [t.tolist() for t in torch.arange(5).split(2)]
        [[0, 1], [2, 3], [4]]
    """
    d = tensor._wrap_dim(dim)
    size = tensor._np.shape[d]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step < 0:
            raise RuntimeError(
                f"split expects split_size be non-negative, but got split_size={step}"
            )
        if step == 0:
            if size:
                raise RuntimeError(
                    f"split_size can only be 0 if dimension size is 0, but got "
                    f"dimension size of {size}"
                )
            return (narrow(tensor, d, 0, 0, SPLIT, (0,)),)
        sizes = [min(step, size - start) for start in range(0, size, step)] or [0]
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != size or any(s < 0 for s in sizes):
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {size} "
                f"(input tensor's size at dimension {d}), but got "
                f"split_sizes={sizes}"
            )
    op = SPLIT if isinstance(split_size_or_sections, int) else SPLIT_WITH_SIZES
    pieces, start = [], 0
    for i, length in enumerate(sizes):
        pieces.append(narrow(tensor, d, start, length, op, (i,)))
        start += length
    return tuple(pieces)


@defop("chunk", method=True)
def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """``input`` cut along ``dim`` into at most ``chunks`` equal pieces (views)."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = input._np.shape[input._wrap_dim(dim)]
    return split(input, -(-size // chunks), dim)


@defop("view_as", method=True, public=False)
def view_as(input: Tensor, other: Tensor) -> Tensor:
    """``input.view(other.size())``."""
    return view(input, other.shape)


@defop("expand_as", method=True, public=False)
def expand_as(input: Tensor, other: Tensor) -> Tensor:
    """``input.expand(other.size())``."""
    return expand(input, other.shape)
