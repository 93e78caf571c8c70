"""``torch.histogramdd``: the histogram of points in D dimensions (``torch.histogram``
is the one-dimensional case, in ``statistics``)."""

from __future__ import annotations

import numpy as np

from .. import _return_types
from .._tensor import Tensor
from ._dispatch import defop

__all__ = ["histogramdd"]


def _edges_per_dim(bins, dims: int):
    """NumPy's ``bins`` argument: a count per dimension or the edges per dimension."""
    if isinstance(bins, (int, np.integer)):
        bins = [int(bins)] * dims
    bins = list(bins)
    if len(bins) != dims:
        raise RuntimeError(
            "histogramdd: The size of bins must be equal to the innermost dimension of the input."
        )
    edges = []
    for d, b in enumerate(bins):
        if isinstance(b, Tensor):
            edges.append(b._np)
        elif int(b) <= 0:
            raise RuntimeError(
                f"torch.histogram(): bins must be > 0, but got {b} for dimension {d}"
            )
        else:
            edges.append(int(b))
    return edges


def _ranges(limits, dims: int):
    if limits is None:
        return None
    values = list(limits)
    if len(values) != 2 * dims:
        raise RuntimeError(
            f"torch.histogramdd: for a {dims}-dimensional histogram range should have "
            f"{2 * dims} elements, but got {len(values)}"
        )
    pairs = [(values[2 * d], values[2 * d + 1]) for d in range(dims)]
    for d, (low, high) in enumerate(pairs):
        if low > high:
            raise RuntimeError(
                f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} "
                f"for dimension {d}"
            )
    return pairs


@defop("histogramdd")
def histogramdd(input: Tensor, bins, *, range=None, weight=None, density: bool = False):  # noqa: A002
    """``(hist, bin_edges)``: the counts (or the sums of ``weight``, or a density) of the
    points ``input[..., :]`` (the last dim holds each point's D coordinates) in a grid of
    bins: ``bins`` is a count for every dimension, a count per dimension, or the edges per
    dimension (1-D tensors); ``range`` lists (min, max) per dimension (the data's by
    default). Points on a last edge count in the last bin.

    Examples::

        >>> points = torch.tensor([[0., 1.], [1., 0.], [2., 2.]])
        >>> torch.histogramdd(points, bins=2).hist
        tensor([[0., 1.],
                [1., 1.]])
    """
    if not input._dtype.is_floating_point:
        kind = input._dtype._legacy[:-6]
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{kind}'")
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    dims = input.shape[-1]
    points = input._np.reshape(-1, dims)
    edges = _edges_per_dim(bins, dims)
    pairs = _ranges(range, dims)
    w = None if weight is None else weight._np.reshape(-1)
    counts, bin_edges = np.histogramdd(points, bins=edges, range=pairs, weights=w, density=density)
    dtype = input._dtype
    hist = Tensor._from_array(np.ascontiguousarray(counts, dtype=dtype.np_dtype), dtype)
    edge_tensors = tuple(
        Tensor._from_array(np.ascontiguousarray(e, dtype=dtype.np_dtype), dtype) for e in bin_edges
    )
    return _return_types.histogramdd(hist, edge_tensors)
