"""Ops that build new shapes from data: ``cat``, ``stack``, ``repeat``, ``tile``, ``roll``,
``rot90``, ``tril``/``triu``, ``diag``, ``trace``, broadcasting helpers and ``meshgrid``."""

from __future__ import annotations

import functools

import numpy as np

from .._tensor import Tensor
from ._dispatch import defop, dims_argument, record, register_op, result_type, wrap_array
from .views import expand, unsqueeze

__all__ = [
    "cat",
    "concat",
    "concatenate",
    "stack",
    "hstack",
    "vstack",
    "row_stack",
    "repeat",
    "tile",
    "roll",
    "rot90",
    "tril",
    "triu",
    "diag",
    "trace",
    "broadcast_to",
    "broadcast_tensors",
    "broadcast_shapes",
    "meshgrid",
]


# this family's ops registered under its name
_register = functools.partial(register_op, family="shape_ops")


_wrap = wrap_array


# ------------------------------------------------------------------ concatenation


def check_sizes_outside(shape_a: tuple, shape_b: tuple, dim: int, message: str) -> None:
    """``RuntimeError(message)`` (formatted with the sizes ``a`` and ``b``) at the first
    dimension other than ``dim`` where two shapes differ: ``cat``'s and ``index_copy``'s
    check."""
    for k, (a, b) in enumerate(zip(shape_a, shape_b)):
        if k != dim and a != b:
            raise RuntimeError(message.format(a=a, b=b))


@defop("cat", aliases=("concat", "concatenate"))
def cat(tensors, dim: int = 0, *, out=None) -> Tensor:
    """Concatenate tensors along an existing ``dim`` (their dtypes promote; 1-D empty
    tensors are skipped, as in PyTorch).

    Examples::

        >>> torch.cat([torch.zeros(1, 2), torch.ones(2, 2)]).shape
        torch.Size([3, 2])
    """
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(
            "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not "
            f"{type(tensors).__name__}"
        )
    tensors = tuple(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    dtype = result_type(*tensors) if len(tensors) > 1 else tensors[0]._dtype
    used = [t for t in tensors if not (t._np.ndim == 1 and t._np.shape[0] == 0)]
    if not used:
        return _wrap(np.empty(0), dtype)
    reference = used[0]
    if reference._np.ndim == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = reference._wrap_dim(dim)
    for i, t in enumerate(tensors):
        if t._np.ndim == 1 and t._np.shape[0] == 0:
            continue
        if t._np.ndim != reference._np.ndim:
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got "
                f"{reference._np.ndim} and {t._np.ndim}"
            )
        check_sizes_outside(
            reference._np.shape,
            t._np.shape,
            d,
            f"Sizes of tensors must match except in dimension {d}. Expected size {{a}} but got "
            f"size {{b}} for tensor number {i} in the list.",
        )
    array = np.concatenate([t._np.astype(dtype.np_dtype, copy=False) for t in used], axis=d)
    result = _wrap(array, dtype)
    if out is not None:
        if out._np.shape != array.shape:
            out.set_(result)
        else:
            out.copy_(result)
        return out
    sizes = tuple(
        0 if t._np.ndim == 1 and t._np.shape[0] == 0 and reference._np.ndim > 1 else t._np.shape[d]
        for t in tensors
    )
    return record(CAT, tensors, result, (d, sizes))


CAT = _register("cat", cat, "cat(Tensor[] tensors, int dim=0) -> Tensor", saved=("dim", "sizes"))
concat = concatenate = cat


@defop("stack")
def stack(tensors, dim: int = 0, *, out=None) -> Tensor:
    """Join same-shaped tensors along a new ``dim``.

    Examples::

        >>> torch.stack([torch.zeros(2), torch.ones(2)], dim=1)
        tensor([[0., 1.],
                [0., 1.]])
    """
    tensors = tuple(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tensors[0]._np.shape
    for i, t in enumerate(tensors):
        if t._np.shape != shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got "
                f"{list(shape)} at entry 0 and {list(t._np.shape)} at entry {i}"
            )
    return cat([unsqueeze(t, dim) for t in tensors], dim, out=out)


@defop("hstack", out=True)
def hstack(tensors) -> Tensor:
    """Concatenate along dim 1 (dim 0 for 1-D tensors)."""
    tensors = [t if t._np.ndim else t.reshape(1) for t in tensors]
    return cat(tensors, 0 if tensors[0]._np.ndim == 1 else 1)


@defop("vstack", out=True)
def vstack(tensors) -> Tensor:
    """Concatenate along dim 0, 1-D tensors becoming rows."""
    return cat([t.reshape(1, -1) if t._np.ndim < 2 else t for t in tensors], 0)


@defop("row_stack")
def row_stack(tensors) -> Tensor:
    """:func:`torch.vstack` (NumPy's older name)."""
    return vstack(tensors)


# ------------------------------------------------------------------- repetition


@defop("repeat", method=True)
def repeat(input: Tensor, *sizes) -> Tensor:
    """``input`` repeated ``sizes[i]`` times along each dim (new leading dims allowed).

    Examples::

        >>> torch.tensor([1, 2]).repeat(2, 2)
        tensor([[1, 2, 1, 2],
                [1, 2, 1, 2]])
    """
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    sizes = tuple(int(s) for s in sizes)
    if len(sizes) < input._np.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number "
            "of dimensions of tensor"
        )
    if any(s < 0 for s in sizes):
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {min(sizes)}: {list(sizes)}"
        )
    array = np.tile(input._np, sizes)
    return record(REPEAT, (input,), _wrap(array, input._dtype), (sizes,))


REPEAT = _register(
    "repeat", repeat, "repeat(Tensor self, SymInt[] repeats) -> Tensor", saved=("repeats",)
)


@defop("tile", method=True)
def tile(input: Tensor, *dims, **kwargs) -> Tensor:
    """Like ``repeat``, with missing leading repeats taken as 1 (``torch.tile(x, dims)``,
    ``x.tile(*dims)``, or ``dims=`` by keyword)."""
    dims = tuple(int(d) for d in dims_argument("tile", dims, kwargs))
    dims = (1,) * (input._np.ndim - len(dims)) + dims
    return repeat(input, dims)


@defop("roll", method=True)
def roll(input: Tensor, shifts, dims=None) -> Tensor:
    """Elements shifted cyclically along ``dims`` (the flattened tensor when None)."""
    if dims is None:
        flat = input.reshape(-1)
        return roll(flat, shifts, 0).reshape(input.shape)
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if len(shifts) != len(dims):
        raise RuntimeError(
            f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}"
        )
    wrapped = tuple(input._wrap_dim(d) for d in dims)
    array = np.roll(input._np, shifts, wrapped)
    return record(ROLL, (input,), _wrap(array, input._dtype), (shifts, wrapped))


ROLL = _register(
    "roll",
    roll,
    "roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor",
    saved=("shifts", "dims"),
)


@defop("rot90", method=True)
def rot90(input: Tensor, k: int = 1, dims=(0, 1)) -> Tensor:
    """Rotate by 90 degrees ``k`` times in the plane of ``dims`` (a flip and a transposed
    view, as PyTorch builds it)."""
    from .gather_scatter import flip
    from .views import transpose

    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input._np.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input._np.ndim}")
    d0, d1 = input._wrap_dim(dims[0]), input._wrap_dim(dims[1])
    if d0 == d1:
        raise RuntimeError(
            f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}"
        )
    k %= 4
    if k == 1:
        return transpose(flip(input, d1), d0, d1)
    if k == 2:
        return flip(input, (d0, d1))
    if k == 3:
        return transpose(flip(input, d0), d0, d1)
    return input.clone()


# ------------------------------------------------------------------- triangles


def _triangle(name, numpy_fn):
    def function(input: Tensor, diagonal: int = 0) -> Tensor:
        if input._np.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return record(op, (input,), _wrap(numpy_fn(input._np, diagonal), input._dtype), (diagonal,))

    function.__name__ = name
    function.__doc__ = (
        f"The {'lower' if name == 'tril' else 'upper'} triangle of the last "
        "two dims (others zeroed), shifted by ``diagonal``."
    )
    op = _register(
        name, function, f"{name}(Tensor self, int diagonal=0) -> Tensor", saved=("diagonal",)
    )
    return function


tril = _triangle("tril", np.tril)
defop("tril", tril, method=True, inplace=True, out=True)
triu = _triangle("triu", np.triu)
defop("triu", triu, method=True, inplace=True, out=True)


@defop("diag", method=True, out=True)
def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """A 1-D tensor's values as the ``diagonal``-th diagonal of a square matrix, or a
    matrix's ``diagonal``-th diagonal as a 1-D tensor."""
    if input._np.ndim not in (1, 2):
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + str(input._np.ndim) + "D")
    array = np.diag(input._np, diagonal)
    return record(DIAG, (input,), _wrap(array, input._dtype), (diagonal,))


DIAG = _register("diag", diag, "diag(Tensor self, int diagonal=0) -> Tensor", saved=("diagonal",))


@defop("trace", method=True)
def trace(input: Tensor) -> Tensor:
    """The sum of a matrix's diagonal."""
    if input._np.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input._np.ndim}")
    from .reduction import sum as reduce_sum

    return reduce_sum(diag(input))


# ------------------------------------------------------------------ broadcasting


@defop("broadcast_shapes")
def broadcast_shapes(*shapes):
    """The shape that tensors of ``shapes`` broadcast to."""
    from .._size import Size

    try:
        return Size(
            np.broadcast_shapes(*[tuple(s) if not isinstance(s, int) else (s,) for s in shapes])
        )
    except ValueError:
        raise RuntimeError(
            f"Shape mismatch: objects cannot be broadcast to a single shape: {shapes}"
        ) from None


@defop("broadcast_to", method=True)
def broadcast_to(input: Tensor, size) -> Tensor:
    """A view of ``input`` expanded to ``size``."""
    return expand(input, tuple(size))


@defop("broadcast_tensors")
def broadcast_tensors(*tensors):
    """Views of ``tensors`` expanded to their common shape."""
    shape = broadcast_shapes(*[t.shape for t in tensors])
    return tuple(expand(t, shape) for t in tensors)


@defop("meshgrid")
def meshgrid(*tensors, indexing: str | None = None):
    """Coordinate grids from 1-D tensors; ``indexing`` "ij" (matrix, PyTorch's default)
    or "xy" (Cartesian)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
        )
    for t in tensors:
        if t._np.ndim > 1:
            raise RuntimeError(
                f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}"
            )
    vectors = [t.reshape(-1) for t in tensors]
    swap = indexing == "xy" and len(vectors) >= 2
    if swap:  # Cartesian indexing: the first two inputs trade places in the grid's dims
        vectors[0], vectors[1] = vectors[1], vectors[0]
    shape = tuple(v._np.shape[0] for v in vectors)
    grids = []
    for i, v in enumerate(vectors):
        view_shape = [1] * len(vectors)
        view_shape[i] = -1
        grids.append(expand(v.reshape(view_shape), shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)
