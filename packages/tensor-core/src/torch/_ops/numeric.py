"""Numerical composites: ``diff``, ``gradient``, ``cov``, ``corrcoef``, ``vander``,
``trapezoid``/``trapz``/``cumulative_trapezoid``, ``histogram``, ``renorm``, ``sinc``,
``gcd``/``lcm``, ``put``, the ``*_scatter`` functions and ``fill_diagonal_``.

NOTE: all are written on differentiable ops (slicing, ``cat``, pointwise math, indexing),
so their gradients follow; ``histogram``, ``gcd`` and ``lcm`` have none in PyTorch either.
"""

from __future__ import annotations

import math

import numpy as np

import torch

from .. import _dtype, _return_types
from .._interface import OpDef
from .._tensor import Tensor
from ._dispatch import defop, record
from .gather_scatter import _inplace

__all__ = [
    "diff",
    "gradient",
    "cov",
    "corrcoef",
    "vander",
    "trapezoid",
    "trapz",
    "cumulative_trapezoid",
    "histogram",
    "renorm",
    "sinc",
    "gcd",
    "lcm",
    "put",
    "slice_scatter",
    "select_scatter",
    "diagonal_scatter",
    "as_strided_scatter",
]


def _legacy(d) -> str:
    return d._legacy[:-6]


def _as_float(t: Tensor) -> Tensor:
    if t._dtype.is_floating_point or t._dtype.is_complex:
        return t
    return t.to(_dtype.get_default_dtype())


# ----------------------------------------------------------------- differences


@defop("diff", method=True, out=True)
def diff(input: Tensor, n: int = 1, dim: int = -1, prepend=None, append=None) -> Tensor:
    """The ``n``-th forward difference along ``dim`` (``prepend``/``append`` joined on
    first); for bool tensors, where neighbours differ.

    Examples::

        >>> import torch
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


# -------------------------------------------------------------- covariance


@defop("cov", method=True)
def cov(input: Tensor, *, correction: int = 1, fweights=None, aweights=None) -> Tensor:
    """The covariance matrix of the variables in the rows of ``input`` (observations in
    columns), with optional integer frequency and float observation weights."""
    if input.dim() > 2:
        raise RuntimeError(
            "cov(): expected input to have two or fewer dimensions but got an input with "
            f"{input.dim()} dimensions"
        )
    x = _as_float(input)
    x = x.reshape(1, -1) if x.dim() < 2 else x
    observations = x.shape[1]
    weights = None
    if fweights is not None:
        weights = fweights
    if aweights is not None:
        weights = aweights if weights is None else weights * aweights
    if weights is None:
        total = torch.tensor(float(observations), dtype=x.dtype)
        mean = x.mean(1, keepdim=True)
        norm = total - correction
    else:
        weights = weights.to(x.dtype)
        total = weights.sum()
        mean = (x * weights).sum(1, keepdim=True) / total
        if correction == 0:
            norm = total
        elif aweights is None:
            norm = total - correction
        else:
            norm = total - correction * (weights * aweights.to(x.dtype)).sum() / total
    centered = x - mean
    weighted = centered if weights is None else centered * weights
    result = torch.matmul(weighted, centered.mT.conj() if x.is_complex() else centered.mT)
    if isinstance(norm, Tensor):
        # the weights are real: a complex input only made their sum complex
        norm = torch.clamp(norm.real if norm.is_complex() else norm, min=0)
    result = result / norm
    return result.squeeze() if input.dim() < 2 else result


@defop("corrcoef", method=True)
def corrcoef(input: Tensor) -> Tensor:
    """Pearson correlation coefficients of the variables in the rows of ``input``."""
    c = cov(input)
    if c.dim() == 0:
        return c / c
    scale = torch.sqrt(torch.diagonal(c))
    result = c / scale.unsqueeze(1) / scale.unsqueeze(0)
    if result.is_complex():  # clamp refuses complex numbers: clip each part, as PyTorch
        return torch.complex(torch.clamp(result.real, -1, 1), torch.clamp(result.imag, -1, 1))
    return torch.clamp(result, -1, 1)


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


# ------------------------------------------------------------------ histogram


def _check_histogram_args(edges, range) -> None:  # noqa: A002
    if isinstance(edges, int) and edges <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {edges} for dimension 0")
    if range is not None and range[0] > range[1]:
        raise RuntimeError(
            f"torch.histogramdd: min should not exceed max, but got min {range[0]} max "
            f"{range[1]} for dimension 0"
        )


@defop("histogram", method=True, out=True)
def histogram(input: Tensor, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
    """``(hist, bin_edges)``: counts (or weights' sums, or a density) of ``input`` in
    ``bins`` equal bins over ``range`` (the data's by default) or between the given
    edges."""
    if not input._dtype.is_floating_point:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_legacy(input._dtype)}'")
    data = input._np.reshape(-1)
    edges = bins._np if isinstance(bins, Tensor) else int(bins)
    _check_histogram_args(edges, range)
    w = None if weight is None else weight._np.reshape(-1)
    counts, bin_edges = np.histogram(data, bins=edges, range=range, weights=w, density=density)
    dtype = input._dtype
    result = (
        Tensor._from_array(np.ascontiguousarray(counts, dtype=dtype.np_dtype), dtype),
        Tensor._from_array(np.ascontiguousarray(bin_edges, dtype=dtype.np_dtype), dtype),
    )
    # as PyTorch's fallback node: edges for the inputs that require grad only
    inputs = tuple(t for t in (input, bins, weight) if isinstance(t, Tensor) and t.requires_grad)
    return _return_types.histogram(*record(HISTOGRAM, inputs, result))


# NOTE: not in the op registry (no op-database entry): recorded for autograd only, as
# PyTorch records it (its backward raises)
HISTOGRAM = OpDef(
    name="histogram",
    signature="histogram(Tensor self, Tensor bins, *, Tensor? weight=None, bool density=False) "
    "-> (Tensor hist, Tensor bin_edges)",
    kernels={},
    family="numeric",
)


# ------------------------------------------------------------- pointwise extras


@defop("renorm", method=True, inplace=True, out=True)
def renorm(input: Tensor, p, dim: int, maxnorm) -> Tensor:
    """``input`` with each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm``
    scaled down to norm ``maxnorm``."""
    d = input._wrap_dim(dim)
    others = tuple(i for i in range(input.dim()) if i != d)
    norms = torch.linalg.vector_norm(input, p, others, keepdim=True)
    # NOTE: 1e-7 keeps the division finite, as PyTorch's kernel does
    factor = torch.where(norms > maxnorm, maxnorm / (norms + 1e-7), torch.ones_like(norms))
    return input * factor


@defop("sinc", method=True, inplace=True, out=True, torch_inplace=True)
def sinc(input: Tensor) -> Tensor:
    """``sin(pi x) / (pi x)``, 1 at 0."""
    x = _as_float(input)
    zero = x == 0
    # NOTE: the division runs on a safe input so its gradient at 0 is not NaN
    safe = torch.where(zero, torch.ones_like(x), x) * math.pi
    return torch.where(zero, torch.ones_like(x), torch.sin(safe) / safe)


def _integer_pair(name: str, input: Tensor, other: Tensor, kernel) -> Tensor:
    if input._dtype.is_floating_point or input._dtype.is_complex:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_legacy(input._dtype)}'")
    dtype = _dtype.promote_types(input._dtype, other._dtype)
    result = kernel(input._np, other._np).astype(dtype.np_dtype)
    return Tensor._from_array(np.ascontiguousarray(result), dtype)


@defop("gcd", method=True, inplace=True, out=True, torch_inplace=True)
def gcd(input: Tensor, other: Tensor) -> Tensor:
    """The greatest common divisor elementwise (non-negative) of integer tensors."""
    return _integer_pair("gcd", input, other, np.gcd)


@defop("lcm", method=True, inplace=True, out=True, torch_inplace=True)
def lcm(input: Tensor, other: Tensor) -> Tensor:
    """The least common multiple elementwise (non-negative) of integer tensors."""
    return _integer_pair("lcm", input, other, np.lcm)


# ------------------------------------------------------------ writes into copies


@defop("put", method=True, inplace=True)
def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``source`` written (or added) at the flat ``index``."""
    if source.numel() != index.numel():
        raise IndexError(
            "put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {source.numel()}, index.numel() = {index.numel()}"
        )
    size = input.numel()
    idx = index._np
    if idx.size and (idx.min() < -size or idx.max() >= size):
        bad = int(idx.max() if idx.max() >= size else idx.min())
        raise IndexError(
            f"out of range: tried to access index {bad} on a tensor of {size} elements."
        )
    flat = input.reshape(-1)
    written = flat.index_put((index.reshape(-1),), source.reshape(-1), accumulate=accumulate)
    return written.reshape(input.shape)


def _scatter_into_view(input: Tensor, src: Tensor, view_of) -> Tensor:
    result = input.clone()
    target = view_of(result)
    if tuple(target.shape) != tuple(src.shape):
        raise RuntimeError(
            f"expected src to have a size equal to the slice of self. src size = "
            f"{list(src.shape)}, slice size = {list(target.shape)}"
        )
    target.copy_(src)
    return result


@defop("slice_scatter", method=True)
def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start=None, end=None, step=1):
    """A copy of ``input`` with ``src`` written into ``input[..., start:end:step]``
    along ``dim``."""
    d = input._wrap_dim(dim)
    index = (slice(None),) * d + (slice(start, end, step),)
    return _scatter_into_view(input, src, lambda t: t[index])


@defop("select_scatter", method=True)
def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` with ``src`` written into ``input.select(dim, index)``."""
    return _scatter_into_view(input, src, lambda t: t.select(dim, index))


@defop("diagonal_scatter", method=True)
def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1):
    """A copy of ``input`` with ``src`` written into its diagonal."""
    return _scatter_into_view(input, src, lambda t: t.diagonal(offset, dim1, dim2))


@defop("as_strided_scatter", method=True)
def as_strided_scatter(input: Tensor, src: Tensor, size, stride, storage_offset=None):
    """A copy of ``input`` with ``src`` written into ``as_strided(size, stride)``."""
    return _scatter_into_view(input, src, lambda t: t.as_strided(size, stride, storage_offset))


@defop("fill_diagonal_", method=True, public=False)
def fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """Fill the main diagonal in place (all dims equal for 3 or more dims; a tall matrix
    restarts the diagonal every ``cols + 1`` rows when ``wrap``)."""
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    rows, cols = self.shape[0], self.shape[1]
    if self.dim() == 2:
        step = cols + 1
        end = rows * cols if wrap or rows <= cols else cols * cols
        positions = np.arange(0, end, step)
    else:
        n = self.shape[0]
        step = sum(n**i for i in range(self.dim()))
        positions = np.arange(0, n * step, step)[:n]
    flat = self.reshape(-1) if self.is_contiguous() else None
    if flat is None:
        raise RuntimeError("fill_diagonal_ needs a contiguous tensor here")
    index = Tensor._from_array(positions.astype(np.int64), _dtype.int64)
    flat[index] = fill_value
    return self


gcd_ = _inplace(gcd, "gcd_")
lcm_ = _inplace(lcm, "lcm_")
renorm_ = _inplace(renorm, "renorm_")
sinc_ = _inplace(sinc, "sinc_")
put_ = _inplace(put, "put_")
