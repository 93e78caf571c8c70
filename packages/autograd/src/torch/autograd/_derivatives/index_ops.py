"""Derivatives of the index-reduction family (core's ``torch._ops.index_ops``).

``scatter_reduce`` is the family's one registered op; ``index_add`` & co. are composites
of scatter/gather and need no entry."""

from __future__ import annotations

import torch

from ._entry import Derivative


def _scattered(x, dim, index):
    """Where ``x`` receives values from the scatter (a bool mask shaped like ``x``)."""
    hit = torch.zeros(x.shape, dtype=torch.float64).scatter(dim, index, 1.0)
    return hit != 0


def _counts(x, dim, index, include_self):
    """How many values each position of the result averages (``mean``)."""
    ones = torch.ones(index.shape, dtype=x.dtype)
    counts = torch.zeros_like(x).scatter_add(dim, index, ones)
    return counts + 1 if include_self else counts.clamp(min=1)


def _result(inputs, saved):
    x, index, src = inputs
    dim, reduce, include_self = saved
    with torch.no_grad():
        return torch.scatter_reduce(
            x.detach(), dim, index, src.detach(), reduce, include_self=include_self
        )


def _extreme_shares(inputs, saved):
    """For ``amax``/``amin``: which entries of ``self`` and ``src`` equal the result,
    and how many share each result (the gradient is split evenly among ties)."""
    x, index, src = inputs
    dim, _, include_self = saved
    out = _result(inputs, saved)
    src_hits = (src == out.gather(dim, index)).to(x.dtype)
    self_hits = (x == out).to(x.dtype)
    if not include_self:
        self_hits = self_hits * (~_scattered(x, dim, index)).to(x.dtype)
    ties = self_hits.scatter_add(dim, index, src_hits)
    return self_hits, src_hits, ties


def _scatter_reduce_self(grad, inputs, saved):
    x, index, src = inputs
    dim, reduce, include_self = saved
    untouched = (~_scattered(x, dim, index)).to(grad.dtype)
    if reduce == "sum":
        return grad if include_self else grad * untouched
    if reduce == "mean":
        if not include_self:
            return grad * untouched
        return grad / _counts(x, dim, index, include_self)
    if reduce == "prod":
        if not include_self:
            return grad * untouched
        # NOTE: d(prod)/d(self) = prod of the others; by division, so exact for nonzero self
        return grad * _result(inputs, saved) / x
    self_hits, _, ties = _extreme_shares(inputs, saved)
    return grad * self_hits / ties.clamp(min=1)


def _scatter_reduce_src(grad, inputs, saved):
    x, index, src = inputs
    dim, reduce, include_self = saved
    if reduce == "sum":
        return grad.gather(dim, index)
    if reduce == "mean":
        return (grad / _counts(x, dim, index, include_self)).gather(dim, index)
    if reduce == "prod":
        return (grad * _result(inputs, saved)).gather(dim, index) / src
    _, src_hits, ties = _extreme_shares(inputs, saved)
    return (grad / ties.clamp(min=1)).gather(dim, index) * src_hits


def _no_grad(grad, inputs, saved):
    return None


INDEX_OPS = {
    "scatter_reduce": Derivative(
        "ScatterReduceBackward0", (_scatter_reduce_self, _no_grad, _scatter_reduce_src)
    ),
}
