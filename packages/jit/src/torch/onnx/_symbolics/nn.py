"""Neural-network ops: convolution, normalisation, dropout, embedding, softmax, pooling
and padding."""

from __future__ import annotations

import torch

from .._graph import GraphContext
from .._registry import symbolic
from ._helpers import ints, normalize_dim, rank_of, sizes_of, unsupported

# ------------------------------------------------------------------------ convolution


def _conv_pads(padding, kernel: list[int], dilation: list[int]) -> list[int]:
    """ONNX ``pads`` (all begins, then all ends) of PyTorch's ``padding``."""
    nd = len(kernel)
    if padding == "valid":
        return [0] * (2 * nd)
    if padding == "same":  # the extra pad goes at the end, as PyTorch does
        totals = [d * (k - 1) for k, d in zip(kernel, dilation)]
        return [t // 2 for t in totals] + [t - t // 2 for t in totals]
    pads = ints(padding, nd)
    return pads + pads


def _convolution(g: GraphContext, input, weight, bias, stride, padding, dilation, groups, nd):
    kernel = list(sizes_of(weight)[2:])
    stride, dilation = ints(stride, nd), ints(dilation, nd)
    unbatched = rank_of(input) == nd + 1
    if unbatched:
        input = g.unsqueeze(input, [0])
    out = g.op(
        "Conv",
        input,
        weight,
        bias,
        kernel_shape_i=kernel,
        strides_i=stride,
        pads_i=_conv_pads(padding, kernel, dilation),
        dilations_i=dilation,
        group_i=int(groups),
    )
    return g.squeeze(out, [0]) if unbatched else out


def _conv_nd(nd: int):
    def translate(g, input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        return _convolution(g, input, weight, bias, stride, padding, dilation, groups, nd)

    return translate


for _nd in (1, 2, 3):
    symbolic(f"conv{_nd}d")(_conv_nd(_nd))


@symbolic("convolution")
def convolution(g, input, weight, bias, stride, padding, dilation, transposed=False,
                output_padding=0, groups=1):  # fmt: skip
    if transposed:
        raise unsupported("transposed convolution")
    nd = rank_of(weight) - 2
    return _convolution(g, input, weight, bias, stride, padding, dilation, groups, nd)


# ---------------------------------------------------------------------- normalisation


@symbolic("batch_norm")
def batch_norm(g, input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-05, *_ignored):  # fmt: skip
    channels = sizes_of(input)[1]
    dtype = g.out_dtype() or input.dtype
    if weight is None:
        weight = torch.ones(channels, dtype=dtype)
    if bias is None:
        bias = torch.zeros(channels, dtype=dtype)
    if running_mean is None or running_var is None or training:
        raise unsupported("batch_norm with batch statistics (export in eval mode)")
    return g.op("BatchNormalization", input, weight, bias, running_mean, running_var,
                epsilon_f=float(eps))  # fmt: skip


def _normalized_axes(input, normalized_shape) -> list[int]:
    rank = rank_of(input)
    return list(range(rank - len(ints(normalized_shape)), rank))


@symbolic("layer_norm", since=17)
def layer_norm_17(g, input, normalized_shape, weight=None, bias=None, eps=1e-05, *_ignored):
    axes = _normalized_axes(input, normalized_shape)
    if weight is None:
        weight = torch.ones(ints(normalized_shape), dtype=g.out_dtype())
    return g.op("LayerNormalization", input, weight, bias, axis_i=axes[0], epsilon_f=float(eps))


@symbolic("layer_norm")
def layer_norm(g, input, normalized_shape, weight=None, bias=None, eps=1e-05, *_ignored):
    # below opset 17: (x - mean) / sqrt(var + eps) * weight + bias, written out
    axes = _normalized_axes(input, normalized_shape)
    dtype = g.out_dtype()
    centered = g.op("Sub", input, g.reduce("ReduceMean", input, axes, keepdims=True))
    variance = g.reduce("ReduceMean", g.op("Mul", centered, centered), axes, keepdims=True)
    std = g.op("Sqrt", g.op("Add", variance, g.constant(float(eps), dtype)))
    out = g.op("Div", centered, std)
    if weight is not None:
        out = g.op("Mul", out, weight)
    if bias is not None:
        out = g.op("Add", out, bias)
    return out


@symbolic("group_norm")
def group_norm(g, input, num_groups, weight=None, bias=None, eps=1e-05, *_ignored):
    # normalise each group of channels: reshape to (N, groups, -1), then scale per channel
    sizes = sizes_of(input)
    dtype = g.out_dtype()
    grouped = g.op("Reshape", input, g.int64s([0, int(num_groups), -1]))
    centered = g.op("Sub", grouped, g.reduce("ReduceMean", grouped, [2], keepdims=True))
    variance = g.reduce("ReduceMean", g.op("Mul", centered, centered), [2], keepdims=True)
    normed = g.op(
        "Div", centered, g.op("Sqrt", g.op("Add", variance, g.constant(float(eps), dtype)))
    )
    out = g.op("Reshape", normed, g.op("Shape", input))
    per_channel = [1, sizes[1]] + [1] * (len(sizes) - 2)
    if weight is not None:
        out = g.op("Mul", out, g.op("Reshape", weight, g.int64s(per_channel)))
    if bias is not None:
        out = g.op("Add", out, g.op("Reshape", bias, g.int64s(per_channel)))
    return out


# --------------------------------------------------------------------------- dropout


def _dropout(g: GraphContext, input, p, training):
    if not training or p == 0:
        return input  # eval: identity, no node
    out, _mask = g.op("Dropout", input, g.constant(float(p), g.out_dtype()),
                      g.constant(True), outputs=2)  # fmt: skip
    return out


@symbolic("dropout", "alpha_dropout", "feature_alpha_dropout", "feature_dropout", "dropout1d",
          "dropout2d", "dropout3d")  # fmt: skip
def dropout(g, input, p=0.5, training=True, inplace=False, train=None):
    if train is not None:  # core's dropout op names it ``train``
        training = train
    return _dropout(g, input, p, training)


# ------------------------------------------------------------------ embedding, softmax


@symbolic("embedding")
def embedding(g, input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):  # fmt: skip
    if max_norm is not None:
        raise unsupported("embedding with max_norm (it renormalises the weight in place)")
    return g.op("Gather", weight, input, axis_i=0)


def _softmax(op_type: str):
    def translate(g, input, dim=None, _stacklevel=3, dtype=None):
        if dim is None:
            raise unsupported(f"{op_type} without dim")
        if dtype is not None:
            input = g.cast(input, dtype)
        return g.op(op_type, input, axis_i=normalize_dim(int(dim), rank_of(input)))

    return translate


symbolic("softmax")(_softmax("Softmax"))
symbolic("log_softmax")(_softmax("LogSoftmax"))


# --------------------------------------------------------------------------- pooling


def _pool(g: GraphContext, op_type: str, input, nd: int, **attributes):
    """Pool ``input`` (batched or not) with ONNX ``op_type``."""
    unbatched = rank_of(input) == nd + 1
    if unbatched:
        input = g.unsqueeze(input, [0])
    out = g.op(op_type, input, **attributes)
    return g.squeeze(out, [0]) if unbatched else out


def _max_pool(g, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nd):
    if return_indices:
        raise unsupported("max pooling with return_indices")
    kernel = ints(kernel_size, nd)
    stride = ints(stride, nd) if stride not in (None, [], ()) else kernel
    pads = ints(padding, nd)
    return _pool(g, "MaxPool", input, nd, kernel_shape_i=kernel, strides_i=stride,
                 pads_i=pads + pads, dilations_i=ints(dilation, nd),
                 ceil_mode_i=int(ceil_mode))  # fmt: skip


def _avg_pool(g, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override, nd):  # fmt: skip
    if divisor_override is not None:
        raise unsupported("average pooling with divisor_override")
    kernel = ints(kernel_size, nd)
    stride = ints(stride, nd) if stride not in (None, [], ()) else kernel
    pads = ints(padding, nd)
    return _pool(g, "AveragePool", input, nd, kernel_shape_i=kernel, strides_i=stride,
                 pads_i=pads + pads, ceil_mode_i=int(ceil_mode),
                 count_include_pad_i=int(count_include_pad))  # fmt: skip


def _max_pool_nd(nd: int):
    def translate(g, input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                  return_indices=False):  # fmt: skip
        return _max_pool(g, input, kernel_size, stride, padding, dilation, ceil_mode,
                         return_indices, nd)  # fmt: skip

    return translate


def _avg_pool_nd(nd: int):
    def translate(g, input, kernel_size, stride=None, padding=0, ceil_mode=False,
                  count_include_pad=True, divisor_override=None):  # fmt: skip
        return _avg_pool(g, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                         divisor_override, nd)  # fmt: skip

    return translate


for _nd in (1, 2, 3):
    symbolic(f"max_pool{_nd}d")(_max_pool_nd(_nd))
    symbolic(f"avg_pool{_nd}d")(_avg_pool_nd(_nd))


@symbolic("max_pool")  # core's op: (input, kernel, stride, padding, dilation, ceil, indices, nd)
def max_pool(g, input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
             return_indices=False, nd=2):  # fmt: skip
    return _max_pool(g, input, kernel_size, stride, padding, dilation, ceil_mode,
                     return_indices, nd)  # fmt: skip


@symbolic("avg_pool")
def avg_pool(g, input, kernel_size, stride=None, padding=0, ceil_mode=False,
             count_include_pad=True, divisor_override=None, nd=2):  # fmt: skip
    return _avg_pool(g, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, nd)  # fmt: skip


def _adaptive(g, input, output_size, nd: int, kind: str):
    """Adaptive pooling: global pooling to 1, or fixed windows where the input size is a
    multiple of the output size."""
    spatial = list(sizes_of(input)[-nd:])
    wanted = [s if o is None else int(o) for s, o in zip(spatial, ints_or_none(output_size, nd))]
    if all(o == 1 for o in wanted):
        return _pool(g, f"Global{kind}Pool", input, nd)
    if any(s % o for s, o in zip(spatial, wanted)):
        raise unsupported(
            f"adaptive {kind.lower()} pooling from {spatial} to {wanted} (sizes not multiples)"
        )
    kernel = [s // o for s, o in zip(spatial, wanted)]
    return _pool(g, f"{kind}Pool", input, nd, kernel_shape_i=kernel, strides_i=kernel)


def ints_or_none(value, nd: int) -> list:
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value] * nd


def _adaptive_nd(nd: int, kind: str):
    def translate(g, input, output_size, return_indices=False):
        if return_indices:
            raise unsupported("adaptive max pooling with return_indices")
        return _adaptive(g, input, output_size, nd, kind)

    return translate


for _nd in (1, 2, 3):
    symbolic(f"adaptive_avg_pool{_nd}d")(_adaptive_nd(_nd, "Average"))
    symbolic(f"adaptive_max_pool{_nd}d")(_adaptive_nd(_nd, "Max"))


@symbolic("adaptive_avg_pool")
def adaptive_avg_pool(g, input, output_size, nd=2):
    return _adaptive(g, input, output_size, nd, "Average")


@symbolic("adaptive_max_pool")
def adaptive_max_pool(g, input, output_size, return_indices=False, nd=2):
    return _adaptive_nd(nd, "Max")(g, input, output_size, return_indices)


# --------------------------------------------------------------------------- padding

_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
              "circular": "wrap"}  # fmt: skip


@symbolic("pad")
def pad(g, input, pad, mode="constant", value=None):
    rank = rank_of(input)
    pairs = ints(pad)
    begins, ends = [0] * rank, [0] * rank
    for i in range(len(pairs) // 2):  # PyTorch's pairs start at the last dimension
        begins[rank - 1 - i], ends[rank - 1 - i] = pairs[2 * i], pairs[2 * i + 1]
    onnx_mode = _PAD_MODES[mode]
    if onnx_mode == "wrap" and g.opset < 19:
        from ..errors import UnsupportedOperatorError

        raise UnsupportedOperatorError("aten::pad(mode='circular')", g.opset, 19)
    fill = None
    if mode == "constant":
        fill = g.constant(0 if value is None else value, g.out_dtype())
    return g.op("Pad", input, g.int64s(begins + ends), fill, mode_s=onnx_mode)


# ---------------------------------------------------------------------- upsampling


@symbolic("interpolate", "upsample")
def interpolate(g, input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):  # fmt: skip
    if antialias:
        raise unsupported("interpolate with antialias")
    nd = rank_of(input) - 2
    out_sizes = list(g.out_sizes() or ())
    in_sizes = list(sizes_of(input))
    scales = [1.0, 1.0] + [o / i for o, i in zip(out_sizes[2:], in_sizes[2:])]
    if scale_factor is not None and size is None:
        scales = [1.0, 1.0] + [float(s) for s in ints_or_none(scale_factor, nd)]
    onnx_mode = {"nearest": "nearest", "bilinear": "linear", "linear": "linear",
                 "trilinear": "linear", "bicubic": "cubic"}.get(mode)  # fmt: skip
    if onnx_mode is None:
        raise unsupported(f"interpolate mode {mode!r}")
    if onnx_mode == "nearest":
        transform, extra = "asymmetric", {"nearest_mode_s": "floor"}
    elif align_corners:
        transform, extra = "align_corners", {}
    else:
        transform, extra = "pytorch_half_pixel", {}
    if onnx_mode == "cubic":
        extra["cubic_coeff_a_f"] = -0.75
    return g.op("Resize", input, None, g.constant(torch.tensor(scales, dtype=torch.float32)),
                mode_s=onnx_mode, coordinate_transformation_mode_s=transform, **extra)  # fmt: skip
