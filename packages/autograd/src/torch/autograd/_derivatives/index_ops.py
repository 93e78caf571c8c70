"""Derivatives of the index-reduction family (core's ``torch._ops.index_ops``).

``scatter_reduce`` is the family's one registered op; ``index_add`` & co. are composites
of scatter/gather and need no entry."""

from __future__ import annotations

import torch

from ._entry import Derivative, not_implemented


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
    dim, reduce, include_self = saved.dim, saved.reduce, saved.include_self
    with torch.no_grad():
        return torch.scatter_reduce(
            x.detach(), dim, index, src.detach(), reduce, include_self=include_self
        )


def _extreme_shares(inputs, saved):
    """For ``amax``/``amin``: which entries of ``self`` and ``src`` equal the result,
    and how many share each result (the gradient is split evenly among ties)."""
    x, index, src = inputs
    dim, include_self = saved.dim, saved.include_self
    out = _result(inputs, saved)
    src_hits = (src == out.gather(dim, index)).to(x.dtype)
    self_hits = (x == out).to(x.dtype)
    # NOTE: as in PyTorch, an entry of self equal to the result counts among the ties even
    # without include_self (it then gets no gradient itself)
    ties = self_hits.scatter_add(dim, index, src_hits)
    if not include_self:
        self_hits = self_hits * (~_scattered(x, dim, index)).to(x.dtype)
    return self_hits, src_hits, ties


def _product_parts(inputs, saved):
    """Per result position: the product of its nonzero factors and how many factors are
    zero, so that "the product of the others" is exact when some factor is 0."""
    x, index, src = inputs
    dim, include_self = saved.dim, saved.include_self
    with torch.no_grad():
        x, src = x.detach(), src.detach()
        ones = torch.ones_like(x)
        base = torch.where(x == 0, ones, x) if include_self else ones
        nonzero = base.scatter_reduce(
            dim, index, torch.where(src == 0, torch.ones_like(src), src), "prod"
        )
        zeros = torch.zeros_like(x).scatter_add(dim, index, (src == 0).to(x.dtype))
        if include_self:
            zeros = zeros + (x == 0).to(x.dtype)
    return nonzero, zeros


def _others_product(value, nonzero, zeros):
    """The product of a position's factors other than ``value`` (one of them)."""
    zero = torch.zeros_like(nonzero)
    if_zero = torch.where(zeros == 1, nonzero, zero)
    safe = torch.where(value == 0, torch.ones_like(value), value)
    if_nonzero = torch.where(zeros == 0, nonzero / safe, zero)
    return torch.where(value == 0, if_zero, if_nonzero)


def _scatter_reduce_self(grad, inputs, saved):
    x, index, src = inputs
    dim, reduce, include_self = saved.dim, saved.reduce, saved.include_self
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
        nonzero, zeros = _product_parts(inputs, saved)
        return grad * _others_product(x.detach(), nonzero, zeros)
    self_hits, _, ties = _extreme_shares(inputs, saved)
    return grad * self_hits / ties.clamp(min=1)


def _scatter_reduce_src(grad, inputs, saved):
    x, index, src = inputs
    dim, reduce, include_self = saved.dim, saved.reduce, saved.include_self
    if reduce == "sum":
        return grad.gather(dim, index)
    if reduce == "mean":
        return (grad / _counts(x, dim, index, include_self)).gather(dim, index)
    if reduce == "prod":
        nonzero, zeros = _product_parts(inputs, saved)
        others = _others_product(src.detach(), nonzero.gather(dim, index), zeros.gather(dim, index))
        return grad.gather(dim, index) * others
    _, src_hits, ties = _extreme_shares(inputs, saved)
    return (grad / ties.clamp(min=1)).gather(dim, index) * src_hits


def _no_grad(grad, inputs, saved):
    return None


def _not_implemented_op(name: str):
    """The formula of an op PyTorch records under its own node name but does not
    differentiate: it raises PyTorch's NotImplementedError."""

    def formula(grad, inputs, saved):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")

    return formula


def _histogram(grads, inputs, saved, outputs):
    raise RuntimeError("derivative for aten::histogram is not implemented")


INDEX_OPS = {
    # recorded (float results require grad) but not differentiable, as in PyTorch; the
    # index outputs of the unique ops never require grad
    "_unique2": Derivative("Unique2Backward0", (_not_implemented_op("_unique2"),), saved_inputs=()),
    "unique_dim": Derivative(
        "UniqueDimBackward0", (_not_implemented_op("unique_dim"),), saved_inputs=()
    ),
    "unique_consecutive": Derivative(
        "UniqueConsecutiveBackward0", (_not_implemented_op("unique_consecutive"),), saved_inputs=()
    ),
    "bincount": Derivative("NotImplemented", (not_implemented("bincount"),), saved_inputs=()),
    "histogram": Derivative("NotImplemented", (_histogram,) * 3, saved_inputs=(), outputs=2),
    "scatter_reduce": Derivative(
        "ScatterReduceBackward0", (_scatter_reduce_self, _no_grad, _scatter_reduce_src)
    ),
}
