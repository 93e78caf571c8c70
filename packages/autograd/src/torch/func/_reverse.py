"""Reverse mode through the transform levels: what ``grad`` and ``vjp`` use.

The autograd engine works on plain tensors, so the inputs of a function that ``grad`` or
``vjp`` differentiates are *lowered*: every vmap level active at the call contributes a
leading batch dim (in level order; an input not batched at a level is expanded over it,
so each example gets its own copy and its own gradient), and the dual level, if any, is
split into primal and tangent. The leaves are made on the lowered primals, raised back
into wrappers for the function, and the function's outputs are lowered the same way, so
one ``torch.autograd.grad`` call computes every example's gradient. The tangent of a
gradient (forward-over-reverse, as in ``hessian``) is the gradient of the output's
tangent: ``d/de grad(u . f)(x + e t) = grad(u . jvp(f)(x, t))``.
"""

from __future__ import annotations

import torch
from torch.autograd._transforms.dual import DualTensor, make_dual_tensor, unwrap_dual
from torch.autograd._transforms.levels import active_levels
from torch.autograd.functional import _grad_along

from ._vmap import batched

__all__ = ["Lowering"]

_Tensor = torch.Tensor

#: how many grad/vjp calls are running (an inner one keeps its graph for the outer one)
_depth = [0]


class Lowering:
    """The levels active when ``grad``/``vjp`` was called, and the moves between wrapped
    tensors and their lowered (plain) form."""

    def __init__(self, levels=None) -> None:
        self.levels = active_levels() if levels is None else levels
        duals = [level for level in self.levels if level.kind == "dual"]
        if len(duals) > 1:
            raise NotImplementedError(
                "torch.func: reverse mode under more than one forward-mode level (jvp of jvp "
                "of grad) is not supported"
            )
        self.dual = duals[0] if duals else None
        self.vmaps = [level for level in self.levels if level.kind == "vmap"]

    def lower(self, x):
        """(primal, tangent or None) of ``x`` as plain tensors."""
        return _lower(x, sorted(self.levels, key=lambda lv: -lv.number))

    def raise_(self, primal, tangent=None):
        return _raise(primal, tangent, sorted(self.levels, key=lambda lv: -lv.number))


def _count_vmaps(levels) -> int:
    return sum(1 for level in levels if level.kind == "vmap")


def _lower(x, levels):
    if not levels:
        if isinstance(x, DualTensor):  # a dual tensor of an exited level
            return x._outside(), None
        return x, None
    level, rest = levels[0], levels[1:]
    k = _count_vmaps(rest)
    if level.kind == "dual":
        primal, tangent = unwrap_dual(level, x)
        p, _ = _lower(primal, rest)
        t = None if tangent is None else _lower(tangent, rest)[0]
        return p, t
    value, bdim = level.unwrap(x)
    p, t = _lower(value, rest)
    if bdim is None:
        p = _expand_at(p, k, level.batch_size)
        t = None if t is None else _expand_at(t, k, level.batch_size)
    else:
        p = p.movedim(k + bdim, k)
        t = None if t is None else t.movedim(k + bdim, k)
    return p, t


def _expand_at(x, dim: int, size: int):
    x = x.unsqueeze(dim)
    shape = list(x.shape)
    shape[dim] = size
    return x.expand(shape)


def _raise(primal, tangent, levels):
    if not levels:
        return primal
    level, rest = levels[0], levels[1:]
    if level.kind == "dual":
        p = _raise(primal, None, rest)
        if tangent is None:
            return p
        return make_dual_tensor(level, p, _raise(tangent, None, rest))
    return batched(level, _raise(primal, tangent, rest), 0)


def make_leaf(p):
    """A tensor to differentiate with respect to, standing for ``p``: ``p`` itself on the
    graph of an outer ``grad`` (a view, so it is no leaf of it), else a fresh leaf."""
    # NOTE: an input expanded over a vmap level (stride 0) is copied: each example's
    # elements are their own variables, and the gradients of views of an overlapping
    # tensor (select, slice) would mix them
    overlapping = any(s == 0 and n > 1 for s, n in zip(p.stride(), p.shape))
    if p.requires_grad:
        return p.clone() if overlapping else p.view_as(p)
    p = p.detach()
    return (p.clone() if overlapping else p).requires_grad_()


def gradients(outputs, leaves, cotangents, *, create_graph: bool, retain_graph: bool):
    """``torch.autograd.grad`` with zeros for the leaves the outputs do not reach."""
    pairs = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    found = _grad_along(pairs, leaves, create_graph, retain_graph)
    return [torch.zeros_like(leaf) if g is None else g for g, leaf in zip(found, leaves)]
