"""Statistics of samples: ``cov``, ``corrcoef``, ``histogram``, ``nanmedian``, ``quantile``
and ``nanquantile``.

NOTE: composites of differentiable ops (their gradients follow); ``histogram`` is recorded
as PyTorch records it, with a backward that raises.
"""

from __future__ import annotations

import numpy as np

import torch

from .. import _dtype, _return_types
from .._interface import OpDef
from .._tensor import Tensor
from ._dispatch import contiguous, defop, record
from .pointwise import _legacy_name as _legacy
from .pointwise_composites import _as_float
from .reduction import _check_median_dtype

__all__ = [
    "cov",
    "corrcoef",
    "histogram",
    "nanmedian",
    "quantile",
    "nanquantile",
]


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
        Tensor._from_array(contiguous(counts, dtype.np_dtype), dtype),
        Tensor._from_array(contiguous(bin_edges, dtype.np_dtype), dtype),
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
    family="statistics",
)

# ------------------------------------------------------------------ medians and quantiles


@defop("nanmedian", method=True, out=True)
def nanmedian(input: Tensor, dim=None, keepdim: bool = False):
    """The median ignoring NaNs (the lower of the two middle values for an even count);
    with ``dim``, ``(values, indices)``. A slice of NaNs only gives NaN."""
    _check_median_dtype(input, dim)
    if dim is None:
        flat = input.reshape(-1)
        if flat._np.size == 0:
            return torch.tensor(float("nan"), dtype=input.dtype)
        return nanmedian(flat, 0).values.reshape(())
    d = input._wrap_dim(dim) if input._np.ndim else 0
    work = input if input._np.ndim else input.reshape(1)
    order = torch.sort(work, d)
    count = (~torch.isnan(work)).sum(d, keepdim=True) if work.is_floating_point() else None
    size = work.shape[d]
    middle = (count - 1).clamp(min=0) // 2 if count is not None else None
    if middle is None:
        shape = list(work.shape)
        shape[d] = 1
        middle = torch.full(shape, (size - 1) // 2, dtype=_dtype.int64)
    values = order.values.gather(d, middle)
    indices = order.indices.gather(d, middle)
    if not keepdim or not input._np.ndim:
        values, indices = values.squeeze(d), indices.squeeze(d)
    return _return_types.nanmedian(values, indices)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")
_NOT_FLOAT = "quantile() input tensor must be either float or double dtype"
_QUANTILE_REFUSES_COMPLEX = (RuntimeError, _NOT_FLOAT)


def _check_quantile(input: Tensor, q, interpolation: str):
    if input._dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError(_NOT_FLOAT)
    if input._np.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, Tensor):
        if q._np.ndim > 1:
            raise RuntimeError("quantile() q must be a scalar or 1D tensor")
        if q._dtype is not input._dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        values = q._np.astype(np.float64).reshape(-1)
    else:
        values = np.array([float(q)])
    if values.size and (values.min() < 0 or values.max() > 1):
        bad = values.min() if values.min() < 0 else values.max()
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {bad:g}")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or "
            f"nearest, but got {interpolation}"
        )
    return values


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan) -> Tensor:
    levels = _check_quantile(input, q, interpolation)
    work = input.reshape(-1) if dim is None else input
    d = work._wrap_dim(dim) if dim is not None and work._np.ndim else 0
    if not work._np.ndim:
        work = work.reshape(1)
    ordered = torch.sort(work.movedim(d, -1), -1).values  # NaN last
    nan = np.isnan(ordered._np)
    count = (ordered._np.shape[-1] - nan.sum(-1, keepdims=True)) if ignore_nan else None
    if count is None:
        count = np.full(ordered._np.shape[:-1] + (1,), ordered._np.shape[-1], like=ordered._np)
    results = []
    for level in levels:
        # in the input's precision, as PyTorch computes it ("nearest" rounds half to even)
        dtype = input._dtype.np_dtype
        rank = (dtype.type(level) * np.maximum(count - 1, 0).astype(dtype)).astype(np.float64)
        if interpolation == "nearest":
            rank = np.round(rank)
        low = np.floor(rank).astype(np.int64)
        high = np.ceil(rank).astype(np.int64)
        v_low = ordered.gather(-1, Tensor._from_array(low, _dtype.int64))
        v_high = ordered.gather(-1, Tensor._from_array(high, _dtype.int64))
        if interpolation in ("lower", "nearest"):
            value = v_low
        elif interpolation == "higher":
            value = v_high
        elif interpolation == "midpoint":
            value = (v_low + v_high) / 2
        else:
            weight = Tensor._from_array((rank - low).astype(input._dtype.np_dtype), input._dtype)
            value = torch.lerp(v_low, v_high, weight)
        undefined = (count == 0) if ignore_nan else nan.any(-1, keepdims=True)
        if undefined.any():
            mask = Tensor._from_array(undefined, _dtype.bool_)
            value = torch.where(mask, torch.full_like(value, float("nan")), value)
        results.append(value.squeeze(-1))
    # (levels, reduced dims...), the levels' dim innermost in memory as in PyTorch
    out = torch.stack(results, -1).movedim(-1, 0)
    if keepdim:
        if dim is None:
            out = out.reshape((len(levels),) + (1,) * input._np.ndim)
        elif input._np.ndim:
            out = out.unsqueeze(d + 1)
    if not isinstance(q, Tensor) or q._np.ndim == 0:
        out = out.squeeze(0)
    return out


@defop("quantile", method=True, out=True, refuses_complex=_QUANTILE_REFUSES_COMPLEX)
def quantile(input: Tensor, q, dim=None, keepdim: bool = False, *, interpolation="linear"):
    """The ``q``-th quantiles (a number or a 1-D tensor of levels in [0, 1]) over ``dim``
    (the flattened input by default); a slice containing NaN gives NaN. Several levels
    add a leading dim to the result."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=False)


@defop("nanquantile", method=True, out=True, refuses_complex=_QUANTILE_REFUSES_COMPLEX)
def nanquantile(input: Tensor, q, dim=None, keepdim: bool = False, *, interpolation="linear"):
    """:func:`quantile` ignoring NaNs (a slice of NaNs only gives NaN)."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)
