"""Convolution, pooling, folding and resampling with PyTorch's signatures; the
kernels are core's."""

from __future__ import annotations

import math

import torch

from . import _checks, _padding
from ._common import core, refuse_complex

__all__ = [
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "unfold", "fold", "avg_pool1d", "avg_pool2d", "avg_pool3d",
    "max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
    "max_pool2d_with_indices", "max_pool3d_with_indices", "max_unpool1d",
    "max_unpool2d", "max_unpool3d", "lp_pool1d", "lp_pool2d", "lp_pool3d",
    "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d_with_indices", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
    "adaptive_avg_pool3d", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle",
    "native_channel_shuffle", "pad", "interpolate", "upsample", "upsample_nearest",
    "upsample_bilinear", "grid_sample", "affine_grid", "conv_tbc",
    "GRID_SAMPLE_INTERPOLATION_MODES", "GRID_SAMPLE_PADDING_MODES",
]  # fmt: skip

GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def _check_dims(input, nd: int, name: str) -> None:
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but "
            f"got input of size: {list(input.shape)}"
        )


def _conv(nd):
    def conv(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        _check_dims(input, nd, f"conv{nd}d")
        _checks.check_conv_args(
            input, weight, bias, stride, padding, dilation, groups, nd, f"conv{nd}d"
        )
        return core("convolution")(input, weight, bias, stride, padding, dilation, groups)

    conv.__name__ = conv.__qualname__ = f"conv{nd}d"
    conv.__doc__ = f"""{nd}-d convolution (cross-correlation) of ``input`` with ``weight``.

    Args:
        input: (N, C_in, *spatial) or unbatched (C_in, *spatial), {nd} spatial dims.
        weight: (C_out, C_in / groups, *kernel).
        bias: (C_out,) or None. Default: None.
        stride, padding, dilation: an int or a tuple of {nd}; ``padding`` may also be
            ``"valid"`` or ``"same"``. Defaults: 1, 0, 1.
        groups (int): split the channels into this many groups. Default: 1.
    """
    return conv


conv1d, conv2d, conv3d = _conv(1), _conv(2), _conv(3)


def _conv_transpose(nd):
    def conv_transpose(
        input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
    ):
        _check_dims(input, nd, f"conv_transpose{nd}d")
        _checks.check_conv_args(
            input, weight, bias, stride, padding, dilation, groups, nd,
            f"conv_transpose{nd}d", output_padding,
        )  # fmt: skip
        return core("convolution_transpose")(
            input, weight, bias, stride, padding, output_padding, groups, dilation
        )

    conv_transpose.__name__ = conv_transpose.__qualname__ = f"conv_transpose{nd}d"
    conv_transpose.__doc__ = f"""{nd}-d transposed convolution ("deconvolution"): the
    adjoint of :func:`conv{nd}d`; ``weight`` is (C_in, C_out / groups, *kernel)."""
    return conv_transpose


conv_transpose1d, conv_transpose2d, conv_transpose3d = (
    _conv_transpose(1),
    _conv_transpose(2),
    _conv_transpose(3),
)


def conv_tbc(input, weight, bias, pad: int = 0):
    """1-d convolution of a time-batch-channel input (T, B, C_in) with a weight
    (K, C_in, C_out); returns (T', B, C_out)."""
    out = core("convolution")(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, 1, pad, 1, 1)
    return out.permute(2, 0, 1)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of a 4-D input as columns: (N, C * prod(kernel), L)."""
    if input.dim() not in (3, 4):
        raise NotImplementedError(
            f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)"
        )
    _checks.check_fold_args(kernel_size, dilation, padding, stride)
    return _im2col(input, kernel_size, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum columns of local blocks back into an image: the adjoint of :func:`unfold`."""
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
            f"non-zero dimensions, but got input of size: {list(input.shape)}"
        )
    _checks.check_fold_args(kernel_size, dilation, padding, stride)
    return _col2im(input, output_size, kernel_size, dilation, padding, stride)


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def _im2col(input, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding blocks of a (N, C, H, W) input as columns (N, C * kh * kw, L), through
    a strided view (so its gradient is the view's)."""
    kernel, dilation, padding, stride = map(_pair, (kernel_size, dilation, padding, stride))
    if input.dim() == 3:  # one unbatched (C, H, W) image
        return _im2col(input.unsqueeze(0), kernel, dilation, padding, stride).squeeze(0)
    x = (
        torch.constant_pad_nd(input, (padding[1], padding[1], padding[0], padding[0]))
        if any(padding)
        else input
    )
    x = x.contiguous()
    n, c, h, w = x.shape
    out = [
        (size - d * (k - 1) - 1) // s + 1 for size, k, d, s in zip((h, w), kernel, dilation, stride)
    ]
    if any(o <= 0 for o in out):
        raise RuntimeError(
            f"Given input with spatial size ({input.shape[2]}, {input.shape[3]}), "
            f"kernel_size=({kernel[0]}, {kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), "
            f"padding=({padding[0]}, {padding[1]}), calculated shape of the array of sliding "
            f"blocks as ({out[0]}, {out[1]}), but its components must be at least one."
        )
    sn, sc, sh, sw = x.stride()
    windows = torch.as_strided(
        x,
        (n, c, kernel[0], kernel[1], out[0], out[1]),
        (sn, sc, sh * dilation[0], sw * dilation[1], sh * stride[0], sw * stride[1]),
        x.storage_offset(),
    )
    return windows.reshape(n, c * kernel[0] * kernel[1], out[0] * out[1])


def _col2im(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The adjoint of :func:`_im2col`: the columns (N, C * kh * kw, L) summed back into
    overlapping blocks of an (N, C, H, W) output."""
    h, w = _pair(output_size)
    kh, kw = _pair(kernel_size)
    ph, pw = _pair(padding)
    if input.dim() == 2:  # one unbatched (C * kh * kw, L) column matrix
        return _col2im(input.unsqueeze(0), output_size, kernel_size, dilation, padding, stride)[0]
    if input.shape[1] % (kh * kw):
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={input.shape[1]} and "
            f"kernel_size=({kh}, {kw})."
        )
    n = input.shape[0]
    channels = input.shape[1] // (kh * kw)
    # where each column entry lands: unfold an index map of the padded output
    positions = torch.arange((h + 2 * ph) * (w + 2 * pw), dtype=torch.float64).reshape(
        1, 1, h + 2 * ph, w + 2 * pw
    )
    index = _im2col(positions, (kh, kw), dilation, 0, stride).to(torch.int64)
    if index.shape[-1] != input.shape[-1]:
        dh, dw = _pair(dilation)
        sh, sw = _pair(stride)
        bh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
        bw = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
        raise RuntimeError(
            f"Given output_size=({h}, {w}), kernel_size=({kh}, {kw}), dilation=({dh}, {dw}), "
            f"padding=({ph}, {pw}), stride=({sh}, {sw}), expected size of input's dimension 2 "
            f"to match the calculated number of sliding blocks {bh} * {bw} = {bh * bw}, but "
            f"got input.size(2)={input.shape[-1]}."
        )
    values = input.reshape(n, channels, kh * kw * input.shape[-1])
    flat_index = index.reshape(1, 1, -1).expand(n, channels, -1)
    padded = torch.zeros(n, channels, (h + 2 * ph) * (w + 2 * pw), dtype=input.dtype)
    padded = padded.scatter_add(2, flat_index, values)
    full = padded.reshape(n, channels, h + 2 * ph, w + 2 * pw)
    return full[:, :, ph : ph + h, pw : pw + w].contiguous()


# ------------------------------------------------------------------------- pooling


def _avg_pool(nd):
    def avg_pool(
        input,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode=False,
        count_include_pad=True,
        divisor_override=None,
    ):
        _checks.check_input_dims(input, nd, f"avg_pool{nd}d")
        _checks.check_pool_args(f"avg_pool{nd}d", nd, kernel_size, stride, padding)
        _checks.check_divisor(divisor_override)
        return core("avg_pool")(
            input, kernel_size, stride, padding, ceil_mode, count_include_pad,
            divisor_override, nd=nd,
        )  # fmt: skip

    avg_pool.__name__ = avg_pool.__qualname__ = f"avg_pool{nd}d"
    avg_pool.__doc__ = f"""{nd}-d average pooling over windows of ``kernel_size``.

    Args:
        kernel_size, stride (default: kernel_size), padding (default 0): ints or tuples.
        ceil_mode (bool): round the output size up. Default: False.
        count_include_pad (bool): count the zero padding in the average. Default: True.
        divisor_override (int, optional): divide by this instead.
    """
    return avg_pool


avg_pool2d, avg_pool3d = _avg_pool(2), _avg_pool(3)
_avg_pool1d = _avg_pool(1)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """1-d average pooling; arguments as :func:`avg_pool2d` (no divisor_override)."""
    return _avg_pool1d(input, kernel_size, stride, padding, ceil_mode, count_include_pad)


def _max_pool(nd, with_indices: bool):
    def max_pool(
        input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
        return_indices=False,
    ):  # fmt: skip
        _checks.check_pool_args(f"max_pool{nd}d", nd, kernel_size, stride, padding, dilation)
        return core("max_pool")(
            input, kernel_size, stride, padding, dilation, ceil_mode,
            return_indices or with_indices, nd=nd,
        )  # fmt: skip

    name = f"max_pool{nd}d" + ("_with_indices" if with_indices else "")
    max_pool.__name__ = max_pool.__qualname__ = name
    max_pool.__doc__ = f"""{nd}-d max pooling over windows of ``kernel_size``.

    Args:
        kernel_size, stride (default: kernel_size), padding (default 0), dilation
            (default 1): ints or tuples.
        ceil_mode (bool): round the output size up. Default: False.
        return_indices (bool): also return the flat positions of the maxima.
    """
    return max_pool


max_pool1d, max_pool2d, max_pool3d = (_max_pool(n, False) for n in (1, 2, 3))
max_pool1d_with_indices, max_pool2d_with_indices, max_pool3d_with_indices = (
    _max_pool(n, True) for n in (1, 2, 3)
)


def _tuple(value, nd):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * nd


def _unpool_size(input, kernel_size, stride, padding, output_size, nd):
    kernel = _tuple(kernel_size, nd)
    stride = kernel if stride is None else _tuple(stride, nd)
    padding = _tuple(padding, nd)
    spatial = input.shape[-nd:]
    default = [(spatial[i] - 1) * stride[i] - 2 * padding[i] + kernel[i] for i in range(nd)]
    if output_size is None:
        return default
    output_size = list(output_size)[-nd:]
    for i in range(nd):
        low, high = default[i] - stride[i], default[i] + stride[i]
        if not low < output_size[i] < high:
            raise ValueError(
                f'invalid output_size "{output_size}" (dim {i} must be between {low} and {high})'
            )
    return output_size


def _max_unpool(nd):
    def max_unpool(input, indices, kernel_size, stride=None, padding=0, output_size=None):
        size = _unpool_size(input, kernel_size, stride, padding, output_size, nd)
        if nd == 3 and any(s <= 0 for s in _tuple(kernel_size if stride is None else stride, 3)):
            raise RuntimeError(
                f"max_unpool3d: strides should be greater than zero, but got stride: "
                f"{list(_tuple(kernel_size if stride is None else stride, 3))}"
            )
        if 0 in size:  # nothing to place (PyTorch returns the empty result)
            return input.new_zeros(tuple(input.shape[:-nd]) + tuple(size))
        return _place(input, indices, size)

    max_unpool.__name__ = max_unpool.__qualname__ = f"max_unpool{nd}d"
    max_unpool.__doc__ = f"""Partial inverse of :func:`max_pool{nd}d`: put each value at
    its recorded index, zeros elsewhere."""
    return max_unpool


max_unpool1d, max_unpool2d, max_unpool3d = (_max_unpool(n) for n in (1, 2, 3))


def _place(input, indices, output_size):
    """Each value at its flat ``indices`` position in zero planes of ``output_size``."""
    lead = tuple(input.shape[:2]) if input.dim() > len(output_size) + 1 else tuple(input.shape[:1])
    flat = torch.zeros(*lead, math.prod(output_size), dtype=input.dtype)
    values = input.reshape(*lead, -1)
    flat = flat.scatter(len(lead), indices.reshape(*lead, -1), values)
    return flat.reshape(*lead, *output_size)


def _lp_pool(nd):
    def lp_pool(input, norm_type, kernel_size, stride=None, ceil_mode=False):
        if nd > 1 and isinstance(kernel_size, (tuple, list)) and len(kernel_size) != nd:
            # PyTorch unpacks the tuple in Python
            raise ValueError(f"too many values to unpack (expected {nd})")
        _checks.check_input_dims(input, nd, f"lp_pool{nd}d")
        _checks.check_pool_args(f"lp_pool{nd}d", nd, kernel_size, stride, 0)
        refuse_complex(input, "avg_pool2d")  # the kernel it runs, as PyTorch
        kernel = (kernel_size,) * nd if isinstance(kernel_size, int) else tuple(kernel_size)
        pooled = core("avg_pool")(input**norm_type, kernel, stride, 0, ceil_mode, nd=nd)
        # PyTorch's sign(x) * relu(|x|) (the same value; no gradient through 0)
        magnitude = torch.sign(pooled) * torch.relu(torch.abs(pooled))
        return magnitude.mul(math.prod(kernel)).pow(1.0 / norm_type)

    lp_pool.__name__ = lp_pool.__qualname__ = f"lp_pool{nd}d"
    lp_pool.__doc__ = f"""{nd}-d power-average pooling: ``(sum x^p)^(1/p)`` per window."""
    return lp_pool


lp_pool1d, lp_pool2d, lp_pool3d = (_lp_pool(n) for n in (1, 2, 3))


def _adaptive_max(nd, with_indices: bool):
    def adaptive_max_pool(input, output_size, return_indices=False):
        _checks.check_adaptive(input, output_size, nd, f"adaptive_max_pool{nd}d")
        return core("adaptive_max_pool")(input, output_size, return_indices or with_indices, nd=nd)

    name = f"adaptive_max_pool{nd}d" + ("_with_indices" if with_indices else "")
    adaptive_max_pool.__name__ = adaptive_max_pool.__qualname__ = name
    adaptive_max_pool.__doc__ = f"""{nd}-d max pooling to a given ``output_size``."""
    return adaptive_max_pool


adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool3d = (
    _adaptive_max(n, False) for n in (1, 2, 3)
)
adaptive_max_pool1d_with_indices, adaptive_max_pool2d_with_indices = (
    _adaptive_max(n, True) for n in (1, 2)
)
adaptive_max_pool3d_with_indices = _adaptive_max(3, True)


def _adaptive_avg(nd):
    def adaptive_avg_pool(input, output_size):
        _checks.check_adaptive(input, output_size, nd, f"adaptive_avg_pool{nd}d")
        return core("adaptive_avg_pool")(input, output_size, nd=nd)

    adaptive_avg_pool.__name__ = adaptive_avg_pool.__qualname__ = f"adaptive_avg_pool{nd}d"
    adaptive_avg_pool.__doc__ = f"""{nd}-d average pooling to a given ``output_size``."""
    return adaptive_avg_pool


adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d = (
    _adaptive_avg(n) for n in (1, 2, 3)
)


# ---------------------------------------------------------------------- resampling


def pixel_shuffle(input, upscale_factor: int):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    return torch.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor: int):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    return torch.pixel_unshuffle(input, downscale_factor)


def channel_shuffle(input, groups: int):
    """Interleave the channels of ``groups`` groups: (N, g * k, *) viewed as (N, g, k, *),
    transposed to (N, k, g, *)."""
    n, c = input.shape[0], input.shape[1]
    if groups <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    if c % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups."
        )
    rest = tuple(input.shape[2:])
    grouped = input.reshape((n, groups, c // groups) + rest)
    return grouped.transpose(1, 2).reshape(input.shape)


native_channel_shuffle = channel_shuffle


def pad(input, pad, mode: str = "constant", value=None):
    """Pad the last ``len(pad) // 2`` dims of ``input``; ``pad`` = (left, right) for
    the last dim, then for the one before, ...

    Args:
        pad (tuple): the paddings.
        mode (str): ``'constant'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
            Default: ``'constant'``.
        value (float, optional): fill value for ``'constant'``. Default: 0.

    Examples::

        >>> F.pad(torch.ones(1, 2), (1, 0))
        tensor([[0., 1., 1.]])
    """
    return _padding.pad(input, pad, mode, value)


def interpolate(
    input,
    size=None,
    scale_factor=None,
    mode: str = "nearest",
    align_corners=None,
    recompute_scale_factor=None,
    antialias: bool = False,
):
    """Resize the spatial dims of ``input`` to ``size`` or by ``scale_factor``.

    Args:
        mode (str): ``'nearest'``, ``'nearest-exact'``, ``'linear'``, ``'bilinear'``,
            ``'bicubic'``, ``'trilinear'`` or ``'area'``. Default: ``'nearest'``.
        align_corners (bool, optional): for the linear modes, map corner pixels
            exactly.
    """
    return core("interpolate")(
        input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias
    )


def upsample(input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None):
    """Deprecated alias of :func:`interpolate`."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='nearest')``."""
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='bilinear', align_corners=True)``."""
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def grid_sample(
    input, grid, mode: str = "bilinear", padding_mode: str = "zeros", align_corners=None
):
    """Sample ``input`` (N, C, H, W) or (N, C, D, H, W) at the normalised (x, y[, z])
    coordinates of ``grid`` (N, Ho, Wo, 2) or (N, Do, Ho, Wo, 3): ``mode`` "bilinear",
    "nearest" or "bicubic" (4-D input only), ``padding_mode`` "zeros", "border" or
    "reflection"."""
    if align_corners is None:
        _warn_align_corners()
    if mode not in GRID_SAMPLE_INTERPOLATION_MODES:
        raise ValueError(
            f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
            f"'nearest' or 'bicubic', but got: '{mode}'"
        )
    if padding_mode not in GRID_SAMPLE_PADDING_MODES:
        raise ValueError(
            f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
            f"'border', or 'reflection', but got: '{padding_mode}'"
        )
    return torch.grid_sampler(
        input,
        grid,
        GRID_SAMPLE_INTERPOLATION_MODES[mode],
        GRID_SAMPLE_PADDING_MODES[padding_mode],
        align_corners,
    )


def _warn_align_corners() -> None:
    import warnings

    warnings.warn(
        "grid_sample and affine_grid default to align_corners=False (since PyTorch 1.3.0); "
        "pass align_corners explicitly (True for the old behaviour) to silence this warning.",
        UserWarning,
        stacklevel=3,
    )


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of the affine maps ``theta`` (N, 2, 3) for an output ``size``."""
    if align_corners is None:
        _warn_align_corners()
    return torch.affine_grid_generator(theta, size, bool(align_corners))
