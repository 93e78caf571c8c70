"""Shape ops: view/reshape/flatten, permutations, squeeze/unsqueeze, expand/repeat,
cat/stack/split/chunk/unbind, indexing (``__getitem__``, select, narrow, gather, flip).

Sizes the trace recorded (``x.view(x.size(0), -1)``) arrive as
:class:`~torch.onnx._graph.SymbolicInt` and build the target shape in the graph. A plain
number that equals the input's size at the same position is written as ONNX's "copy this
size" (0 for Reshape, 1 for Expand), so that shapes written as numbers in the model
still follow a dynamic batch where they can.
"""

from __future__ import annotations

import torch

from .._graph import INT64_MAX, INT64_MIN, GraphContext, SymbolicInt, SymbolicValue
from .._registry import symbolic
from ..errors import SymbolicValueError
from ._helpers import ints, normalize_dim, rank_of, sizes_of, unsupported


def _shape_arg(shape: tuple) -> list:
    """``view(2, 3)``, ``view((2, 3))`` and ``view([2, 3])`` all mean [2, 3] (entries are
    ints or recorded sizes)."""
    if len(shape) == 1 and isinstance(shape[0], (list, tuple, torch.Size)):
        shape = tuple(shape[0])
    for s in shape:
        if isinstance(s, SymbolicValue) and not isinstance(s, SymbolicInt):
            raise unsupported("a shape held in a tensor")
    return [s if isinstance(s, SymbolicInt) else int(s) for s in shape]


def _dynamic(shape: list) -> bool:
    return any(isinstance(s, SymbolicInt) for s in shape)


def reshape_to(g: GraphContext, input, shape: list):
    """Reshape ``input`` to ``shape``, leading sizes kept from the input written as 0."""
    if _dynamic(shape):
        return g.op("Reshape", input, g.shape_tensor(shape))
    sizes = sizes_of(input)
    target = list(shape)
    for i, (want, have) in enumerate(zip(shape, sizes)):
        if want != have or want == 0:
            break
        target[i] = 0
    if target == [0] * len(sizes) and len(target) == len(sizes):
        return input
    return g.op("Reshape", input, g.int64s(target))


@symbolic("view", "reshape")
def view(g, self, *shape):
    return reshape_to(g, self, _shape_arg(shape))


@symbolic("view_as", "reshape_as")
def view_as(g, self, other):
    return g.op("Reshape", self, g.op("Shape", other))


@symbolic("flatten")
def flatten(g, input, start_dim=0, end_dim=-1):
    rank = rank_of(input)
    if rank == 0:
        return g.op("Reshape", input, g.int64s([1]))
    start, end = normalize_dim(start_dim, rank), normalize_dim(end_dim, rank)
    if start == end:
        return input
    if start == 1 and end == rank - 1:
        return g.op("Flatten", input, axis_i=1)
    return g.op("Reshape", input, g.int64s([0] * start + [-1] + [0] * (rank - 1 - end)))


@symbolic("unflatten")
def unflatten(g, input, dim, sizes):
    rank = rank_of(input)
    dim = normalize_dim(dim, rank)
    return g.op("Reshape", input, g.int64s([0] * dim + ints(sizes) + [0] * (rank - 1 - dim)))


@symbolic("permute")
def permute(g, self, *dims):
    rank = rank_of(self)
    perm = [normalize_dim(d, rank) for d in _shape_arg(dims)]
    if perm == list(range(rank)):
        return self
    return g.op("Transpose", self, perm_i=perm)


@symbolic("transpose", "swapaxes", "swapdims")
def transpose(g, self, dim0, dim1):
    rank = rank_of(self)
    perm = list(range(rank))
    a, b = normalize_dim(dim0, rank), normalize_dim(dim1, rank)
    if a == b:
        return self
    perm[a], perm[b] = perm[b], perm[a]
    return g.op("Transpose", self, perm_i=perm)


@symbolic("t")
def t(g, self):
    return self if rank_of(self) < 2 else transpose(g, self, 0, 1)


@symbolic("mT", "numpy_T")
def matrix_transpose(g, self):
    rank = rank_of(self)
    if g.current_kind == "Numpy_t":
        return g.op("Transpose", self, perm_i=list(reversed(range(rank))))
    return transpose(g, self, -2, -1)


@symbolic("contiguous", "clone", "detach", "alias", "lift_fresh")
def identity(g, self, *_ignored, **_kw):
    return self


@symbolic("squeeze")
def squeeze(g, self, dim=None):
    sizes = sizes_of(self)
    if dim is None:
        axes = [i for i, s in enumerate(sizes) if s == 1]
    else:
        axes = [normalize_dim(d, len(sizes)) for d in ints(dim)]
        axes = [a for a in axes if sizes[a] == 1]  # PyTorch leaves other sizes alone
    if not axes:
        return self
    return g.squeeze(self, axes)


@symbolic("unsqueeze")
def unsqueeze(g, self, dim):
    return g.unsqueeze(self, [normalize_dim(dim, rank_of(self) + 1)])


@symbolic("expand")
def expand(g, self, *sizes, implicit=False):
    target = _shape_arg(sizes)
    have = list(sizes_of(self))
    offset = len(target) - len(have)
    shape = []
    for i, want in enumerate(target):
        own = have[i - offset] if i >= offset else None
        if isinstance(want, SymbolicInt):
            shape.append(want)
        else:  # 1 keeps the input's size
            shape.append(1 if want == -1 or want == own else want)
    return g.op("Expand", self, g.shape_tensor(shape))


@symbolic("expand_as")
def expand_as(g, self, other):
    return g.op("Expand", self, g.op("Shape", other))


@symbolic("repeat")
def repeat(g, self, *repeats):
    counts = _shape_arg(repeats)
    extra = len(counts) - rank_of(self)
    if extra > 0:
        self = g.unsqueeze(self, list(range(extra)))
    return g.op("Tile", self, g.shape_tensor(counts))


# -------------------------------------------------------------------------- joining


@symbolic("cat", "concat", "concatenate")
def cat(g, tensors, dim=0):
    dtype = g.out_dtype()
    parts = [g.cast(t, dtype) for t in tensors if sizes_of(t) != (0,)]
    rank = rank_of(parts[0])
    return g.op("Concat", *parts, axis_i=normalize_dim(dim, rank))


@symbolic("stack")
def stack(g, tensors, dim=0):
    dtype = g.out_dtype()
    rank = rank_of(tensors[0]) + 1
    axis = normalize_dim(dim, rank)
    parts = [g.unsqueeze(g.cast(t, dtype), [axis]) for t in tensors]
    return g.op("Concat", *parts, axis_i=axis)


def _split_by_outputs(g: GraphContext, self, dim: int, count: int) -> tuple:
    """Split along ``dim`` into the sizes the trace gave the node's outputs."""
    rank = rank_of(self)
    axis = normalize_dim(dim, rank)
    lengths = [g.out_sizes(i)[axis] for i in range(count)]
    if count == 1:
        return (self,)
    return g.op("Split", self, g.int64s(lengths), axis_i=axis, outputs=count)


@symbolic("split", "split_with_sizes")
def split(g, self, split_size_or_sections, dim=0):
    return _split_by_outputs(g, self, dim, len(g.current_outputs))


@symbolic("chunk", "tensor_split")
def chunk(g, self, chunks, dim=0):
    return _split_by_outputs(g, self, dim, len(g.current_outputs))


@symbolic("unbind")
def unbind(g, self, dim=0):
    axis = normalize_dim(dim, rank_of(self))
    count = len(g.current_outputs)
    if count == 1:
        return (g.squeeze(self, [axis]),)
    parts = g.op("Split", self, g.int64s([1] * count), axis_i=axis, outputs=count)
    return tuple(g.squeeze(p, [axis]) for p in parts)


# -------------------------------------------------------------------------- indexing


def _bound(value):
    """A slice bound: a number, or a graph value (a recorded size; in a scripted loop, a
    value computed from the loop counter)."""
    return value if isinstance(value, SymbolicValue) else int(value)


def _slice(g: GraphContext, value, axis: int, start, stop, step):
    start = 0 if start is None else _bound(start)
    stop = (INT64_MAX if (step or 1) > 0 else INT64_MIN) if stop is None else _bound(stop)
    step = 1 if step is None else int(step)
    dynamic = any(isinstance(b, SymbolicValue) for b in (start, stop))
    if not dynamic and start == 0 and stop == INT64_MAX and step == 1:
        return value
    return g.op("Slice", value, g.shape_tensor([start]), g.shape_tensor([stop]),
                g.int64s([axis]), g.int64s([step]))  # fmt: skip


def _index_tensor(g: GraphContext, index):
    if isinstance(index, list):
        index = torch.tensor(index)
    if index.dtype == torch.bool:
        raise unsupported("indexing with a boolean mask (its result size depends on the data)")
    return g.cast(index, torch.int64)


@symbolic("__getitem__")
def getitem(g, self, index):
    if isinstance(self, (list, tuple)):  # a list of values: Python indexing
        return self[index]
    entries = list(index) if isinstance(index, tuple) else [index]
    consuming = sum(1 for e in entries if e is not None and e is not Ellipsis)
    rank = rank_of(self)
    if Ellipsis in entries:
        at = entries.index(Ellipsis)
        entries[at : at + 1] = [slice(None)] * (rank - consuming)
    advanced = [e for e in entries if isinstance(e, (SymbolicValue, torch.Tensor, list))]
    if len(advanced) > 1:
        raise unsupported("indexing with more than one tensor index")
    out, axis = self, 0
    for entry in entries:
        if entry is None:
            out = g.unsqueeze(out, [axis])
            axis += 1
        elif isinstance(entry, slice):
            out = _slice(g, out, axis, entry.start, entry.stop, entry.step)
            axis += 1
        elif isinstance(entry, bool):
            raise unsupported("indexing with a bool")
        elif isinstance(entry, SymbolicInt):
            out = g.op("Gather", out, entry, axis_i=axis)
        elif isinstance(entry, int):
            out = g.op("Gather", out, g.constant(torch.tensor(entry)), axis_i=axis)
        elif isinstance(entry, (SymbolicValue, torch.Tensor, list)):
            index = _index_tensor(g, entry)
            out = g.op("Gather", out, index, axis_i=axis)
            axis += len(sizes_of(index))
        else:
            raise SymbolicValueError(f"ONNX export: index {entry!r} is not supported")
    return out


@symbolic("select")
def select(g, self, dim, index):
    axis = normalize_dim(dim, rank_of(self))
    return g.op("Gather", self, g.constant(torch.tensor(int(index))), axis_i=axis)


@symbolic("narrow")
def narrow(g, self, dim, start, length):
    axis = normalize_dim(dim, rank_of(self))
    start, length = _bound(start), _bound(length)
    if _dynamic([start, length]):
        stop = g.op("Add", g.cast(start, torch.int64), g.cast(length, torch.int64))
        return g.op("Slice", self, g.shape_tensor([start]), g.unsqueeze(stop, [0]),
                    g.int64s([axis]))  # fmt: skip
    return _slice(g, self, axis, start, start + length, 1)


@symbolic("index_select")
def index_select(g, self, dim, index):
    axis = normalize_dim(dim, rank_of(self))
    return g.op("Gather", self, _index_tensor(g, index), axis_i=axis)


@symbolic("gather")
def gather(g, input, dim, index, sparse_grad=False):
    axis = normalize_dim(dim, rank_of(input))
    return g.op("GatherElements", input, _index_tensor(g, index), axis_i=axis)


@symbolic("flip")
def flip(g, self, *dims):
    rank = rank_of(self)
    axes = [normalize_dim(d, rank) for d in _shape_arg(dims)]
    count = len(axes)
    return g.op("Slice", self, g.int64s([-1] * count), g.int64s([INT64_MIN] * count),
                g.int64s(axes), g.int64s([-1] * count))  # fmt: skip


def _triangle_mask(g: GraphContext, self, diagonal: int, upper: bool):
    # below opset 14 (no Trilu): a constant mask of the traced matrix size
    rows, cols = sizes_of(self)[-2:]
    ones = torch.ones(rows, cols, dtype=torch.bool)
    mask = ones.triu(int(diagonal)) if upper else ones.tril(int(diagonal))
    zero = g.constant(torch.zeros((), dtype=self.dtype))
    return g.op("Where", g.constant(mask), self, zero)


@symbolic("tril")
def tril_13(g, self, diagonal=0):
    return _triangle_mask(g, self, diagonal, upper=False)


@symbolic("triu")
def triu_13(g, self, diagonal=0):
    return _triangle_mask(g, self, diagonal, upper=True)


@symbolic("tril", since=14)
def tril(g, self, diagonal=0):
    return g.op("Trilu", self, g.constant(torch.tensor(int(diagonal))), upper_i=0)


@symbolic("triu", since=14)
def triu(g, self, diagonal=0):
    return g.op("Trilu", self, g.constant(torch.tensor(int(diagonal))), upper_i=1)


@symbolic("cumsum")
def cumsum(g, input, dim, dtype=None):
    dtype = dtype or g.out_dtype()
    axis = g.constant(torch.tensor(normalize_dim(int(dim), rank_of(input))))
    return g.op("CumSum", g.cast(input, dtype), axis)
