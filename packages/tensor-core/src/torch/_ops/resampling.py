"""Resampling: adaptive pooling (``torch.adaptive_avg_pool1d``/``adaptive_max_pool1d``,
N-d for ``nn.functional``), ``interpolate``, pixel shuffles, and sampling at grid
positions (``torch.grid_sampler``, ``torch.affine_grid_generator``, what
``nn.functional.grid_sample``/``affine_grid`` call). Written on top of core ops
(selections, views, reductions), so their gradients come from the parts; adaptive max
pooling reuses max pooling's index-based backward.

NOTE: ``interpolate`` and the N-d adaptive pools stay core composites (torch-nn reaches
them through the registry): they build their indices and weights with NumPy, which a
composition of public ops would do more slowly, and ``interpolate``'s "area" mode is
adaptive average pooling."""

from __future__ import annotations

import functools
import math

import numpy as np

from .. import _dtype
from .._interface import ops
from .._tensor import Tensor
from ._dispatch import contiguous, defop, kernel_refusal, record, refuse_complex
from .nn_functional import _composite
from .nn_kernels import MAX_POOL

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_max_pool1d",
    "pixel_shuffle",
    "pixel_unshuffle",
    "grid_sampler",
    "affine_grid_generator",
]


def _t():
    import torch

    return torch


def _nn_composite(function):
    """Register a composite that torch-nn's ``nn.functional`` reaches through the
    registry (PyTorch has no ``torch.<name>`` of it)."""
    function = _composite(function, public=False)
    ops.lookup(function.__name__).extra["binding"] = "torch.nn.functional (torch-nn)"
    return function


def _bounds(in_size: int, out_size: int):
    """The [start, end) windows adaptive pooling uses along one dim."""
    starts = [math.floor(i * in_size / out_size) for i in range(out_size)]
    ends = [math.ceil((i + 1) * in_size / out_size) for i in range(out_size)]
    return starts, ends


def _output_size(output_size, spatial, nd):
    sizes = (output_size,) * nd if isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != nd:
        raise RuntimeError(f"adaptive_avg_pool{nd}d: output_size must be {nd}, got {list(sizes)}")
    return tuple(s if s is not None else spatial[i] for i, s in enumerate(sizes))


@_nn_composite
def adaptive_avg_pool(input: Tensor, output_size, nd: int = 2) -> Tensor:
    """Average pooling to a fixed ``output_size``: output cell i averages input cells
    floor(i * I / O) to ceil((i + 1) * I / O)."""
    if input._dtype._category == 3:
        refuse_complex("adaptive_avg_pool1d", input._dtype)
    torch = _t()
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"adaptive_avg_pool{nd}d(): Expected {nd + 1}D or {nd + 2}D tensor, "
            f"but got {list(input.shape)}"
        )
    lead = input.dim() - nd
    out = _output_size(output_size, input.shape[lead:], nd)
    if 0 in out:  # no windows: an empty result (averaging nothing would divide by 0)
        return input.new_zeros(tuple(input.shape[:lead]) + tuple(out))
    result = input
    # separable: average along one spatial dim at a time
    for k in range(nd):
        dim = lead + k
        size = result.shape[dim]
        starts, ends = _bounds(size, out[k])
        if all(e - s == size // out[k] for s, e in zip(starts, ends)) and size % out[k] == 0:
            shape = (
                tuple(result.shape[:dim])
                + (out[k], size // out[k])
                + tuple(result.shape[dim + 1 :])
            )
            result = result.reshape(shape).mean(dim + 1)
            continue
        pieces = [
            result.narrow(dim, s, e - s).mean(dim, keepdim=True) for s, e in zip(starts, ends)
        ]
        result = torch.cat(pieces, dim)
    return result


@_nn_composite
def adaptive_max_pool(input: Tensor, output_size, return_indices: bool = False, nd: int = 2):
    """Max pooling to a fixed ``output_size`` (windows as in ``adaptive_avg_pool``);
    with ``return_indices``, also each maximum's flat position in its input plane."""
    if input._dtype._category == 3:
        refuse_complex("adaptive_max_pool1d", input._dtype)
    unbatched = input.dim() == nd + 1
    x = input._np[None] if unbatched else input._np
    out = _output_size(output_size, x.shape[2:], nd)
    bounds = [_bounds(x.shape[2 + k], out[k]) for k in range(nd)]
    values = np.empty(x.shape[:2] + out, dtype=x.dtype, like=x)  # on the input's device
    indices = np.empty(x.shape[:2] + out, dtype=np.int64, like=x)
    plane = x.reshape(x.shape[:2] + (-1,))
    for position in np.ndindex(*out):  # a loop over output cells, each a vectorised max
        window = tuple(slice(bounds[k][0][p], bounds[k][1][p]) for k, p in enumerate(position))
        region = x[(slice(None), slice(None)) + window]
        flat = region.reshape(region.shape[:2] + (-1,))
        best = np.argmax(flat, axis=-1)
        local = np.unravel_index(best, region.shape[2:])
        coords = tuple(local[k] + bounds[k][0][position[k]] for k in range(nd))
        flat_index = np.ravel_multi_index(coords, x.shape[2:])
        indices[(slice(None), slice(None)) + position] = flat_index
        values[(slice(None), slice(None)) + position] = np.take_along_axis(
            plane, flat_index[..., None], -1
        )[..., 0]
    index_tensor = Tensor._from_array(indices, _dtype.int64)
    source = input.unsqueeze(0) if unbatched else input
    result = record(MAX_POOL, (source,), Tensor._from_array(values, input._dtype), (index_tensor,))
    if unbatched:
        result, index_tensor = result.squeeze(0), index_tensor.squeeze(0)
    return (result, index_tensor) if return_indices else result


# PyTorch's complex refusals name the 2-d kernels whatever the dims
@defop("adaptive_avg_pool1d", refuses_complex={"": kernel_refusal("adaptive_avg_pool2d")})
def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """1-d adaptive average pooling."""
    return adaptive_avg_pool(input, output_size, 1)


@defop("adaptive_max_pool1d", refuses_complex={"": kernel_refusal("adaptive_max_pool2d")})
def adaptive_max_pool1d(input: Tensor, output_size):
    """1-d adaptive max pooling: ``(values, indices)``, as ``torch.adaptive_max_pool1d``."""
    return adaptive_max_pool(input, output_size, True, 1)


# ------------------------------------------------------------------ interpolate


def _source_coordinates(out_size, in_size, scale, align_corners, mode, like):
    """Where each output cell samples the input along one dim (an array made by the array
    module of ``like``, the input's: on its device)."""
    dst = np.arange(out_size, dtype=np.float64, like=like)
    if mode == "nearest":
        factor = 1.0 / scale if scale else in_size / out_size
        return np.minimum(np.floor(dst * factor), in_size - 1)
    if mode == "nearest-exact":
        factor = 1.0 / scale if scale else in_size / out_size
        return np.minimum(np.floor((dst + 0.5) * factor), in_size - 1)
    if align_corners:
        return dst * ((in_size - 1) / (out_size - 1)) if out_size > 1 else dst * 0
    factor = 1.0 / scale if scale else in_size / out_size
    source = (dst + 0.5) * factor - 0.5
    return source if mode == "bicubic" else np.maximum(source, 0)


def _take(x: Tensor, dim: int, positions: np.ndarray) -> Tensor:
    index = Tensor._from_array(positions.astype(np.int64), _dtype.int64)
    return x.index_select(dim, index)


def _weights(values: np.ndarray, dim: int, ndim: int, dtype) -> Tensor:
    shape = [1] * ndim
    shape[dim] = -1
    return Tensor._from_array(values.astype(dtype.np_dtype).reshape(shape), dtype)


def _cubic(t: np.ndarray):
    a = -0.75  # PyTorch's (and OpenCV's) bicubic constant

    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return far(t + 1), near(t), near(1 - t), far(2 - t)


@_nn_composite
def interpolate(
    input: Tensor,
    size=None,
    scale_factor=None,
    mode: str = "nearest",
    align_corners=None,
    recompute_scale_factor=None,
    antialias: bool = False,
):
    """Resample the spatial dims (all dims after the first two) to ``size`` or by
    ``scale_factor``: "nearest", "nearest-exact", "linear", "bilinear", "bicubic",
    "trilinear" (separably, one dim at a time)."""
    nd = input.dim() - 2
    if nd < 1:
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got "
            f"{input.dim()}D) for the modes: nearest | linear | bilinear | bicubic "
            f"| trilinear | area | nearest-exact (got {mode})"
        )
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if mode in ("nearest", "nearest-exact", "area") and align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear"
        )
    if antialias and (mode not in ("bilinear", "bicubic", "lanczos") or input.dim() != 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
            "requires a 4-D tensor as input"
        )
    needs = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
    if mode in needs and input.dim() != needs[mode]:
        if mode == "bicubic" or input.dim() not in (3, 4, 5):
            raise NotImplementedError(
                f"Input Error: Only 3D, 4D and 5D input Tensors supported (got "
                f"{input.dim()}D) for the modes: nearest | linear | bilinear | bicubic "
                f"| trilinear | lanczos | area | nearest-exact (got {mode})"
            )
        raise NotImplementedError(
            f"Got {input.dim()}D input, but {mode} mode needs {needs[mode]}D input"
        )
    spatial = tuple(input.shape[2:])
    if size is not None:
        out = (size,) * nd if isinstance(size, int) else tuple(size)
        scales = (None,) * nd
        _check_spatial_count(spatial, out, "output size", "output size of")
    else:
        scales = (
            (scale_factor,) * nd if isinstance(scale_factor, (int, float)) else tuple(scale_factor)
        )
        _check_spatial_count(spatial, scales, "scale_factor", "scale_factor of shape")
        if not all(math.isfinite(f) for f in scales):
            raise RuntimeError(
                f"value cannot be converted to type int64_t without overflow: scale_factor="
                f"{list(scales)}"
            )
        out = tuple(int(math.floor(s * f)) for s, f in zip(spatial, scales))
        if recompute_scale_factor:
            scales = (None,) * nd
    if mode != "area" and any(s <= 0 for s in out):
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input {spatial} output {out}"
        )
    if mode not in ("nearest", "nearest-exact", "area") and not (
        input.dtype.is_floating_point or input.dtype.is_complex
    ):
        raise NotImplementedError(
            f"\"upsample_{mode}{nd}d\" not implemented for '{input._dtype._legacy[:-6]}'"
        )
    if antialias:
        return _interpolate_antialiased(input, out, scales, bool(align_corners), mode)
    if mode == "area":  # the average of each output cell's window
        return adaptive_avg_pool(input, out, nd)
    result = input
    for k in range(nd):
        dim = 2 + k
        coords = _source_coordinates(
            out[k], spatial[k], scales[k], bool(align_corners), mode, input._np
        )
        if mode in ("nearest", "nearest-exact"):
            result = _take(result, dim, coords)
            continue
        if mode == "bicubic":
            base = np.floor(coords)
            frac = coords - base
            taps = _cubic(frac)
            pieces = [
                _take(result, dim, np.clip(base + offset, 0, spatial[k] - 1))
                * _weights(w, dim, result.dim(), input.dtype)
                for offset, w in zip((-1, 0, 1, 2), taps)
            ]
            result = pieces[0] + pieces[1] + pieces[2] + pieces[3]
            continue
        if mode not in ("linear", "bilinear", "trilinear"):
            raise NotImplementedError(f"interpolate: mode {mode!r} is not built yet")
        low = np.floor(coords)
        high = np.minimum(low + 1, spatial[k] - 1)
        frac = coords - low
        result = _take(result, dim, low) * _weights(
            1 - frac, dim, result.dim(), input.dtype
        ) + _take(result, dim, high) * _weights(frac, dim, result.dim(), input.dtype)
    return result


def _check_spatial_count(spatial, given, what: str, phrase: str) -> None:
    """``size`` or ``scale_factor``: one entry per spatial dim of the input."""
    if len(given) != len(spatial):
        raise ValueError(
            f"Input and {what} must have the same number of spatial dimensions, but got "
            f"input with spatial dimensions of {list(spatial)} and {phrase} {list(given)}."
        )


def _aa_filter(x: np.ndarray, mode: str) -> np.ndarray:
    x = np.abs(x)
    if mode == "bilinear":
        return np.maximum(1.0 - x, 0.0)
    a = -0.5  # Keys' cubic with a = -0.5, the kernel PyTorch's antialiased bicubic uses
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


def _aa_matrix(in_size: int, out_size: int, scale, align: bool, mode: str, like) -> np.ndarray:
    """The (out_size, in_size) resampling matrix of one antialiased axis: each output pixel
    averages the input pixels under a filter stretched by the downscaling factor (unstretched
    when upscaling), the taps normalised to sum to one."""
    if align:
        ratio = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    elif scale is not None and scale > 0:
        ratio = 1.0 / scale
    else:
        ratio = in_size / out_size
    half_width = 1.0 if mode == "bilinear" else 2.0
    support = half_width * ratio if ratio >= 1.0 else half_width
    inv = 1.0 / ratio if ratio >= 1.0 else 1.0
    center = ratio * (np.arange(out_size, like=like) + 0.5)  # on the input's device
    low = np.maximum(np.trunc(center - support + 0.5), 0).astype(np.int64)
    high = np.minimum(np.trunc(center + support + 0.5).astype(np.int64), in_size)
    taps = np.arange(in_size, like=like)[None, :]
    inside = (taps >= low[:, None]) & (taps < high[:, None])
    weights = np.where(inside, _aa_filter((taps - center[:, None] + 0.5) * inv, mode), 0.0)
    total = weights.sum(1, keepdims=True)
    return np.where(total != 0, weights / np.where(total != 0, total, 1.0), weights)


def _interpolate_antialiased(input, out, scales, align: bool, mode: str):
    """Separable antialiased resampling of a 4-D input: one matrix product per spatial axis
    (width first, as PyTorch), so the gradient is that of the products."""
    torch = _t()
    np_dtype = np.float32 if input.dtype.itemsize <= 4 else np.float64
    work = input if input.dtype in (_dtype.float32, _dtype.float64) else input.float()
    h, w = input.shape[2], input.shape[3]
    mw = _aa_matrix(w, out[1], scales[1], align, mode, input._np).astype(np_dtype)
    mh = _aa_matrix(h, out[0], scales[0], align, mode, input._np).astype(np_dtype)
    result = torch.matmul(work, Tensor._from_array(contiguous(mw.T), work.dtype))
    result = torch.matmul(Tensor._from_array(mh, work.dtype), result)
    return result.to(input.dtype) if result.dtype != input.dtype else result


# ------------------------------------------------------------ shuffles, unfold


@defop("pixel_shuffle")
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    r = upscale_factor
    _check_shuffle(input, r, "pixel_shuffle", "upscale_factor")
    *batch, c, h, w = input.shape
    if c % (r * r):
        raise RuntimeError(
            f"pixel_shuffle expects its input's 'channel' dimension to be "
            f"divisible by the square of upscale_factor, but input.size(-3)={c} "
            f"is not divisible by {r * r}"
        )
    x = input.reshape(*batch, c // (r * r), r, r, h, w)
    n = len(batch)
    x = x.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return x.reshape(*batch, c // (r * r), h * r, w * r)


def _check_shuffle(input: Tensor, factor: int, name: str, what: str) -> None:
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")
    if input.dim() < 3:
        raise RuntimeError(
            f"{name} expects input to have at least 3 dimensions, but got input with "
            f"{input.dim()} dimension(s)"
        )


@defop("pixel_unshuffle")
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    r = downscale_factor
    _check_shuffle(input, r, "pixel_unshuffle", "downscale_factor")
    *batch, c, h, w = input.shape
    if h % r or w % r:
        raise RuntimeError(
            f"pixel_unshuffle expects height and width to be divisible by downscale_factor, "
            f"but input.size(-2)={h} and input.size(-1)={w} are not divisible by {r}"
        )
    x = input.reshape(*batch, c, h // r, r, w // r, r)
    n = len(batch)
    x = x.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return x.reshape(*batch, c * r * r, h // r, w // r)


def _check_affine_grid(theta: Tensor, size) -> None:
    """PyTorch's checks (its Python layer's, hence ValueError) of ``affine_grid``."""
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 5:
        raise NotImplementedError("affine_grid: 3-D (5-D size) affine grids are not built yet")
    if len(size) != 4:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {tuple(size)}."
        )
    if theta.dim() != 3 or tuple(theta.shape[1:]) != (2, 3):
        raise ValueError(
            f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {tuple(size)}. "
            f"Got {theta.shape}."
        )
    if min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {tuple(size)}")


@defop("affine_grid_generator")
def affine_grid_generator(theta, size, align_corners: bool):
    """``affine_grid`` under ATen's name."""
    # the sampling grid (N, H, W, 2) of 2-D affine transforms theta (N, 2, 3) for an
    # output of size (N, C, H, W), in [-1, 1] coordinates
    torch = _t()
    size = list(size)
    _check_affine_grid(theta, size)
    n, _, h, w = size

    def axis(count):
        if align_corners:
            return torch.linspace(-1, 1, count, dtype=theta.dtype)
        return (torch.arange(count, dtype=theta.dtype) * 2 + 1) / count - 1

    ys, xs = torch.meshgrid(axis(h), axis(w), indexing="ij")
    base = torch.stack([xs, ys, torch.ones(h, w, dtype=theta.dtype)], -1)  # (H, W, 3)
    return (base.reshape(1, h * w, 3) @ theta.mT).reshape(n, h, w, 2)


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord, low, high):
    """Reflect coordinates into [low, high] (as many times as needed)."""
    torch = _t()
    span = high - low
    if span <= 0:
        return torch.zeros_like(coord)
    shifted = torch.abs(coord - low)
    flips = torch.floor(shifted / span)
    extra = shifted - flips * span
    return torch.where(torch.remainder(flips, 2) == 0, extra + low, span - extra + low)


def _pad_coordinate(coord, size: int, padding_mode: str, align: bool):
    """A source coordinate (a tensor) moved into the input by the padding mode ("zeros"
    leaves it: its out-of-range taps read zero)."""
    torch = _t()
    if padding_mode == "border":
        moved = torch.clamp(coord, 0, size - 1)
    elif padding_mode == "reflection":
        if align:
            moved = _reflect(coord, 0, size - 1)
        else:
            moved = torch.clamp(_reflect(coord, -0.5, size - 0.5), 0, size - 1)
    else:
        return coord
    # PyTorch's clipping sends a NaN coordinate to 0
    return torch.where(torch.isnan(coord), 0.0, moved)


def _pad_taps(taps: np.ndarray, size: int, padding_mode: str, align: bool):
    """Integer tap positions (an array) moved into the input by the padding mode, and
    where they read the input (outside it, "zeros" padding reads zero)."""
    if padding_mode == "border":
        taps = np.clip(taps, 0, size - 1)
    elif padding_mode == "reflection":
        low = 0.0 if align else -0.5
        span = float(size - 1) if align else float(size)
        if span <= 0:
            taps = np.zeros_like(taps)
        else:
            taps = np.where(np.isfinite(taps), taps, np.nan)
            shifted = np.abs(taps - low)
            flips = np.floor(shifted / span)
            extra = shifted - flips * span
            taps = np.where(flips % 2 == 0, extra + low, span - extra + low)
            taps = np.clip(np.trunc(taps), 0, size - 1)
    with np.errstate(invalid="ignore"):
        inside = (taps >= 0) & (taps <= size - 1)
    return np.where(inside, taps, 0).astype(np.int64), inside


_GRID_DTYPES = ("float16", "bfloat16", "float32", "float64")


def _check_grid_sample(input: Tensor, grid: Tensor, mode: str) -> None:
    """PyTorch's argument checks of ``grid_sampler``, in its order."""
    sizes = f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
    if input.dim() < 1 or grid.dim() < 1 or input.shape[0] != grid.shape[0]:
        raise RuntimeError(
            f"grid_sampler(): expected grid and input to have same batch size, but got {sizes}"
        )
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {input.dim() - 2} in last "
            f"dimension, but got grid with sizes {list(grid.shape)}"
        )
    for i in range(2, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(
                "grid_sampler(): expected input to have non-empty spatial dimensions, but "
                f"input has sizes {list(input.shape)} with dimension {i} being empty"
            )
    nd = 2 if input.dim() == 4 else 3
    if input.dim() != nd + 2 or grid.dim() != nd + 2:
        raise RuntimeError(
            f"grid_sampler(): expected {nd + 2}D input and grid with same number of "
            f"dimensions, but got {sizes}"
        )
    if mode == "bicubic" and nd == 3:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dtype.is_floating_point and input.dtype != grid.dtype:
        raise RuntimeError(
            f"expected scalar type {input._dtype._legacy[:-6]} but found {grid._dtype._legacy[:-6]}"
        )
    if str(input.dtype).replace("torch.", "") not in _GRID_DTYPES:
        kernel = "grid_sampler_2d_cpu_kernel_impl" if nd == 2 else "grid_sampler3d_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input._dtype._legacy[:-6]}'")


_INTERPOLATION = {0: "bilinear", 1: "nearest", 2: "bicubic"}
_PADDING = {0: "zeros", 1: "border", 2: "reflection"}


@defop("grid_sampler")
def grid_sampler(input, grid, interpolation_mode: int, padding_mode: int, align_corners: bool):
    """``grid_sample`` with ATen's integer modes (interpolation 0 bilinear, 1 nearest,
    2 bicubic; padding 0 zeros, 1 border, 2 reflection)."""
    return _grid_sample(
        input, grid, _INTERPOLATION[interpolation_mode], _PADDING[padding_mode], align_corners
    )


def _grid_sample(input: Tensor, grid: Tensor, mode: str, padding_mode: str, align_corners):
    """Sample ``input`` (N, C, H, W) or (N, C, D, H, W) at the ``grid`` positions
    (N, Ho, Wo, 2) or (N, Do, Ho, Wo, 3), given as (x, y[, z]) in [-1, 1]: "bilinear"
    (trilinear for 5-D input), "nearest" or "bicubic" (4-D input only); padding
    "zeros", "border" or "reflection"."""
    torch = _t()
    _check_grid_sample(input, grid, mode)
    if input.dtype in (torch.float16, torch.bfloat16):  # computed in float32, as PyTorch
        wide = _grid_sample(input.float(), grid.float(), mode, padding_mode, align_corners)
        return wide.to(input.dtype)
    align = bool(align_corners)
    nd = input.dim() - 2
    n, c = input.shape[:2]
    spatial = tuple(input.shape[2:])
    out = tuple(grid.shape[1:-1])
    # grid's last dim lists x (the last spatial dim) first
    coords = [_unnormalize(grid[..., nd - 1 - k], spatial[k], align) for k in range(nd)]
    points = math.prod(out)
    flat = input.reshape(n, c, math.prod(spatial))
    strides = [math.prod(spatial[k + 1 :]) for k in range(nd)]

    def combine(taps, weights):
        """Sum over the taps (leading axis of each array in ``taps``, one per spatial
        dim: integer positions and where they read the input) of the input there times
        ``weights`` (a tensor (N, taps, *out))."""
        count = taps[0][0].shape[1]
        index = sum(t * s for (t, _), s in zip(taps, strides))
        inside = functools.reduce(np.logical_and, [m for _, m in taps])  # on the device
        picked = flat.gather(
            2,
            Tensor._from_array(
                contiguous(index.reshape(n, 1, count * points)), _dtype.int64
            ).expand(n, c, count * points),
        )
        picked = picked.reshape(n, c, count, points)
        mask = Tensor._from_array(inside.reshape(n, 1, count, points), _dtype.bool_)
        weights = weights.reshape(n, 1, count, points)
        return torch.where(mask, picked * weights, 0.0).sum(2).reshape(n, c, *out)

    if mode == "bicubic" or (mode == "bilinear" and nd == 2 and padding_mode == "zeros"):
        # as PyTorch: NaN weights make NaN samples where the grid holds a NaN
        # (trilinear and nearest sampling read zeros there instead)
        undefined = torch.isnan(grid.detach()).any(-1).unsqueeze(1)
        if undefined.any():
            defined = torch.where(torch.isnan(grid), 0.0, grid)
            sampled = _grid_sample(input, defined, mode, padding_mode, align_corners)
            return torch.where(undefined, float("nan"), sampled)
    if mode == "bicubic":
        # each of the 4 x 4 taps is padded on its own (the source position is not)
        axes = []
        for k in range(nd):
            base = torch.floor(coords[k].detach())
            frac = coords[k] - base
            steps = np.arange(-1, 3, like=base._np)  # on the grid's device
            tap = base._np[:, None] + steps.reshape((1, 4) + (1,) * len(out))
            axes.append((_pad_taps(tap, spatial[k], padding_mode, align), _cubic_t(frac)))
        (ty, my), wy = axes[0]
        (tx, mx), wx = axes[1]
        taps = [
            (np.repeat(ty, 4, axis=1), np.repeat(my, 4, axis=1)),
            (np.tile(tx, (1, 4) + (1,) * len(out)), np.tile(mx, (1, 4) + (1,) * len(out))),
        ]
        weights = (wy.unsqueeze(2) * wx.unsqueeze(1)).reshape(n, 16, *out)
        return combine(taps, weights)

    coords = [_pad_coordinate(x, spatial[k], padding_mode, align) for k, x in enumerate(coords)]
    if mode == "nearest":
        taps = []
        for k in range(nd):
            rounded = np.round(coords[k].detach()._np)[:, None]
            inside = (rounded >= 0) & (rounded <= spatial[k] - 1)
            taps.append((np.where(inside, rounded, 0).astype(np.int64), inside))
        # weights of exactly 1 that keep the grid in the graph (its gradient is zero)
        level = torch.floor(coords[0])
        ones = (level - level.detach() + 1).unsqueeze(1)
        return combine(taps, ones)
    # (tri)linear: the 2 ** nd corners around each position
    corners = list(np.ndindex(*(2,) * nd))
    taps, weights = [], None
    for k in range(nd):
        base = torch.floor(coords[k].detach())
        frac = coords[k] - base
        # corner i's offset along dim k is bit nd - 1 - k of i (np.ndindex's order), made
        # on the grid's device
        bits = (np.arange(len(corners), like=base._np) >> (nd - 1 - k)) & 1
        offsets = bits.reshape((1, len(corners)) + (1,) * len(out))
        tap = base._np[:, None] + offsets
        inside = (tap >= 0) & (tap <= spatial[k] - 1)
        taps.append((np.where(inside, tap, 0).astype(np.int64), inside))
        factor = torch.stack([frac if corner[k] else 1 - frac for corner in corners], 1)
        weights = factor if weights is None else weights * factor
    return combine(taps, weights)


def _cubic_t(t: Tensor) -> Tensor:
    """The four cubic-convolution weights (A = -0.75) of the taps at -1, 0, 1, 2 from a
    position ``t`` in [0, 1), stacked on a new dim 1 (tensor ops, so the grid gets their
    gradient)."""
    torch = _t()
    a = -0.75

    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return torch.stack([far(t + 1), near(t), near(1 - t), far(2 - t)], 1)
