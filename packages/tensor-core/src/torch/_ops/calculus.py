"""Numerical calculus on sampled values: ``diff``, ``gradient``, ``trapezoid``/``trapz``/
``cumulative_trapezoid``, and ``vander`` (the powers a polynomial fit evaluates).

NOTE: written on differentiable ops (slicing, ``cat``, pointwise math), so their
gradients follow from those.
"""

from __future__ import annotations

import torch

from .. import _dtype
from .._tensor import Tensor
from ._dispatch import defop
from .pointwise_composites import _as_float

__all__ = [
    "diff",
    "gradient",
    "vander",
    "trapezoid",
    "trapz",
    "cumulative_trapezoid",
]


# ----------------------------------------------------------------- differences


@defop("diff", method=True, out=True)
def diff(input: Tensor, n: int = 1, dim: int = -1, prepend=None, append=None) -> Tensor:
    """The ``n``-th forward difference along ``dim`` (``prepend``/``append`` joined on
    first); for bool tensors, where neighbours differ.

    Examples::

        >>> torch.diff(torch.tensor([1, 4, 9, 16]))
        tensor([3, 5, 7])
    """
    if input._np.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    d = input._wrap_dim(dim)
    parts = []
    for extra in (prepend, append):
        if extra is not None and extra.dim() != input.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    if prepend is not None:
        parts.append(prepend)
    parts.append(input)
    if append is not None:
        parts.append(append)
    result = torch.cat(parts, d) if len(parts) > 1 else input
    for _ in range(n):
        length = result.shape[d]
        if length == 0:
            break
        later = result.narrow(d, 1, length - 1)
        earlier = result.narrow(d, 0, length - 1)
        result = later != earlier if result.dtype is _dtype.bool_ else later - earlier
    return result


def _spacings(input: Tensor, spacing, dims):
    """One spacing per dim: a number, or a 1-D tensor of coordinates."""
    if isinstance(spacing, (int, float)):
        return [float(spacing)] * len(dims)
    spacing = list(spacing)
    if len(spacing) == 1 and len(dims) > 1 and not isinstance(spacing[0], Tensor):
        return [float(spacing[0])] * len(dims)
    if len(spacing) != len(dims):
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
            f"dim arguments to have the same length, but got a spacing argument of length "
            f"{len(spacing)} and a dim argument of length {len(dims)}."
        )
    return [s if isinstance(s, Tensor) else float(s) for s in spacing]


def _along(t: Tensor, d: int, ndim: int) -> Tensor:
    """A 1-D ``t`` shaped to broadcast along dim ``d`` of an ``ndim``-dim tensor."""
    shape = [1] * ndim
    shape[d] = -1
    return t.reshape(shape)


def _gradient_one(f: Tensor, d: int, h, edge_order: int) -> Tensor:
    n, ndim = f.shape[d], f.dim()

    def part(start, length):
        return f.narrow(d, start, length)

    if isinstance(h, Tensor):
        dx = _as_float(h[1:] - h[:-1])
        hd, hs = dx[:-1], dx[1:]
        a = _along(-hs / (hd * (hd + hs)), d, ndim)
        b = _along((hs - hd) / (hd * hs), d, ndim)
        c = _along(hd / (hs * (hd + hs)), d, ndim)
        interior = a * part(0, n - 2) + b * part(1, n - 2) + c * part(2, n - 2)
        if edge_order == 1:
            first = (part(1, 1) - part(0, 1)) / dx[0]
            last = (part(n - 1, 1) - part(n - 2, 1)) / dx[-1]
        else:
            d1, d2 = dx[0], dx[1]
            first = (
                -(2 * d1 + d2) / (d1 * (d1 + d2)) * part(0, 1)
                + (d1 + d2) / (d1 * d2) * part(1, 1)
                - d1 / (d2 * (d1 + d2)) * part(2, 1)
            )
            d1, d2 = dx[-2], dx[-1]
            last = (
                d2 / (d1 * (d1 + d2)) * part(n - 3, 1)
                - (d2 + d1) / (d1 * d2) * part(n - 2, 1)
                + (2 * d2 + d1) / (d2 * (d1 + d2)) * part(n - 1, 1)
            )
    else:
        interior = (part(2, n - 2) - part(0, n - 2)) / (2 * h)
        if edge_order == 1:
            first = (part(1, 1) - part(0, 1)) / h
            last = (part(n - 1, 1) - part(n - 2, 1)) / h
        else:
            first = (-1.5 * part(0, 1) + 2 * part(1, 1) - 0.5 * part(2, 1)) / h
            last = (0.5 * part(n - 3, 1) - 2 * part(n - 2, 1) + 1.5 * part(n - 1, 1)) / h
    return torch.cat([first, interior, last], d)


@defop("gradient")
def gradient(input: Tensor, *, spacing=1, dim=None, edge_order: int = 1) -> tuple:
    """Estimates of the derivative of ``input`` along each of ``dim`` (all dims by
    default) by central differences inside and one-sided ones (of ``edge_order`` 1 or 2)
    at the ends; ``spacing`` is a step, one step per dim, or coordinates per dim."""
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dim is None:
        dims = list(range(input.dim()))
    elif isinstance(dim, int):
        dims = [input._wrap_dim(dim)]
    else:
        dims = [input._wrap_dim(d) for d in dim]
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError(
                "torch.gradient expected each dimension size to be at least edge_order+1"
            )
    f = _as_float(input)
    steps = _spacings(input, spacing, dims)
    return tuple(_gradient_one(f, d, h, edge_order) for d, h in zip(dims, steps))


@defop("vander")
def vander(x: Tensor, N=None, increasing: bool = False) -> Tensor:  # noqa: N803
    """The Vandermonde matrix of 1-D ``x``: columns of its powers, decreasing unless
    ``increasing``."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    base = x if x.dtype.is_floating_point or x.dtype.is_complex else x.to(_dtype.int64)
    powers = [torch.ones_like(base)]
    for _ in range(1, n):
        powers.append(powers[-1] * base)
    columns = torch.stack(powers[:n], 1) if n else base.reshape(-1, 1)[:, :0]
    return columns if increasing else columns.flip(1)


# ------------------------------------------------------------------ integration


def _integrate(y: Tensor, x, dx, dim: int, cumulative: bool) -> Tensor:
    d = y._wrap_dim(dim)
    n = y.shape[d]
    yf = _as_float(y)
    if n == 0:
        return yf.sum(d) * 0
    pair = (yf.narrow(d, 1, n - 1) + yf.narrow(d, 0, n - 1)) / 2
    if x is not None:
        if x.dim() == 1:
            spacing = _along(_as_float(x[1:] - x[:-1]), d, y.dim())
        else:
            xd = x.dim() - y.dim() + d if x.dim() != y.dim() else d
            spacing = _as_float(x.narrow(xd, 1, n - 1) - x.narrow(xd, 0, n - 1))
        pair = pair * spacing
    elif dx is not None:
        pair = pair * dx
    return pair.cumsum(d) if cumulative else pair.sum(d)


@defop("trapezoid")
def trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, at the points ``x``
    (or with spacing ``dx``, 1 by default)."""
    if isinstance(x, (int, float)):
        x, dx = None, x
    return _integrate(y, x, dx, dim, cumulative=False)


@defop("trapz")
def trapz(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """:func:`trapezoid` (the older name)."""
    return trapezoid(y, x, dx=dx, dim=dim)


@defop("cumulative_trapezoid")
def cumulative_trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The running trapezoidal integral of ``y`` along ``dim`` (one element shorter)."""
    if isinstance(x, (int, float)):
        x, dx = None, x
    return _integrate(y, x, dx, dim, cumulative=True)
