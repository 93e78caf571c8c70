"""Derivatives of the reduction family."""

from __future__ import annotations

import math

import torch

from ._entry import Derivative, holomorphic_entry, shape_of


def _restore_dims(grad, input_shape, dims, keepdim):
    """``grad`` of a reduction, broadcast back to the input's shape."""
    if not keepdim and grad.dim() != 0:  # a 0-dim gradient expands as it is
        kept = tuple(1 if i in dims else s for i, s in enumerate(input_shape))
        grad = grad.reshape(kept)
    return grad.expand(input_shape)


def _kept(tensor, input_shape, dims, keepdim):
    """A reduced tensor with its reduced dims back as size 1."""
    if keepdim:
        return tensor
    return tensor.reshape(tuple(1 if i in dims else s for i, s in enumerate(input_shape)))


def _sum(grad, inputs, saved):
    return _restore_dims(grad, shape_of(inputs[0]), saved.dim, saved.keepdim)


def _mean(grad, inputs, saved):
    shape = shape_of(inputs[0])
    return _sum(grad, inputs, saved) / math.prod([shape[d] for d in saved.dim])


def _prod(grad, inputs, saved):
    # NOTE: result / x fails where x == 0; there the product of the others is the product
    # of the nonzeros when x is the only zero, else 0
    x = inputs[0]
    dims, keepdim = saved.dim, saved.keepdim
    shape = tuple(x.shape)
    zero = x == 0
    zeros = _kept(torch.sum(zero, dims, keepdim), shape, dims, keepdim)
    nonzero_product = _kept(_prod_over(torch.where(zero, 1.0, x), dims), shape, dims, False)
    result = _kept(_prod_over(x, dims), shape, dims, False)
    others = torch.where(zero, torch.where(zeros == 1, nonzero_product, 0.0), result / x)
    return _restore_dims(grad, shape, dims, keepdim) * others


def _prod_over(x, dims):
    for d in sorted(dims, reverse=True):
        x = torch.prod(x, d, keepdim=True)
    return x.reshape(tuple(s for i, s in enumerate(x.shape) if i not in dims))


def _extreme(grad, inputs, saved, op):
    x = inputs[0]
    dims, keepdim = saved.dim, saved.keepdim
    shape = tuple(x.shape)
    value = _kept(op(x, dims, keepdim), shape, dims, keepdim)
    hits = x == value
    count = _kept(torch.sum(hits, dims, keepdim), shape, dims, keepdim)
    return torch.where(hits, _restore_dims(grad, shape, dims, keepdim) / count, 0.0)


def _select_along(grad, inputs, saved):
    indices, dim, keepdim = saved.indices, saved.dim, saved.keepdim
    x = inputs[0]
    if not keepdim:
        grad = grad.unsqueeze(dim)
        indices = indices.unsqueeze(dim)
    return torch.zeros_like(x).scatter_add(dim, indices, grad)


def _var(grad, inputs, saved):
    x = inputs[0]
    dims, keepdim, correction = saved.dim, saved.keepdim, saved.correction
    shape = tuple(x.shape)
    count = math.prod(shape[d] for d in dims)
    centred = x - torch.mean(x, dims, keepdim=True)
    return _restore_dims(grad, shape, dims, keepdim) * centred * (2.0 / (count - correction))


def _logsumexp(grad, inputs, saved):
    x = inputs[0]
    dims, keepdim = saved.dim, saved.keepdim
    shape = tuple(x.shape)
    result = _kept(torch.logsumexp(x, dims, keepdim), shape, dims, keepdim)
    return _restore_dims(grad, shape, dims, keepdim) * torch.exp(x - result)


def _cumsum(grad, inputs, saved):
    dim = saved.dim
    return torch.flip(torch.cumsum(torch.flip(grad, dim), dim), dim)


def _cumprod(grad, inputs, saved):
    # d out_i / d x_k = prod_{j <= i, j != k} x_j for k <= i
    x = inputs[0]
    dim = saved.dim
    if x.dim() == 0 or x.shape[dim] <= 1:
        return grad
    if not bool(torch.any(x == 0)):
        result = torch.cumprod(x, dim)
        return torch.flip(torch.cumsum(torch.flip(grad * result, dim), dim), dim) / x
    # a zero input: result / x fails there
    if not torch.is_grad_enabled():
        return _cumprod_zeros_first_order(grad, x, dim)
    # under create_graph: the products leaving out each x_k in turn, for every k (O(n^2),
    # as PyTorch's formula under grad mode; differentiable again)
    n = x.shape[dim]
    rest = (1,) * (x.dim() - 1)
    xs, grads = torch.movedim(x, dim, 0), torch.movedim(grad, dim, 0)
    steps = torch.arange(n)
    left_out = (steps[:, None] == steps[None, :]).reshape((n, n) + rest)  # [k, j]: j == k
    prods = torch.cumprod(torch.where(left_out, 1.0, xs.unsqueeze(0)), 1)  # [k, i]
    later = (steps[None, :] >= steps[:, None]).reshape((n, n) + rest)  # [k, i]: i >= k
    total = torch.sum(torch.where(later, prods * grads.unsqueeze(0), 0.0), 1)
    return torch.movedim(total, 0, dim)


def _cumprod_zeros_first_order(grad, x, dim):
    # O(n), not differentiable again: only the inputs up to the first zero z get a
    # gradient. Before z: the usual reversed cumsum of grad * result over x; at z: the
    # product before z times the sum over z <= i < (next zero) of grad_i prod_{z<j<=i} x_j
    zeros = x == 0
    seen = torch.cumsum(zeros, dim)
    before = seen == 0
    first = zeros & (seen == 1)
    result = torch.cumprod(x, dim)
    later = torch.flip(torch.cumsum(torch.flip(grad * result, dim), dim), dim)
    before_part = torch.where(before, later / torch.where(before, x, 1.0), 0.0)
    skipped = torch.cumprod(torch.where(first, 1.0, x), dim)
    at_zero = torch.sum(torch.where(seen == 1, grad * skipped, 0.0), dim, keepdim=True)
    return before_part + torch.where(first, at_zero, 0.0)


def _vector_norm(grad, inputs, saved):
    x = inputs[0]
    order, dims, keepdim = saved.ord, saved.dim, saved.keepdim
    shape = tuple(x.shape)
    grad = _restore_dims(grad, shape, dims, keepdim)
    if order == 0:
        return torch.zeros_like(x)
    if order == 1:
        return grad * torch.sgn(x)
    norm = _kept(torch.linalg.vector_norm(x, order, dims, keepdim), shape, dims, keepdim)
    if math.isinf(order):
        hits = torch.abs(x) == norm
        count = _kept(torch.sum(hits, dims, keepdim), shape, dims, keepdim)
        return torch.where(hits, grad * torch.sgn(x) / count, 0.0)
    if order == 2:
        return torch.where(norm == 0, 0.0, grad * x / norm)
    scaled = torch.sgn(x) * torch.abs(x) ** (order - 1) / norm ** (order - 1)
    return torch.where(norm == 0, 0.0, grad * scaled)


REDUCTION = {
    "sum": Derivative("SumBackward0", (_sum,), saved_inputs=(), drops_inputs=True),
    "mean": Derivative("MeanBackward0", (_mean,), saved_inputs=(), drops_inputs=True),
    "prod": holomorphic_entry(Derivative("ProdBackward0", (_prod,))),
    "amax": Derivative("AmaxBackward0", (lambda g, i, s: _extreme(g, i, s, torch.amax),)),
    "amin": Derivative("AminBackward0", (lambda g, i, s: _extreme(g, i, s, torch.amin),)),
    "_select_along": Derivative("MaxBackward0", (_select_along,)),
    "var": Derivative("VarBackward0", (_var,)),
    "logsumexp": holomorphic_entry(Derivative("LogsumexpBackward0", (_logsumexp,))),
    "cumsum": Derivative("CumsumBackward0", (_cumsum,), saved_inputs=()),
    "cumprod": holomorphic_entry(Derivative("CumprodBackward0", (_cumprod,))),
    "linalg_vector_norm": Derivative("LinalgVectorNormBackward0", (_vector_norm,)),
}
