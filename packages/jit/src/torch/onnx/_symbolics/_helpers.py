"""Small helpers shared by the symbolic functions."""

from __future__ import annotations

from collections.abc import Sequence

import torch

from .._graph import GraphContext, SymbolicValue
from ..errors import SymbolicValueError

__all__ = ["ints", "normalize_dim", "rank_of", "sizes_of", "dtype_of", "promote", "unsupported"]


def ints(value, count: int | None = None) -> list[int]:
    """An int or a sequence of ints as a list (an int repeated ``count`` times)."""
    if isinstance(value, (list, tuple, torch.Size)):
        return [int(v) for v in value]
    if count is None:
        return [int(value)]
    return [int(value)] * count


def sizes_of(value) -> tuple:
    if isinstance(value, SymbolicValue):
        if value.sizes is None:
            raise SymbolicValueError("the exporter needs the shape of this value", value.name)
        return value.sizes
    if isinstance(value, torch.Tensor):
        return tuple(value.shape)
    return ()


def rank_of(value) -> int:
    return len(sizes_of(value))


def dtype_of(value) -> torch.dtype | None:
    if isinstance(value, (SymbolicValue, torch.Tensor)):
        return value.dtype
    return None


def normalize_dim(dim: int, rank: int) -> int:
    return dim + rank if dim < 0 else dim


def _probe(value):
    """A stand-in with ``value``'s dtype and dimensionality class for ``result_type``."""
    if isinstance(value, (SymbolicValue, torch.Tensor)):
        shape = () if len(sizes_of(value)) == 0 else (1,)
        return torch.zeros(shape, dtype=value.dtype)
    return value


def promote(*values) -> torch.dtype:
    """The dtype PyTorch computes ``values`` (tensors and Python numbers) in."""
    probes = [_probe(v) for v in values if v is not None]
    current = probes[0]
    for other in probes[1:]:
        if not isinstance(current, torch.Tensor) and not isinstance(other, torch.Tensor):
            current = current + other  # two Python numbers: Python's promotion
            continue
        dtype = torch.result_type(current, other)
        dims = [p.dim() for p in (current, other) if isinstance(p, torch.Tensor)]
        current = torch.zeros((1,) if max(dims) else (), dtype=dtype)
    if not isinstance(current, torch.Tensor):
        current = torch.tensor(current)
    return current.dtype


def same_dtype(g: GraphContext, dtype: torch.dtype, *values) -> list:
    """``values`` cast (or made constants) in ``dtype``."""
    return [g.cast(v, dtype) for v in values]


def unsupported(what: str, value=None):
    """The error for an argument the exporter cannot translate."""
    return SymbolicValueError(f"ONNX export: {what} is not supported", value)


def sequence(value) -> Sequence:
    return value if isinstance(value, (list, tuple)) else [value]
