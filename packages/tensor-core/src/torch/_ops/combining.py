"""Composites that build, split and rearrange tensors: ``repeat_interleave``,
``unique_consecutive``, ``cartesian_prod``, ``combinations``, ``block_diag``,
``tril_indices``/``triu_indices``, ``diag_embed``, ``diagflat``, ``kron``, ``cross``,
``cdist``, ``tensor_split`` and ``hsplit``/``vsplit``/``dsplit``, ``dstack``,
``column_stack``, ``atleast_1d/2d/3d``, ``fliplr``/``flipud``, ``msort``.

NOTE: each is written on differentiable primitives (indexing, ``cat``, ``stack``,
views, pointwise math), so gradients need no entries of their own.
"""

from __future__ import annotations

import numpy as np

import torch

from .. import _dtype
from .._interface import OpDef
from .._tensor import Tensor, _is_grad_recording
from ._dispatch import contiguous, defop, kernel_refusal, record
from .gather_scatter import _inplace
from .sorting import _SORT_REFUSES_COMPLEX, _long

__all__ = [
    "repeat_interleave",
    "unique_consecutive",
    "cartesian_prod",
    "combinations",
    "block_diag",
    "tril_indices",
    "triu_indices",
    "diag_embed",
    "diagflat",
    "kron",
    "cross",
    "linalg_cross",
    "cdist",
    "tensor_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "dstack",
    "column_stack",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "fliplr",
    "flipud",
    "msort",
]


def _legacy(d) -> str:
    return d._legacy[:-6]


# ------------------------------------------------------------------ repeat_interleave


def _repeat_counts(repeats, length: int) -> np.ndarray:
    if isinstance(repeats, Tensor):
        if repeats._dtype not in (_dtype.int64, _dtype.int32):
            raise NotImplementedError(
                f"\"repeat_interleave_cpu\" not implemented for '{_legacy(repeats._dtype)}'"
            )
        if repeats._np.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        counts = repeats._np.reshape(-1).astype(np.int64)
        if counts.size == 1:
            counts = np.repeat(counts, length)
        elif counts.size != length:
            raise RuntimeError(
                "repeats must have the same size as input along dim, but got "
                f"repeats.size(0) = {counts.size} and input.size(0) = {length}"
            )
        if counts.size and counts.min() < 0:
            raise RuntimeError("repeats can not be negative")
        return counts
    if int(repeats) < 0:
        raise RuntimeError("Repeats must be non-negative")
    return np.full(length, int(repeats), dtype=np.int64)


@defop("repeat_interleave", method=True)
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None) -> Tensor:
    """Each element (or slice along ``dim``) repeated ``repeats`` times in place; with a
    tensor of repeats alone, the indices ``0..n-1`` repeated by it.

    Examples::

        >>> torch.repeat_interleave(torch.tensor([1, 2]), 2)
        tensor([1, 1, 2, 2])
        >>> torch.repeat_interleave(torch.tensor([2, 0, 1]))
        tensor([0, 0, 2])
    """
    if repeats is None:  # the one-argument form: input holds the counts
        counts = _repeat_counts(input, input._np.size)
        return _long(np.repeat(np.arange(counts.size), counts))
    if dim is None:
        input = input.reshape(-1)
        d = 0
    else:
        d = input._wrap_dim(dim) if input._np.ndim else 0
        if not input._np.ndim:
            input = input.reshape(1)
    counts = _repeat_counts(repeats, input._np.shape[d])
    if not _is_grad_recording(input):  # one NumPy call; the indexing below records grads
        repeated = np.repeat(input._np, counts, axis=d)
        return Tensor._from_array(contiguous(repeated), input._dtype)
    rows = _long(np.repeat(np.arange(counts.size), counts))
    return input.index_select(d, rows)


# ------------------------------------------------------------------ unique_consecutive


@defop("unique_consecutive", method=True, refuses_complex=kernel_refusal("unique"))
def unique_consecutive(
    input: Tensor, return_inverse: bool = False, return_counts: bool = False, dim=None
):
    """The elements (or slices along ``dim``) with each run of equal consecutive ones
    kept once, with the inverse mapping and the run lengths if asked."""
    array = input._np
    if dim is None:
        flat = array.reshape(-1)
        starts = np.ones(flat.size, dtype=bool)
        if flat.size:
            starts[1:] = flat[1:] != flat[:-1]
        values = Tensor._from_array(contiguous(flat[starts]), input._dtype)
        inverse_shape = array.shape
    else:
        d = input._wrap_dim(dim)
        moved = np.moveaxis(array, d, 0).reshape(array.shape[d], -1)
        starts = np.ones(moved.shape[0], dtype=bool)
        if moved.shape[0]:
            starts[1:] = (moved[1:] != moved[:-1]).any(axis=1)
        # selected along the leading dim of the moved tensor, as PyTorch lays it out
        with torch.no_grad():
            values = input.movedim(d, 0).index_select(0, _long(np.flatnonzero(starts)))
            values = values.movedim(0, d)
        inverse_shape = (array.shape[d],)
    result = [record(UNIQUE_CONSECUTIVE, (input,), values)]
    if return_inverse:
        result.append(_long((np.cumsum(starts) - 1).reshape(inverse_shape)))
    if return_counts:
        edges = np.append(np.flatnonzero(starts), starts.size)
        result.append(_long(np.diff(edges)))
    return result[0] if len(result) == 1 else tuple(result)


# NOTE: not in the op registry (no op-database entry): recorded for autograd only, as
# PyTorch records it (its backward raises)
UNIQUE_CONSECUTIVE = OpDef(
    name="unique_consecutive",
    signature="unique_consecutive(Tensor self, bool return_inverse=False, "
    "bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)",
    kernels={},
    family="combining",
)


# ------------------------------------------------------------- products and diagonals


@defop("cartesian_prod")
def cartesian_prod(*tensors) -> Tensor:
    """All tuples with one element from each 1-D tensor, as rows (like
    ``itertools.product``); a single tensor comes back as it is."""
    for t in tensors:
        if t._np.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t._np.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = torch.meshgrid(*tensors, indexing="ij")
    return torch.stack([g.reshape(-1) for g in grids], 1)


@defop("combinations")
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """All length-``r`` combinations of the elements of the 1-D ``input``, as rows."""
    if input._np.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input._np.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return torch.empty(0, dtype=input.dtype)
    # every r-tuple of positions (row-major, so lexicographic), kept where non-decreasing
    # (with replacement) or increasing: built by the input's array module, on its device
    grids = np.meshgrid(*[np.arange(input._np.size, like=input._np)] * r, indexing="ij")
    flat = [g.reshape(-1) for g in grids]
    keep = np.ones(flat[0].shape, dtype=bool, like=input._np)
    for earlier, later in zip(flat, flat[1:]):
        keep &= (earlier <= later) if with_replacement else (earlier < later)
    rows = np.stack([f[keep] for f in flat], axis=1).astype(np.int64)
    return input[_long(rows)]


@defop("block_diag")
def block_diag(*tensors) -> Tensor:
    """The tensors (0-, 1- or 2-D) placed corner to corner along the diagonal of one
    matrix, zeros elsewhere."""
    blocks = []
    for i, t in enumerate(tensors):
        if t._np.ndim > 2:
            raise RuntimeError(
                "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input "
                f"{i} has {t._np.ndim} dimensions"
            )
        blocks.append(t.reshape(1, -1) if t._np.ndim < 2 else t)
    dtype = _dtype.float32
    if blocks:
        dtype = blocks[0].dtype
        for t in blocks[1:]:
            dtype = _dtype.promote_types(dtype, t.dtype)
    rows = sum(t.shape[0] for t in blocks)
    cols = sum(t.shape[1] for t in blocks)
    if not blocks:
        return torch.empty(1, 0)
    # NOTE: each block padded with zeros to a full band of rows, then the bands stacked:
    # no in-place writes, so the gradient is plain slicing
    bands, col = [], 0
    for t in blocks:
        h, w = t.shape
        left = torch.zeros(h, col, dtype=dtype)
        right = torch.zeros(h, cols - col - w, dtype=dtype)
        bands.append(torch.cat([left, t.to(dtype), right], 1))
        col += w
    return torch.cat(bands, 0) if rows else torch.zeros(0, cols, dtype=dtype)


def _triangle_indices(name, row, col, offset, dtype, lower):
    if dtype is None:
        dtype = _dtype.int64
    if dtype not in (_dtype.int64, _dtype.int32):
        raise NotImplementedError(f"\"{name}\" not implemented for '{_legacy(dtype)}'")
    if row < 0 or col < 0:
        bad = ("row", row) if row < 0 else ("col", col)
        raise RuntimeError(f"{bad[0]} must be non-negative, got{bad[1]}")
    rows, cols = np.indices((row, col)).reshape(2, -1)
    keep = cols - rows <= offset if lower else cols - rows >= offset
    pairs = np.stack([rows[keep], cols[keep]]) if row * col else np.zeros((2, 0), np.int64)
    return Tensor._from_array(contiguous(pairs.astype(dtype.np_dtype)), dtype)


@defop("tril_indices")
def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices of the lower triangle of a ``row x col`` matrix (on and
    below diagonal ``offset``), as a 2 x N tensor in row-major order."""
    return _triangle_indices("tril_indices", row, col, offset, dtype, lower=True)


@defop("triu_indices")
def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices of the upper triangle of a ``row x col`` matrix (on and
    above diagonal ``offset``), as a 2 x N tensor in row-major order."""
    return _triangle_indices("triu_indices", row, col, offset, dtype, lower=False)


@defop("diag_embed", method=True)
def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """A tensor whose diagonals (``offset``, in the planes of ``dim1`` and ``dim2`` of the
    result) hold the last dim of ``input``, zeros elsewhere."""
    ndim = input._np.ndim + 1
    d1, d2 = (d + ndim if d < 0 else d for d in (dim1, dim2))
    for d in (dim1, dim2):
        if not -ndim <= d < ndim:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], "
                f"but got {d})"
            )
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n = input._np.shape[-1] + abs(offset)
    shape = list(input._np.shape[:-1])
    for d in sorted((d1, d2)):
        shape.insert(d, n)
    result = torch.zeros(shape, dtype=input.dtype, device=input.device)
    return _fill_diagonal(result, offset, d1, d2, input)


def _fill_diagonal(result: Tensor, offset: int, d1: int, d2: int, values: Tensor) -> Tensor:
    """``result`` with its diagonal written from ``values`` by an out-of-place scatter of
    flat positions (so the gradient reaches ``values`` through indexing)."""
    positions = np.arange(result._np.size, like=result._np).reshape(result._np.shape)
    picked = contiguous(np.diagonal(positions, offset, d1, d2))
    flat = result.reshape(-1)
    return flat.index_put((_long(picked),), values.to(result.dtype)).reshape(result.shape)


@defop("diagflat", method=True)
def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """A matrix with the flattened ``input`` on diagonal ``offset``."""
    return torch.diag(input.reshape(-1), offset)


@defop("kron", method=True, out=True)
def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: every element of ``input`` times the whole of ``other``,
    laid out block by block (ranks are matched by leading 1s)."""
    ndim = max(input._np.ndim, other._np.ndim)
    a = input.reshape((1,) * (ndim - input._np.ndim) + tuple(input._np.shape))
    b = other.reshape((1,) * (ndim - other._np.ndim) + tuple(other._np.shape))
    # interleave the dims: a as (n0, 1, n1, 1, ...), b as (1, m0, 1, m1, ...)
    a_shape, b_shape = [], []
    for n, m in zip(a.shape, b.shape):
        a_shape += [n, 1]
        b_shape += [1, m]
    product = a.reshape(a_shape) * b.reshape(b_shape)
    return product.reshape([n * m for n, m in zip(a.shape, b.shape)])


# ------------------------------------------------------------------------ cross, cdist


def _cross_along(input: Tensor, other: Tensor, d: int) -> Tensor:
    def part(t, i):
        return t.select(d, i)

    a0, a1, a2 = (part(input, i) for i in range(3))
    b0, b1, b2 = (part(other, i) for i in range(3))
    return torch.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], d)


def _check_cross(input: Tensor, other: Tensor, dim: int, shown_dim) -> int:
    if input._dtype is not other._dtype:
        raise RuntimeError(
            f"expected scalar type {_legacy(input._dtype)} but found {_legacy(other._dtype)}"
        )
    if input._np.ndim != other._np.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = input._wrap_dim(dim)
    if input._np.shape[d] != 3 or other._np.shape[d] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {shown_dim} must have length 3. Got "
            f"{input._np.shape[d]} and {other._np.shape[d]}"
        )
    return d


def linalg_cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (the other dims broadcast)."""
    d = _check_cross(input, other, dim, dim)
    input, other = torch.broadcast_tensors(input, other)
    return _cross_along(input, other, d)


linalg_cross.__name__ = "cross"


@defop("cross", method=True, out=True)
def cross(input: Tensor, other: Tensor, dim=None) -> Tensor:
    """The cross product of 3-vectors along ``dim``; without ``dim``, along the first dim
    of size 3 (deprecated in PyTorch, which warns)."""
    if dim is None:
        import warnings

        warnings.warn(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either "
            "pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of "
            "dim will change to agree with that of linalg.cross in a future release.",
            UserWarning,
            stacklevel=2,
        )
        sizes = np.broadcast_shapes(input._np.shape, other._np.shape)
        dim = next((i for i, n in enumerate(sizes) if n == 3), -1)
    return linalg_cross(input, other, dim=dim)


_COMPUTE_MODES = (
    "use_mm_for_euclid_dist_if_necessary",
    "use_mm_for_euclid_dist",
    "donot_use_mm_for_euclid_dist",
)


@defop("cdist")
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode=None) -> Tensor:
    """The p-norm distances between each row vector of ``x1`` and each of ``x2``
    (batched over leading dims): ``(..., P, M)`` and ``(..., R, M)`` give ``(..., P, R)``.

    NOTE: computed directly from the differences for every ``compute_mode`` (PyTorch's
    matrix-product shortcut for p=2 only changes rounding); the p=2 gradient is zero where
    two rows coincide, as PyTorch's is.
    """
    if compute_mode is not None and compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    for name, t in (("X1", x1), ("X2", x2)):
        if t._np.ndim < 2:
            raise RuntimeError(
                f"cdist only supports at least 2D tensors, {name} got: {t._np.ndim}D"
            )
        if not t._dtype.is_floating_point:
            raise RuntimeError(
                f"cdist only supports floating-point dtypes, {name} got: {_legacy(t._dtype)}"
            )
    if x1._np.shape[-1] != x2._np.shape[-1]:
        raise RuntimeError(
            "X1 and X2 must have the same number of columns. X1: "
            f"{x1._np.shape[-1]} X2: {x2._np.shape[-1]}"
        )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    rows, cols = x1._np.shape[-2], x2._np.shape[-2]
    use_mm = compute_mode == "use_mm_for_euclid_dist" or (
        compute_mode in (None, "use_mm_for_euclid_dist_if_necessary") and (rows > 25 or cols > 25)
    )
    if p == 2 and use_mm:
        return _euclidean_by_products(x1, x2)
    diff = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).abs()
    if p == 0:
        return (diff != 0).to(diff.dtype).sum(-1)
    if p == float("inf"):
        return diff.amax(-1)
    if p == 1:
        return diff.sum(-1)
    if p == 2:
        squared = (diff * diff).sum(-1)
        # NOTE: sqrt's gradient at 0 is infinite; PyTorch gives 0 for coinciding rows
        safe = torch.where(squared == 0, torch.ones_like(squared), squared)
        return torch.where(squared == 0, torch.zeros_like(squared), safe.sqrt())
    return diff.pow(p).sum(-1).pow(1.0 / p)


def _euclidean_by_products(x1: Tensor, x2: Tensor) -> Tensor:
    """Euclidean distances as ``sqrt(|a|^2 - 2 a.b + |b|^2)`` through one matrix product
    of the augmented rows ``[-2a, |a|^2, 1]`` and ``[b, 1, |b|^2]`` (PyTorch's path for
    more than 25 rows: no (P, R, M) difference tensor, and a row's distance to itself
    comes out as 0)."""
    squares_a = (x1 * x1).sum(-1, keepdim=True)
    squares_b = (x2 * x2).sum(-1, keepdim=True)
    left = torch.cat([x1 * -2, squares_a, torch.ones_like(squares_a)], -1)
    right = torch.cat([x2, torch.ones_like(squares_b), squares_b], -1)
    squared = torch.clamp(torch.matmul(left, right.mT), min=0)
    # NOTE: sqrt's gradient at 0 is infinite; coinciding rows get 0, as in PyTorch
    zero = squared == 0
    safe = torch.where(zero, torch.ones_like(squared), squared)
    return torch.where(zero, torch.zeros_like(squared), torch.sqrt(safe))


# ------------------------------------------------------------------------- splitting


@defop("tensor_split", method=True)
def tensor_split(input: Tensor, indices_or_sections, dim: int = 0) -> tuple:
    """Views of ``input`` split along ``dim`` into a number of nearly equal parts (the
    first ones one longer), or at the given indices."""
    d = input._wrap_dim(dim)
    length = input._np.shape[d]
    spec = indices_or_sections
    if isinstance(spec, Tensor):
        if spec._dtype is not _dtype.int64:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to have integer dtype, "
                f"but got {_legacy(spec._dtype)}"
            )
        spec = int(spec) if spec._np.ndim == 0 else spec.tolist()
    if isinstance(spec, int):
        if spec <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {spec}")
        small, extra = divmod(length, spec)
        sizes = [small + 1] * extra + [small] * (spec - extra)
        bounds = np.concatenate([[0], np.cumsum(sizes)]).tolist()
    else:
        bounds = [0, *(int(i) for i in spec), length]
    parts = []
    for start, stop in zip(bounds[:-1], bounds[1:]):
        start = min(max(start + length if start < 0 else start, 0), length)
        stop = min(max(stop + length if stop < 0 else stop, 0), length)
        parts.append(input.narrow(d, start, max(stop - start, 0)))
    return tuple(parts)


def _split_by(name: str, input: Tensor, spec, dim: int, need: int) -> tuple:
    if input._np.ndim < need:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {need} dimension, but got a tensor "
            f"with {input._np.ndim} dimensions!"
        )
    if isinstance(spec, int):
        size = input._np.shape[dim]
        if spec == 0 or size % spec:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                f"dimension {size} is not divisible by the split_size {spec}!"
            )
    return tensor_split(input, spec, dim)


@defop("hsplit", method=True)
def hsplit(input: Tensor, indices_or_sections) -> tuple:
    """``tensor_split`` along dim 1 (dim 0 for a 1-D tensor); sections must divide evenly."""
    dim = 0 if input._np.ndim == 1 else 1
    return _split_by("hsplit", input, indices_or_sections, dim, 1)


@defop("vsplit", method=True)
def vsplit(input: Tensor, indices_or_sections) -> tuple:
    """``tensor_split`` along dim 0 of a tensor of 2 or more dims."""
    return _split_by("vsplit", input, indices_or_sections, 0, 2)


@defop("dsplit", method=True)
def dsplit(input: Tensor, indices_or_sections) -> tuple:
    """``tensor_split`` along dim 2 of a tensor of 3 or more dims."""
    return _split_by("dsplit", input, indices_or_sections, 2, 3)


# ---------------------------------------------------------------- stacking, at least


def _at_least(tensors, ndim: int):
    single = len(tensors) == 1 and isinstance(tensors[0], Tensor)
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    out = []
    for t in tensors:
        if t._np.ndim >= ndim:
            out.append(t)
        elif ndim == 1 or t._np.ndim == 0:
            out.append(t.reshape((1,) * ndim))
        elif ndim == 2 or t._np.ndim == 2:  # 1-D: (1, n); 2-D to 3-D: (m, n, 1)
            out.append(t.unsqueeze(0) if ndim == 2 else t.unsqueeze(-1))
        else:  # 1-D to 3-D: (1, n, 1)
            out.append(t.reshape(1, -1, 1))
    return out[0] if single else tuple(out)


@defop("atleast_1d")
def atleast_1d(*tensors):
    """Each tensor viewed with at least 1 dim (0-dim ones become shape (1,))."""
    return _at_least(tensors, 1)


@defop("atleast_2d")
def atleast_2d(*tensors):
    """Each tensor viewed with at least 2 dims (a 1-D one becomes a row)."""
    return _at_least(tensors, 2)


@defop("atleast_3d")
def atleast_3d(*tensors):
    """Each tensor viewed with at least 3 dims (``(n,)`` -> ``(1, n, 1)``,
    ``(m, n)`` -> ``(m, n, 1)``)."""
    return _at_least(tensors, 3)


@defop("dstack", out=True)
def dstack(tensors) -> Tensor:
    """The tensors (made at least 3-D) concatenated along dim 2."""
    return torch.cat(atleast_3d(*tensors), 2)


@defop("column_stack", out=True)
def column_stack(tensors) -> Tensor:
    """The tensors as columns side by side: 0- and 1-D ones become columns, then all are
    concatenated along dim 1."""
    columns = [t.reshape(-1, 1) if t._np.ndim < 2 else t for t in tensors]
    return torch.hstack(columns)


# -------------------------------------------------------------------------- flipping


@defop("fliplr", method=True)
def fliplr(input: Tensor) -> Tensor:
    """``input`` with dim 1 reversed (left to right)."""
    if input._np.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return torch.flip(input, (1,))


@defop("flipud", method=True)
def flipud(input: Tensor) -> Tensor:
    """``input`` with dim 0 reversed (up to down)."""
    if input._np.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return torch.flip(input, (0,))


@defop("msort", method=True, out=True, refuses_complex=_SORT_REFUSES_COMPLEX)
def msort(input: Tensor) -> Tensor:
    """``input`` sorted along dim 0 (values only)."""
    return torch.sort(input, 0).values


# ------------------------------------------------------------- in-place view changes


def _inplace_view(name: str, view_of):
    """A method that gives ``self`` the sizes and strides of a view of itself (same
    storage and offset), as ``squeeze_``/``t_`` do; the history becomes the view's."""

    def method(self: Tensor, *args, **kwargs) -> Tensor:
        from ._dispatch import check_inplace_fill

        check_inplace_fill(self)  # no element is written: an expanded self is fine
        view = view_of(self, *args, **kwargs)
        self._np = view._np
        if view.grad_fn is not None:
            self.grad_fn = view.grad_fn
        return self

    method.__name__ = method.__qualname__ = name
    return method


squeeze_ = _inplace_view("squeeze_", lambda self, *dim: self.squeeze(*dim))
unsqueeze_ = _inplace_view("unsqueeze_", lambda self, dim: self.unsqueeze(dim))
transpose_ = _inplace_view("transpose_", lambda self, a, b: self.transpose(a, b))
swapaxes_ = _inplace_view("swapaxes_", lambda self, a, b: self.transpose(a, b))
swapdims_ = _inplace_view("swapdims_", lambda self, a, b: self.transpose(a, b))
t_ = _inplace_view("t_", lambda self: self.t())


def _tril(self: Tensor, diagonal: int = 0) -> Tensor:
    return torch.tril(self, diagonal)


def _triu(self: Tensor, diagonal: int = 0) -> Tensor:
    return torch.triu(self, diagonal)


# the in-place triangle methods (bound by the declarations of tril and triu)
tril_ = _inplace(_tril, "tril_")
triu_ = _inplace(_triu, "triu_")
