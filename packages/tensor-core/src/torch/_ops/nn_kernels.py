"""Neural-network kernels: N-d convolution, max and average pooling, relu, softmax and
log-softmax. ``torch.nn.functional`` (torch-nn) calls these; their gradients are ops too
(``_conv_backward``, ``_max_pool_backward``, ``_avg_pool_backward``), so torch-autograd's
formulas stay one line each.

Convolution unfolds the (padded) input into columns and multiplies them with the weight
in one BLAS call per group; its backward folds columns back with one strided add per
kernel position (a loop over the kernel's few positions, never over data).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .. import _blas, _dtype, _native
from .._tensor import Tensor, _is_grad_recording
from . import nn_fused
from ._dispatch import (
    as_array,
    contiguous,
    defop,
    kernel_refusal,
    record,
    refuse_complex,
    register_op,
    window_view,
)
from .gather_scatter import _inplace

__all__ = [
    "convolution",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "max_pool1d_with_indices",
    "avg_pool1d",
    "relu",
    "softmax",
    "log_softmax",
]


# this family's ops registered under its name
_register = functools.partial(register_op, family="nn_kernels")


#: what a convolution saves for its backward
_CONV_SAVED = ("stride", "pads", "dilation", "groups")


def _tuple(value, n: int, name: str) -> tuple:
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {n} "
            f"values to match the convolution dimensions, but got {name}="
            f"{list(value)}"
        )
    return value


def _windows(padded: np.ndarray, kernel, stride, dilation, out_shape) -> np.ndarray:
    """A read-only view (N, C, *out, *kernel) of every window of ``padded``."""
    nd = len(kernel)
    strides = padded.strides
    shape = padded.shape[:2] + tuple(out_shape) + tuple(kernel)
    view_strides = (
        strides[:2]
        + tuple(strides[2 + i] * stride[i] for i in range(nd))
        + tuple(strides[2 + i] * dilation[i] for i in range(nd))
    )
    return window_view(padded, shape, view_strides)


# ------------------------------------------------------------------ convolution


def _conv_geometry(input, weight, stride, padding, dilation, groups, nd):
    if input._np.ndim != nd + 2:
        raise RuntimeError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
            f"conv{nd}d, but got input of size: {list(input._np.shape)}"
        )
    stride = _tuple(stride, nd, "stride")
    dilation = _tuple(dilation, nd, "dilation")
    kernel = weight._np.shape[2:]
    channels = input._np.shape[1]
    if weight._np.shape[1] * groups != channels:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight._np.shape)}, "
            f"expected input{list(input._np.shape)} to have "
            f"{weight._np.shape[1] * groups} channels, but got {channels} "
            f"channels instead"
        )
    if weight._np.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0"
        )
    if isinstance(padding, str):
        if padding == "valid":
            pads = ((0, 0),) * nd
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = [d * (k - 1) for d, k in zip(dilation, kernel)]
            pads = tuple((t // 2, t - t // 2) for t in total)
        else:
            raise RuntimeError(f"Invalid padding string '{padding}'")
    else:
        pads = tuple((p, p) for p in _tuple(padding, nd, "padding"))
    spatial = input._np.shape[2:]
    out = []
    for i in range(nd):
        size = spatial[i] + pads[i][0] + pads[i][1]
        span = dilation[i] * (kernel[i] - 1) + 1
        if size < span:
            raise RuntimeError(
                f"Calculated padded input size per channel: "
                f"({' x '.join(str(s + a + b) for s, (a, b) in zip(spatial, pads))})"
                f". Kernel size: ({' x '.join(map(str, kernel))}). Kernel size "
                f"can't be greater than actual input size"
            )
        out.append((size - span) // stride[i] + 1)
    return stride, pads, dilation, tuple(kernel), tuple(out)


def _columns(x: np.ndarray, pads, kernel, stride, dilation, out_shape, groups):
    """The input unfolded to (groups, Cg * K, N * out). The copy reads the input's
    spatial dims innermost (mostly sequential memory), the layout the BLAS call wants."""
    padded = np.pad(x, ((0, 0), (0, 0)) + pads) if any(p != (0, 0) for p in pads) else x
    windows = _windows(padded, kernel, stride, dilation, out_shape)
    n, c = x.shape[:2]
    nd = len(kernel)
    # (N, C, *out, *k) -> (C, *k, N, *out)
    order = (1,) + tuple(range(2 + nd, 2 + 2 * nd)) + (0,) + tuple(range(2, 2 + nd))
    cols = contiguous(windows.transpose(order))
    return cols.reshape(groups, (c // groups) * math.prod(kernel), n * math.prod(out_shape))


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` of the unfolded convolution: torch._C's product where it takes the
    operands (on AVX-512 its packed product, 5x NumPy's batched matmul on a 128x576 @
    576x4096 product here), else NumPy's."""
    product = _native.blas_matmul(a, b)
    return _blas.matmul(a, b) if product is None else product


def _grad_columns(g: np.ndarray, groups: int) -> np.ndarray:
    """An output gradient (N, C_out, *out) as (groups, Og, N * out)."""
    n, c_out = g.shape[:2]
    moved = contiguous(np.moveaxis(g, 1, 0))  # (C_out, N, *out)
    return moved.reshape(groups, c_out // groups, n * math.prod(g.shape[2:]))


def convolution(
    input: Tensor, weight: Tensor, bias=None, stride=1, padding=0, dilation=1, groups: int = 1
) -> Tensor:
    """N-d cross-correlation (what deep learning calls convolution) of ``input``
    (N, C_in, *spatial) with ``weight`` (C_out, C_in / groups, *kernel)."""
    nd = weight._np.ndim - 2
    unbatched = input._np.ndim == nd + 1
    if unbatched:
        input = input.unsqueeze(0)
    stride, pads, dilation, kernel, out_shape = _conv_geometry(
        input, weight, stride, padding, dilation, groups, nd
    )
    dtype = input._dtype
    if weight._dtype is not dtype:
        raise RuntimeError(
            f"Input type ({dtype._legacy}) and weight type "
            f"({weight._dtype._legacy}) should be the same"
        )
    bias_array = None if bias is None else bias._np
    result = _native.conv_forward(input._np, weight._np, bias_array, stride, pads, dilation, groups)
    if result is None:
        result = _convolution_reference(
            input._np, weight._np, bias_array, stride, pads, dilation, kernel, out_shape, groups
        )
    output = Tensor._from_array(contiguous(result, dtype.np_dtype), dtype)
    saved = (stride, pads, dilation, groups)
    output = record(CONVOLUTION, (input, weight, bias), output, saved)
    return output.squeeze(0) if unbatched else output


def _convolution_reference(x, w, bias, stride, pads, dilation, kernel, out_shape, groups):
    """The convolution by unfolding and one BLAS product per group (any stride; the
    reference of the native kernel)."""
    cols = _columns(x, pads, kernel, stride, dilation, out_shape, groups)
    c_out = w.shape[0]
    product = _product(w.reshape(groups, c_out // groups, -1), cols)  # (G, Og, N*out)
    result = np.moveaxis(product.reshape((c_out, x.shape[0]) + out_shape), 0, 1)
    if bias is not None:
        result = result + bias.reshape((1, c_out) + (1,) * len(kernel))
    return result


defop("convolution", convolution)
CONVOLUTION = _register(
    "convolution",
    convolution,
    "convolution(Tensor input, Tensor weight, "
    "Tensor? bias, int[] stride, int[] padding, int[] dilation, "
    "int groups) -> Tensor",
    saved=_CONV_SAVED,
)


def conv_backward(
    grad: Tensor, input: Tensor, weight: Tensor, stride, pads, dilation, groups: int, which: str
) -> Tensor:
    """The gradient of :func:`convolution` for ``which`` of "input", "weight", "bias"."""
    g = grad._np
    nd = len(stride)
    n, c_out = g.shape[:2]
    out_shape = g.shape[2:]
    if which == "bias":
        return Tensor._from_array(
            as_array(g.sum(axis=(0,) + tuple(range(2, 2 + nd))), None, "C"), grad._dtype
        )
    kernel = weight._np.shape[2:]
    native = _native_conv_grad(g, input._np, weight._np, stride, pads, dilation, groups, which)
    if native is not None:
        return Tensor._from_array(native, grad._dtype)
    g_cols = _grad_columns(g, groups)  # (G, Og, N*out)
    if which == "weight":
        cols = _columns(input._np, pads, kernel, stride, dilation, out_shape, groups)
        w = _product(g_cols, cols.transpose(0, 2, 1))  # (G, Og, Cg*K)
        return Tensor._from_array(contiguous(w.reshape(weight._np.shape)), grad._dtype)
    c_in = input._np.shape[1]
    w = weight._np.reshape(groups, c_out // groups, -1)
    cols = _product(w.transpose(0, 2, 1), g_cols)  # (G, Cg*K, N*out)
    # (C_in, *k, N, *out)
    cols = cols.reshape((c_in,) + tuple(kernel) + (n,) + tuple(out_shape))
    padded_shape = (n, c_in) + tuple(s + a + b for s, (a, b) in zip(input._np.shape[2:], pads))
    result = np.zeros(padded_shape, dtype=g.dtype, like=g)  # on the device of grad
    grouped = result.reshape((n, groups, c_in // groups) + padded_shape[2:])
    # fold: one strided add per kernel position
    for position in np.ndindex(*kernel):
        target = tuple(
            slice(p * d, p * d + (o - 1) * s + 1, s)
            for p, d, o, s in zip(position, dilation, out_shape, stride)
        )
        # (C_in, N, *out) -> (N, G, Cg, *out)
        source = np.moveaxis(cols[(slice(None),) + position], 1, 0)
        source = source.reshape((n, groups, c_in // groups) + tuple(out_shape))
        grouped[(slice(None), slice(None), slice(None)) + target] += source
    inner = tuple(slice(a, a + s) for (a, _), s in zip(pads, input._np.shape[2:]))
    return Tensor._from_array(contiguous(result[(slice(None), slice(None)) + inner]), grad._dtype)


def _native_conv_grad(g, x, w, stride, pads, dilation, groups, which):
    """The input or weight gradient of a stride-1 convolution by the native kernels, or
    None. The input gradient of a stride-1 convolution is the convolution of the output
    gradient, padded by dilation * (kernel - 1) less the forward padding on each side,
    with the weight flipped in space and its channel axes swapped per group."""
    if which == "weight":
        return _native.conv_weight_grad(x, g, w, stride, pads, dilation, groups)
    if any(s != 1 for s in stride):
        return None  # the flipped-kernel identity below holds for stride 1 only
    kernel = w.shape[2:]
    reach = [d * (k - 1) for d, k in zip(dilation, kernel)]
    grad_pads = tuple((r - lo, r - hi) for r, (lo, hi) in zip(reach, pads))
    if any(lo < 0 or hi < 0 for lo, hi in grad_pads):
        return None  # padding wider than the kernel's reach: the reference handles it
    c_out, c_per_group = w.shape[:2]
    per_group = w.reshape((groups, c_out // groups, c_per_group) + kernel)
    flipped = np.flip(per_group.swapaxes(1, 2), axis=tuple(range(3, 3 + len(kernel))))
    w_t = flipped.reshape((groups * c_per_group, c_out // groups) + kernel)
    return _native.conv_forward(g, w_t, None, stride, grad_pads, dilation, groups)


CONV_BACKWARD = _register(
    "_conv_backward",
    conv_backward,
    "_conv_backward(Tensor grad, Tensor input, Tensor weight, ...) -> Tensor",
    differentiable=False,
)


def _conv(nd):
    def function(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        if weight._np.ndim != nd + 2:
            raise RuntimeError(f"conv{nd}d: expected a {nd + 2}-d weight, got {weight._np.ndim}-d")
        return convolution(input, weight, bias, stride, padding, dilation, groups)

    function.__name__ = f"conv{nd}d"
    function.__doc__ = (
        f"{nd}-d convolution of ``input`` (N, C_in, ...) with ``weight`` "
        f"(C_out, C_in / groups, ...); ``padding`` may be an int, a tuple, "
        f"'valid' or 'same'."
    )
    return function


conv1d, conv2d, conv3d = (defop(f"conv{nd}d", _conv(nd)) for nd in (1, 2, 3))


# ---------------------------------------------------------------------- pooling


def _pool_geometry(x, kernel_size, stride, padding, dilation, ceil_mode, nd, name):
    kernel = _tuple(kernel_size, nd, "kernel_size")
    stride = _tuple(stride if stride not in (None, ()) else kernel, nd, "stride")
    padding = _tuple(padding, nd, "padding")
    dilation = _tuple(dilation, nd, "dilation")
    for k, p in zip(kernel, padding):
        if p > k // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got "
                f"pad={p}, kernel_size={k} and dilation=1"
            )
    spatial = x.shape[2:]
    out = []
    for size, k, s, p, d in zip(spatial, kernel, stride, padding, dilation):
        span = d * (k - 1) + 1
        length = (size + 2 * p - span + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (length - 1) * s >= size + p:
            length -= 1  # the last window must start inside the input or left padding
        if length <= 0:
            raise RuntimeError(
                f"Given input size: ({'x'.join(map(str, x.shape[1:]))}). "
                f"Calculated output size: ({x.shape[1]}x{length}). Output size "
                f"is too small"
            )
        out.append(length)
    return kernel, stride, padding, dilation, tuple(out)


def _padded_for_pool(x, kernel, stride, padding, dilation, out, fill):
    """``x`` padded on the left by ``padding`` and on the right as far as the last
    window reaches, with ``fill``."""
    pads = []
    for size, k, s, p, d, o in zip(x.shape[2:], kernel, stride, padding, dilation, out):
        reach = (o - 1) * s + d * (k - 1) + 1
        pads.append((p, max(reach - size - p, 0)))
    if not any(a or b for a, b in pads):
        return x, pads  # nothing to pad: no copy
    return np.pad(x, ((0, 0), (0, 0)) + tuple(pads), constant_values=fill), pads


def max_pool(
    input: Tensor,
    kernel_size,
    stride=None,
    padding=0,
    dilation=1,
    ceil_mode: bool = False,
    return_indices: bool = False,
    nd: int = 2,
):
    """N-d max pooling; with ``return_indices``, also each maximum's flat position in its
    input plane (what ``max_unpool`` takes)."""
    unbatched = input._np.ndim == nd + 1
    x = input._np[None] if unbatched else input._np
    if x.ndim != nd + 2:
        raise RuntimeError(f"max_pool{nd}d: Expected {nd + 1}D or {nd + 2}D input")
    if input._dtype._category == 3:
        refuse_complex(
            "max_pool1d" if nd == 1 and not return_indices else "max_pool2d", input._dtype
        )
    kernel, stride, padding, dilation, out = _pool_geometry(
        x, kernel_size, stride, padding, dilation, ceil_mode, nd, "max"
    )
    floating = x.dtype.kind == "f" or x.dtype.name == "bfloat16"  # ml_dtypes: kind "V"
    fill = -np.inf if floating else np.iinfo(x.dtype).min
    recording = return_indices or _is_grad_recording(input)
    native = _native_max_pool(x, kernel, stride, padding, dilation, out) if recording else None
    if native is None:
        padded, pads = _padded_for_pool(x, kernel, stride, padding, dilation, out, fill)
        windows = _windows(padded, kernel, stride, dilation, out)
    if not recording:
        # values only: a running maximum over the kernel positions, each a strided slice
        # (np.maximum propagates NaN, as PyTorch does)
        values = None
        for position in np.ndindex(*kernel):
            piece = windows[(slice(None), slice(None)) + (slice(None),) * nd + position]
            values = piece.copy() if values is None else np.maximum(values, piece, out=values)
        result = Tensor._from_array(values, input._dtype)
        return result.squeeze(0) if unbatched else result
    if native is not None:
        values, indices = native
    else:
        values, indices = _max_pool_reference(x, windows, kernel, stride, dilation, pads, out)
    result = Tensor._from_array(contiguous(values), input._dtype)
    index_tensor = Tensor._from_array(contiguous(indices, np.int64), _dtype.int64)
    if unbatched:
        input_b = input.unsqueeze(0)
    else:
        input_b = input
    result = record(MAX_POOL, (input_b,), result, (index_tensor,))
    if unbatched:
        result, index_tensor = result.squeeze(0), index_tensor.squeeze(0)
    return (result, index_tensor) if return_indices else result


def _native_max_pool(x, kernel, stride, padding, dilation, out):
    """(values, indices) of 1-d or 2-d max pooling of a float array by the native kernel
    (one pass, planes split over threads), or None."""
    nd = len(kernel)
    if not _native.ENABLED or nd > 2 or x.dtype.char not in "fd" or 0 in x.shape:
        return None
    if not _native.on_host(x):
        return None
    if nd == 1:  # a 1-d plane is a 2-d plane of height 1
        kernel, stride, padding, dilation, out = (
            (1,) + tuple(kernel), (1,) + tuple(stride), (0,) + tuple(padding),
            (1,) + tuple(dilation), (1,) + tuple(out),
        )  # fmt: skip
    spatial = x.shape[2:] if nd == 2 else (1,) + x.shape[2:]
    planes = contiguous(x).reshape((-1,) + spatial)
    values, indices = _native.kernels.max_pool2d_with_indices(
        planes, list(kernel), list(stride), list(padding), list(dilation), out[0], out[1]
    )
    shape = x.shape[:2] + tuple(out[-nd:])
    return values.reshape(shape), indices.reshape(shape)


def _max_pool_reference(x, windows, kernel, stride, dilation, pads, out):
    """(values, indices) of max pooling by NumPy over the window view (the reference of
    the native kernel)."""
    nd = len(kernel)
    # a running maximum over the kernel positions that remembers which position won
    # (the first of equal values; a NaN wins once seen, as in PyTorch)
    values = position = None
    floating = x.dtype.kind == "f"
    for k, offset in enumerate(np.ndindex(*kernel)):
        piece = windows[(slice(None), slice(None)) + (slice(None),) * nd + offset]
        if values is None:
            values, position = piece.copy(), np.zeros(piece.shape, dtype=np.int64, like=piece)
            continue
        take = piece > values
        if floating:
            take |= np.isnan(piece) & ~np.isnan(values)
        values = np.where(take, piece, values)
        position = np.where(take, k, position)
    # the flat index of each maximum in its unpadded input plane
    offsets = np.unravel_index(position, kernel)
    coords = []
    for i in range(nd):
        grid = np.arange(out[i], like=x).reshape(
            (1, 1) + tuple(-1 if j == i else 1 for j in range(nd))
        )
        coords.append(grid * stride[i] + offsets[i] * dilation[i] - pads[i][0])
    indices = np.ravel_multi_index(tuple(np.broadcast_arrays(*coords)), x.shape[2:], mode="clip")
    return values, indices


MAX_POOL = _register(
    "max_pool",
    max_pool,
    "max_pool(Tensor self, int[] kernel_size, ...) -> Tensor",
    saved=("indices",),
)
MAX_POOL.extra["binding"] = "torch.max_pool1d/2d/3d"


def max_pool_backward(grad: Tensor, input: Tensor, indices: Tensor) -> Tensor:
    """Each output gradient added at its maximum's position (one bincount)."""
    x = input._np
    planes = x.shape[0] * x.shape[1]
    plane_size = math.prod(x.shape[2:])
    g = grad._np
    if _native.ENABLED and _native.on_host(g, x) and g.dtype.char in "fd" and g.dtype == x.dtype:
        summed = _native.kernels.max_pool_backward(
            contiguous(g), contiguous(indices._np), planes, plane_size
        )
        return Tensor._from_array(summed.reshape(x.shape), grad._dtype)
    starts = np.arange(planes, like=indices._np)[:, None] * plane_size  # on the device
    flat_index = indices._np.reshape(planes, -1) + starts
    summed = np.bincount(
        flat_index.reshape(-1),
        weights=grad._np.reshape(-1).astype(np.float64),
        minlength=planes * plane_size,
    )
    return Tensor._from_array(summed.reshape(x.shape).astype(x.dtype), grad._dtype)


MAX_POOL_BACKWARD = _register(
    "_max_pool_backward",
    max_pool_backward,
    "_max_pool_backward(Tensor grad, Tensor self, Tensor indices) -> Tensor",
    differentiable=False,
)


def _max_pool_nd(nd):
    # torch.max_poolNd has no return_indices (nn.functional's does, through max_pool)
    def function(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
        return max_pool(input, kernel_size, stride or None, padding, dilation, ceil_mode, False, nd)

    function.__name__ = f"max_pool{nd}d"
    function.__doc__ = f"{nd}-d max pooling (see :func:`max_pool`)."
    return function


# the complex refusals max_pool's kernel raises, by the name of the op PyTorch runs
max_pool1d = defop(
    "max_pool1d", _max_pool_nd(1), refuses_complex={"": kernel_refusal("max_pool1d_impl")}
)
max_pool2d = defop(
    "max_pool2d", _max_pool_nd(2), refuses_complex={"": kernel_refusal("max_pool2d")}
)
max_pool3d = defop("max_pool3d", _max_pool_nd(3))


@defop("max_pool1d_with_indices")
def max_pool1d_with_indices(
    input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False
):
    """``(values, indices)`` of 1-d max pooling."""
    return max_pool(input, kernel_size, stride or None, padding, dilation, ceil_mode, True, 1)


def max_pool2d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False
):
    return max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 2)


def avg_pool(
    input: Tensor,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override=None,
    nd: int = 2,
) -> Tensor:
    """N-d average pooling. Windows that reach past the padding (``ceil_mode``) average
    over what they cover; ``count_include_pad`` counts the zero padding."""
    if input._dtype._category == 3:
        refuse_complex("avg_pool", input._dtype)
    unbatched = input._np.ndim == nd + 1
    x = input._np[None] if unbatched else input._np
    kernel, stride, padding, _, out = _pool_geometry(
        x, kernel_size, stride, padding, 1, ceil_mode, nd, "avg"
    )
    values = None
    if not _native.on_host(x) and count_include_pad and not ceil_mode and not divisor_override:
        cudnn = _native._cudnn(x)  # cuDNN's average pooling on a device, where there is one
        pads = tuple((p, p) for p in padding)
        values = None if cudnn is None else cudnn.average_pooling(x, kernel, stride, pads)
    divisors = _avg_divisors(
        x.shape[2:], kernel, stride, padding, out, count_include_pad, divisor_override, x
    )
    if values is None:
        padded, _ = _padded_for_pool(x, kernel, stride, padding, (1,) * nd, out, 0)
        windows = _windows(padded, kernel, stride, (1,) * nd, out)
        sums = windows.sum(axis=tuple(range(2 + nd, 2 + 2 * nd)), dtype=np.float64)
        values = (sums / divisors).astype(x.dtype)
    input_b = input.unsqueeze(0) if unbatched else input
    result = record(
        AVG_POOL,
        (input_b,),
        Tensor._from_array(values, input._dtype),
        (kernel, stride, padding, divisors),
    )
    return result.squeeze(0) if unbatched else result


def _avg_divisors(
    spatial, kernel, stride, padding, out, count_include_pad, divisor_override, like=None
):
    """The count each window averages over, made where ``like`` (the input) lives."""
    if divisor_override:
        return np.full(out, float(divisor_override), like=like)
    divisors = np.ones(out, like=like)
    for i, (size, k, s, p, o) in enumerate(zip(spatial, kernel, stride, padding, out)):
        start = np.arange(o, like=like) * s - p
        end = np.minimum(start + k, size + p)
        counted = end - start  # window clipped to the padded input
        if not count_include_pad:
            counted = np.minimum(end, size) - np.maximum(start, 0)
        shape = [1] * len(out)
        shape[i] = o
        divisors = divisors * counted.reshape(shape)
    return divisors


AVG_POOL = _register(
    "avg_pool",
    avg_pool,
    "avg_pool(Tensor self, int[] kernel_size, ...) -> Tensor",
    saved=("kernel_size", "stride", "padding", "divisors"),
)
AVG_POOL.extra["binding"] = "torch.avg_pool1d/2d/3d"
# PyTorch's error names its 2-d kernel whatever the dims
defop("avg_pool", avg_pool, public=False, refuses_complex={"": kernel_refusal("avg_pool2d")})


def avg_pool_backward(grad: Tensor, input: Tensor, kernel, stride, padding, divisors) -> Tensor:
    """Each output gradient spread evenly over its window (one strided add per kernel
    position)."""
    x = input._np
    out = grad._np.shape[2:]
    share = grad._np / divisors
    padded_shape = x.shape[:2] + tuple(
        max((o - 1) * s + k, size + 2 * p)
        for o, s, k, size, p in zip(out, stride, kernel, x.shape[2:], padding)
    )
    result = np.zeros(padded_shape, dtype=np.float64, like=share)  # on the device of grad
    for position in np.ndindex(*kernel):
        target = tuple(slice(q, q + (o - 1) * s + 1, s) for q, o, s in zip(position, out, stride))
        result[(slice(None), slice(None)) + target] += share
    inner = tuple(slice(p, p + size) for p, size in zip(padding, x.shape[2:]))
    return Tensor._from_array(
        contiguous(result[(slice(None),) * 2 + inner].astype(x.dtype)), grad._dtype
    )


AVG_POOL_BACKWARD = _register(
    "_avg_pool_backward",
    avg_pool_backward,
    "_avg_pool_backward(Tensor grad, Tensor self, ...) -> Tensor",
    differentiable=False,
)


def _avg_pool_nd(nd):
    def function(
        input,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode=False,
        count_include_pad=True,
        divisor_override=None,
    ):
        return avg_pool(
            input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, nd
        )

    function.__name__ = f"avg_pool{nd}d"
    function.__doc__ = f"{nd}-d average pooling (see :func:`avg_pool`)."
    return function


avg_pool1d = defop("avg_pool1d", _avg_pool_nd(1))
avg_pool2d, avg_pool3d = _avg_pool_nd(2), _avg_pool_nd(3)


# ------------------------------------------------------------ activations


@defop("relu", method=True, inplace=True, torch_inplace=True)
def relu(input: Tensor) -> Tensor:
    """``max(input, 0)`` elementwise.

    Examples::

        >>> torch.relu(torch.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """
    from .ternary import where

    if input._dtype._category == 3:
        refuse_complex("clamp", input._dtype)
    fused = nn_fused.relu(input)  # float tensors: one op, its gradient 0 at 0
    if fused is not None:
        return fused
    # NOTE: written as where(x > 0, x, 0) so the gradient at 0 is 0, as in PyTorch
    return where(input > 0, input, 0)


relu_ = _inplace(relu, "relu_")


def _softmax_array(x: np.ndarray, dim: int, log: bool) -> np.ndarray:
    shifted = x - np.max(x, axis=dim, keepdims=True)
    exp = np.exp(shifted)
    total = np.sum(exp, axis=dim, keepdims=True)
    return shifted - np.log(total) if log else exp / total


def _softmax_refusals(name: str) -> dict:
    """PyTorch's complex refusals: its kernel over the last dim, or over another ("dim")."""
    return {
        "": kernel_refusal(f"{name}_lastdim_kernel_impl"),
        "dim": kernel_refusal(f"{name}_kernel_impl"),
    }


def _softmax(input: Tensor, dim: int, dtype, log: bool) -> Tensor:
    x = input if dtype is None else input.to(dtype)
    d = x._wrap_dim(dim)
    if x._dtype._category == 3:
        name = "log_softmax" if log else "softmax"
        refuse_complex(name if d == x._np.ndim - 1 else name + ".dim", x._dtype)
    if isinstance(x._np, np.ndarray):
        array = None if log or d != x._np.ndim - 1 else nn_fused.softmax_forward(x._np)
    else:  # on a device: cuDNN's softmax where there is one
        cudnn = _native._cudnn(x._np)
        array = None if cudnn is None else cudnn.softmax(x._np, d, log)
    if array is None:
        with np.errstate(all="ignore"):
            array = _softmax_array(x._np, d, log)
    result = Tensor._from_array(as_array(array, None, "C"), x._dtype)
    return record(LOG_SOFTMAX if log else SOFTMAX, (x,), result, (d,))


@defop("softmax", method=True, out=True, refuses_complex=_softmax_refusals("softmax"))
def softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``, computed without overflow."""
    return _softmax(input, dim, dtype, False)


@defop("log_softmax", method=True, out=True, refuses_complex=_softmax_refusals("log_softmax"))
def log_softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    """``log(softmax(x))`` along ``dim``, computed stably."""
    return _softmax(input, dim, dtype, True)


SOFTMAX = _register("softmax", softmax, "softmax(Tensor self, int dim) -> Tensor", saved=("dim",))
LOG_SOFTMAX = _register(
    "log_softmax", log_softmax, "log_softmax(Tensor self, int dim) -> Tensor", saved=("dim",)
)


# ----------------------------------------------------------- transposed convolution


def convolution_transpose(
    input: Tensor,
    weight: Tensor,
    bias=None,
    stride=1,
    padding=0,
    output_padding=0,
    groups: int = 1,
    dilation=1,
) -> Tensor:
    """N-d transposed convolution of ``input`` (N, C_in, *spatial) with ``weight``
    (C_in, C_out / groups, *kernel): the adjoint of :func:`convolution`, so its forward is
    convolution's input gradient."""
    nd = weight._np.ndim - 2
    unbatched = input._np.ndim == nd + 1
    if unbatched:
        input = input.unsqueeze(0)
    if input._np.ndim != nd + 2:
        raise RuntimeError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
            f"conv_transpose{nd}d, but got input of size: "
            f"{list(input._np.shape)}"
        )
    stride, dilation = _tuple(stride, nd, "stride"), _tuple(dilation, nd, "dilation")
    padding = _tuple(padding, nd, "padding")
    output_padding = _tuple(output_padding, nd, "output_padding")
    for op_, s, d in zip(output_padding, stride, dilation):
        if op_ >= max(s, d):
            raise RuntimeError(_output_padding_message(output_padding, stride, dilation))
    channels = input._np.shape[1]
    if weight._np.shape[0] != channels:
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight._np.shape)}, "
            f"expected input{list(input._np.shape)} to have "
            f"{weight._np.shape[0]} channels, but got {channels} channels "
            f"instead"
        )
    kernel = weight._np.shape[2:]
    out_shape = tuple(
        (i - 1) * s - 2 * p + d * (k - 1) + op_ + 1
        for i, s, p, d, k, op_ in zip(
            input._np.shape[2:], stride, padding, dilation, kernel, output_padding
        )
    )
    c_out = weight._np.shape[1] * groups
    shape = (input._np.shape[0], c_out) + out_shape
    placeholder = Tensor._from_array(
        np.broadcast_to(np.zeros((), input._np.dtype), shape), input._dtype
    )
    pads = tuple((p, p) for p in padding)
    # convolution's input gradient, with the roles of the channel dims swapped in weight
    result = conv_backward(input, placeholder, weight, stride, pads, dilation, groups, "input")
    array = result._np
    if bias is not None:
        array = array + bias._np.reshape((1, c_out) + (1,) * nd)
    output = Tensor._from_array(contiguous(array, input._np.dtype), input._dtype)
    output = record(
        CONVOLUTION_TRANSPOSE, (input, weight, bias), output, (stride, pads, dilation, groups)
    )
    return output.squeeze(0) if unbatched else output


def _output_padding_message(output_padding, stride, dilation) -> str:
    start = "output padding must be smaller than either stride or dilation, but got "
    if len(stride) == 2:  # PyTorch names the two dims in this message
        names = ("height", "width")
        parts = [
            f"{kind}_{name}: {value}"
            for kind, values in (
                ("output_padding", output_padding),
                ("stride", stride),
                ("dilation", dilation),
            )
            for name, value in zip(names, values)
        ]
        return start + " ".join(parts)
    return (
        start + f"output_padding: {list(output_padding)}, stride: {list(stride)}, "
        f"dilation: {list(dilation)}"
    )


CONVOLUTION_TRANSPOSE = _register(
    "convolution_transpose",
    convolution_transpose,
    "convolution_transpose(Tensor input, Tensor weight, Tensor? bias, int[] stride, "
    "int[] padding, int[] output_padding, int groups, int[] dilation) -> Tensor",
    saved=_CONV_SAVED,
)
CONVOLUTION_TRANSPOSE.extra["binding"] = "torch.conv_transpose1d/2d/3d"


def _conv_transpose(nd):
    def function(
        input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
    ):
        return convolution_transpose(
            input, weight, bias, stride, padding, output_padding, groups, dilation
        )

    function.__name__ = f"conv_transpose{nd}d"
    function.__doc__ = f"{nd}-d transposed convolution (see :func:`convolution_transpose`)."
    return function


conv_transpose1d, conv_transpose2d, conv_transpose3d = (
    defop(f"conv_transpose{nd}d", _conv_transpose(nd)) for nd in (1, 2, 3)
)
