"""The neural-network functions PyTorch also has at the top level (``torch.layer_norm``,
``torch.native_batch_norm``, ``torch.dropout``, ``torch.selu``, ``torch.rrelu``,
``torch.constant_pad_nd``, ``torch.embedding_bag``, the recurrent cells, ...), written
once on top of core ops (so autograd differentiates them through their parts):
normalisation, dropout, embedding, two losses, activations, constant padding.
torch-nn's ``nn.functional`` reaches the registered ones through the op registry
(``ops["layer_norm"].function``, ...); the functions that exist only in
``torch.nn.functional`` (``gelu``, ``pad``, ``mse_loss``, ...) are torch-nn's own."""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype, _grad_mode
from .._tensor import Tensor
from . import nn_fused
from ._dispatch import defop, kernel_refusal, refuse_complex

__all__ = [
    "layer_norm",
    "batch_norm",
    "group_norm",
    "instance_norm",
    "native_layer_norm",
    "native_batch_norm",
    "dropout",
    "feature_dropout",
    "alpha_dropout",
    "feature_alpha_dropout",
    "embedding",
    "embedding_bag",
    "selu",
    "celu",
    "prelu",
    "rrelu",
    "threshold",
    "hardshrink",
    "binary_cross_entropy_with_logits",
    "kl_div",
    "constant_pad_nd",
    "lstm_cell",
    "gru_cell",
    "rnn_tanh_cell",
    "rnn_relu_cell",
]


def _composite(function=None, /, **declaration):
    """Declare ``torch.<name>`` (see :func:`defop`) and register it as a composite: an
    op-registry entry whose gradient comes from its parts (torch-nn looks some up)."""
    if function is None:
        return lambda f: _composite(f, **declaration)
    return defop(function.__name__, function, registered=True, **declaration)


def _t():
    import torch

    return torch


# ------------------------------------------------------------------ normalisation


@_composite
def layer_norm(input: Tensor, normalized_shape, weight=None, bias=None, eps: float = 1e-5):
    """Normalise over the last ``len(normalized_shape)`` dims, then scale and shift."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[-len(shape) :]) != shape:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(map(str, shape))}], but got input of size"
            f"{list(input.shape)}"
        )
    fused = nn_fused.layer_norm(input, shape, weight, bias, eps)  # one op, native rows
    if fused is not None:
        return fused
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    return _in_input_dtype(_normalize(input, dims, weight, bias, eps), input)


def _in_input_dtype(out: Tensor, input: Tensor) -> Tensor:
    """PyTorch's mixed-type CPU norms: a bfloat16/float16 input with float32 parameters
    (autocast's usual case) gives a result of the input's dtype."""
    dtype = input._dtype
    if out._dtype is not dtype and dtype.is_floating_point and dtype.itemsize == 2:
        return out.to(input._dtype)
    return out


def _normalize(x, dims, weight, bias, eps, weight_shape=None):
    torch = _t()
    mean = x.mean(dims, keepdim=True)
    centred = x - mean
    var = (centred * centred).mean(dims, keepdim=True)
    out = centred * torch.rsqrt(var + eps)
    if weight is not None:
        out = out * (weight if weight_shape is None else weight.reshape(weight_shape))
    if bias is not None:
        out = out + (bias if weight_shape is None else bias.reshape(weight_shape))
    return out


@_composite
def batch_norm(
    input: Tensor,
    running_mean,
    running_var,
    weight=None,
    bias=None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
):
    """Normalise each channel (dim 1) over the batch and spatial dims: with the batch's
    statistics when ``training`` (and update the running ones in place, the variance
    unbiased), else with the running statistics."""
    torch = _t()
    if input.dim() < 2:
        raise ValueError(f"expected 2D or more input (got {input.dim()}D input)")
    channels = input.shape[1]
    shape = (1, channels) + (1,) * (input.dim() - 2)
    dims = (0,) + tuple(range(2, input.dim()))
    count = input.numel() // channels
    if training:
        if count <= 1:
            raise ValueError(
                f"Expected more than 1 value per channel when training, got "
                f"input size {input.shape}"
            )
        if (running_mean is None) == (running_var is None):
            fused = nn_fused.batch_norm(
                input, running_mean, running_var, weight, bias, momentum, eps
            )
            if fused is not None:  # one op: native statistics, application and backward
                return fused
        mean = input.mean(dims, keepdim=True)
        centred = input - mean
        var = (centred * centred).mean(dims, keepdim=True)
        if running_mean is not None:
            with _grad_mode.no_grad():
                running_mean.mul_(1 - momentum).add_(mean.reshape(channels) * momentum)
                unbiased = (centred * centred).sum(dims) / (count - 1)
                running_var.mul_(1 - momentum).add_(unbiased * momentum)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
        mean, var = running_mean.reshape(shape), running_var.reshape(shape)
        centred = input - mean
    out = centred * torch.rsqrt(var + eps)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return _in_input_dtype(out, input)


@_composite(refuses_complex={"": kernel_refusal("GroupNormKernelImpl")})
def group_norm(input: Tensor, num_groups: int, weight=None, bias=None, eps: float = 1e-5):
    """Normalise groups of channels over their channels and spatial dims."""
    n, channels = input.shape[0], input.shape[1]
    if channels % num_groups:
        raise RuntimeError(
            f"Expected number of channels in input to be divisible by "
            f"num_groups, but got input of shape {list(input.shape)} and "
            f"num_groups={num_groups}"
        )
    # NOTE: PyTorch's message for a bad bias shows the weight's shape ([0] without one)
    shown = list(weight.shape) if weight is not None else [0]
    for name, parameter in (("weight", weight), ("bias", bias)):
        if parameter is not None and (parameter.dim() != 1 or parameter.numel() != channels):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in "
                f"input, but got {name} of shape {shown} and input of shape "
                f"{list(input.shape)}"
            )
    _group_norm_dtypes(input, weight, bias)
    per_group = channels // num_groups * math.prod(input.shape[2:])
    grouped = input.reshape(n, num_groups, per_group)
    out = _normalize(grouped, (2,), None, None, eps).reshape(input.shape)
    shape = (1, channels) + (1,) * (input.dim() - 2)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out if out.dtype is input.dtype else out.to(input.dtype)


def _group_norm_dtypes(input: Tensor, weight, bias) -> None:
    """PyTorch's dtype checks of group_norm's CPU kernel: parameters of another dtype than
    the input are allowed only as float32 ones of a float16/bfloat16 input ("mixed
    dtype"); then the kernel takes floating inputs only, and parameters of its dtype."""
    parameters = [p for p in (weight, bias) if p is not None]
    if parameters and parameters[0]._dtype is not input._dtype:
        if any(p._dtype is not _dtype.float32 for p in parameters):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if input._dtype not in (_dtype.float16, _dtype.bfloat16):
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return
    refuse_complex("group_norm", input._dtype)
    if input._dtype._category < 2:
        raise NotImplementedError(
            f"\"GroupNormKernelImpl\" not implemented for '{input._dtype._legacy[:-6]}'"
        )
    for p in parameters:
        if p._dtype is not input._dtype:
            raise RuntimeError(
                f"expected scalar type {input._dtype._legacy[:-6]} but found "
                f"{p._dtype._legacy[:-6]}"
            )


@_composite
def instance_norm(
    input: Tensor,
    running_mean=None,
    running_var=None,
    weight=None,
    bias=None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
):
    """Normalise each sample's channels over their spatial dims."""
    dims = tuple(range(2, input.dim()))
    if not use_input_stats:
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    if running_mean is not None:
        with _grad_mode.no_grad():
            flat = input.reshape(1, -1, *input.shape[2:])
            count = math.prod(input.shape[2:])
            mean = flat.mean((0,) + tuple(range(2, flat.dim())))
            centred = flat - mean.reshape(1, -1, *([1] * (flat.dim() - 2)))
            var = (centred * centred).mean((0,) + tuple(range(2, flat.dim())))
            channels = input.shape[1]
            running_mean.mul_(1 - momentum).add_(mean.reshape(-1, channels).mean(0) * momentum)
            running_var.mul_(1 - momentum).add_(
                var.reshape(-1, channels).mean(0) * (momentum * count / max(count - 1, 1))
            )
    shape = (1, input.shape[1]) + (1,) * (input.dim() - 2)
    return _normalize(input, dims, weight, bias, eps, shape)


@defop("native_layer_norm")
def native_layer_norm(input, normalized_shape, weight, bias, eps: float):
    """``(output, mean, rstd)`` of layer normalisation over the trailing
    ``normalized_shape`` dims (mean and rstd keep those dims as size 1)."""
    torch = _t()
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    mean = input.mean(dims, keepdim=True)
    rstd = 1 / torch.sqrt(input.var(dims, unbiased=False, keepdim=True) + eps)
    out = (input - mean) * rstd
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out, mean, rstd


@defop("native_batch_norm", out=True)
def native_batch_norm(
    input, weight, bias, running_mean, running_var, training: bool, momentum: float, eps: float
):
    """``(output, save_mean, save_invstd)`` of batch normalisation over all dims but 1;
    in training the running statistics (if given) are updated in place, in evaluation the
    saved statistics are empty."""
    torch = _t()
    dims = tuple(d for d in range(input.dim()) if d != 1)
    shape = [1] * input.dim()
    shape[1] = -1
    if training:
        mean = input.mean(dims)
        var = input.var(dims, unbiased=False)
        invstd = 1 / torch.sqrt(var + eps)
        with torch.no_grad():
            count = input.numel() // input.shape[1]
            if running_mean is not None:
                running_mean.mul_(1 - momentum).add_(mean.detach() * momentum)
            if running_var is not None:
                unbiased = var.detach() * (count / max(count - 1, 1))
                running_var.mul_(1 - momentum).add_(unbiased * momentum)
        out = (input - mean.reshape(shape)) * invstd.reshape(shape)
        saved = (mean, invstd)
    else:
        out = (input - running_mean.reshape(shape)) / torch.sqrt(running_var.reshape(shape) + eps)
        empty = torch.empty(0, dtype=input.dtype)
        saved = (empty, empty.clone())
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return (out, *saved)


# ----------------------------------------------------------------------- dropout


def _keep_mask(shape, p, dtype, generator=None):
    torch = _t()
    return torch.empty(shape, dtype=dtype).bernoulli_(1 - p, generator=generator)


def _kept_whole(p: float, train: bool) -> bool:
    """Whether dropout leaves its input as it is (after PyTorch's check of ``p``)."""
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    return not train or p == 0


def _channel_shape(input: Tensor) -> tuple:
    """The mask shape that drops whole channels (dim 1) of each sample."""
    return tuple(input.shape[:2]) + (1,) * (input.dim() - 2)


def _alpha_drop(input: Tensor, shape, p: float) -> Tensor:
    """Alpha dropout with a keep mask of ``shape``: dropped values go to SELU's negative
    saturation, then an affine map restores the mean and variance."""
    alpha_prime = -1.7580993408473766  # -selu_scale * selu_alpha
    keep = _keep_mask(shape, p, input.dtype)
    a = (1 - p + p * alpha_prime**2 * (1 - p)) ** -0.5
    b = -a * alpha_prime * p
    return (input * keep + alpha_prime * (1 - keep)) * a + b


@_composite
def dropout(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``
    when ``train``."""
    if _kept_whole(p, train):
        return input
    if p == 1:
        return input * 0
    return input * _keep_mask(input.shape, p, input.dtype) / (1 - p)


@_composite
def feature_dropout(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
    """Dropout of whole channels (dim 1) of each sample."""
    if _kept_whole(p, train):
        return input
    return input * _keep_mask(_channel_shape(input), p, input.dtype) / (1 - p)


@_composite
def alpha_dropout(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
    """Dropout that keeps the mean and variance of SELU activations."""
    if _kept_whole(p, train):
        return input
    return _alpha_drop(input, input.shape, p)


@defop("feature_alpha_dropout")
def feature_alpha_dropout(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
    """Alpha dropout of whole channels (dim 1): the SELU-preserving variant of
    ``feature_dropout``."""
    if _kept_whole(p, train):
        return input
    return _alpha_drop(input, _channel_shape(input), p)


# --------------------------------------------------------------------- embedding


@_composite
def embedding(
    weight: Tensor,
    indices: Tensor,
    padding_idx: int = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Rows of ``weight`` at ``indices``; rows at ``padding_idx`` get no gradient."""
    if indices.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError(
            f"Expected tensor for argument #1 'indices' to have one of the "
            f"following scalar types: Long, Int; but got "
            f"{indices.type()} instead (while checking arguments for "
            f"embedding)"
        )
    rows = weight[indices]
    if padding_idx is not None and padding_idx >= 0 and weight.requires_grad:
        # NOTE: same values, but the padding rows' gradient is cut
        pad = (indices == padding_idx).unsqueeze(-1)
        rows = _t().where(pad, rows.detach(), rows)
    return rows


# ------------------------------------------------------------------------ losses


def _reduce(loss, reduction: str):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _softplus(input, beta: float = 1.0, threshold: float = 20.0):
    """log(1 + exp(beta x)) / beta, linear where beta x > threshold (``F.softplus`` is
    torch-nn's; this copy serves binary_cross_entropy_with_logits)."""
    torch = _t()
    scaled = input * beta
    soft = torch.log1p(torch.exp(-torch.abs(scaled))) + torch.clamp(scaled, min=0)
    return torch.where(scaled > threshold, input, soft / beta)


@_composite
def binary_cross_entropy_with_logits(
    input,
    target,
    weight=None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    pos_weight=None,
):
    """Binary cross-entropy of ``sigmoid(input)``, computed stably from the logits."""
    log_sig = -_softplus(-input)
    log_one_minus = -_softplus(input)
    positive = target * log_sig if pos_weight is None else target * pos_weight * log_sig
    loss = -(positive + (1 - target) * log_one_minus)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@_composite
def kl_div(
    input, target, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False
):
    """KL divergence with ``input`` as log-probabilities."""
    torch = _t()
    if log_target:
        loss = torch.exp(target) * (target - input)
    else:
        loss = torch.where(target > 0, target * (torch.log(target) - input), 0.0)
    if reduction == "batchmean":
        return loss.sum() / input.shape[0]
    return _reduce(loss, reduction)


# ------------------------------------------------------------------- activations


def _refuse_integer(input: Tensor, kernel: str) -> None:
    """PyTorch's error where its kernel has no integer or bool form."""
    if not (input._dtype.is_floating_point or input._dtype.is_complex):
        kind = input._dtype._legacy[:-6]
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{kind}'")


# celu and selu refuse complex input as elu's kernel does (the one PyTorch runs)
@_composite(refuses_complex=kernel_refusal("elu_cpu"), complex_operands=1)
def celu(input, alpha: float = 1.0):
    """x above 0, alpha * (exp(x / alpha) - 1) below."""
    _refuse_integer(input, "elu_cpu")
    torch = _t()
    return torch.where(input > 0, input, alpha * torch.expm1(input / alpha))


_SELU_ALPHA = 1.6732632423543772
_SELU_SCALE = 1.0507009873554805


@_composite(refuses_complex=kernel_refusal("elu_cpu"), complex_operands=1)
def selu(input):
    """scale * elu(x, alpha) with the self-normalising constants."""
    _refuse_integer(input, "elu_cpu")
    torch = _t()
    return _SELU_SCALE * torch.where(input > 0, input, _SELU_ALPHA * torch.expm1(input))


def _prelu_method(self: Tensor, weight: Tensor) -> Tensor:
    return prelu(self, weight)


@_composite(method=_prelu_method)
def prelu(input, weight):
    """leaky_relu with a learned slope per channel (dim 1)."""
    shape = (1, -1) + (1,) * (input.dim() - 2) if input.dim() > 1 and weight.numel() > 1 else (-1,)
    return _t().where(input > 0, input, input * weight.reshape(shape))


@defop("rrelu")
def rrelu(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    generator=None,
) -> Tensor:
    """Leaky ReLU with the mean slope ``(lower + upper) / 2``, or when ``training`` a slope
    drawn from U(lower, upper) for each non-positive element (in float64, in order)."""
    torch = _t()
    if not training:  # leaky_relu with the mean slope
        if input._dtype._category == 3:  # as leaky_relu's CPU kernel
            kind = input._dtype._legacy[:-6]
            raise NotImplementedError(f"\"leaky_relu_cpu\" not implemented for '{kind}'")
        return torch.where(input > 0, input, input * ((lower + upper) / 2))
    return input * _rrelu_training_slope(input, lower, upper, generator)


def _rrelu_training_slope(input: Tensor, lower: float, upper: float, generator=None) -> Tensor:
    """``rrelu``'s slopes in training (shared with ``rrelu_``): 1 for positive elements, a
    float64 draw from U(lower, upper) for each other one, in order, in ``input``'s dtype."""
    torch = _t()
    with torch.no_grad():
        negative = input <= 0
        draws = torch.empty(int(negative.sum()), dtype=torch.float64)
        draws.uniform_(lower, upper, generator=generator)
        slope = torch.ones(tuple(input.shape), dtype=input.dtype)
        slope[negative] = draws.to(input.dtype)
    return slope


@_composite(out=True)
def threshold(input, threshold: float, value: float):
    """x where x > threshold, else value (in ``input``'s dtype, as PyTorch's kernel)."""
    torch = _t()
    if input._dtype is _dtype.bool_:
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    if not (input._dtype.is_floating_point or input._dtype.is_complex):
        value = torch.tensor(value).to(input.dtype)
    return torch.where(input > threshold, input, value)


@_composite(
    method=True,
    out=True,
    refuses_complex=kernel_refusal("hardshrink_cpu"),
    complex_operands=1,
)
def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, else 0."""
    torch = _t()
    return torch.where(torch.abs(input) > lambd, input, 0.0)


# ---------------------------------------------------------------------- padding


def _pad_ints(pad) -> tuple:
    if isinstance(pad, Tensor):
        raise TypeError("pad(): argument 'pad' (position 2) must be tuple of ints, not Tensor")
    items = tuple(pad)
    for position, p in enumerate(items):
        if isinstance(p, Tensor) and p.dim() == 0 and not p.dtype.is_floating_point:
            continue
        if not isinstance(p, (int, np.integer)) or isinstance(p, bool):
            raise TypeError(
                "pad(): argument 'pad' (position 2) must be tuple of ints, but found element "
                f"of type {type(p).__name__} at pos {position}"
            )
    return tuple(int(p) for p in items)


def _pad_constant_nd(x, pad, value):
    for k in range(len(pad) // 2):
        x = _pad_constant(x, x.dim() - 1 - k, pad[2 * k], pad[2 * k + 1], value)
    return x


def _pad_constant(x, dim, left, right, value):
    torch = _t()
    if x.shape[dim] + min(left, 0) + min(right, 0) < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if left < 0:
        x = x.narrow(dim, -left, x.shape[dim] + left)
        left = 0
    if right < 0:
        x = x.narrow(dim, 0, x.shape[dim] + right)
        right = 0
    shape = list(x.shape)
    pieces = []
    if left:
        shape[dim] = left
        pieces.append(torch.full(shape, value, dtype=x.dtype))
    pieces.append(x)
    if right:
        shape[dim] = right
        pieces.append(torch.full(shape, value, dtype=x.dtype))
    return torch.cat(pieces, dim) if len(pieces) > 1 else x


@_composite
def constant_pad_nd(input: Tensor, pad, value=0) -> Tensor:
    """``pad(input, pad, "constant", value)``."""
    pad = _pad_ints(pad)
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) > 2 * input.dim():
        raise RuntimeError(
            "Length of pad should be no more than twice the number of dimensions of the input. "
            f"Pad length is {len(pad)}while the input has {input.dim()}dimensions."
        )
    return _pad_constant_nd(input, pad, value)


# ---------------------------------------------------------------- recurrent cells


@_composite
def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""
    return _t().tanh(_linear(input, w_ih, b_ih) + _linear(hx, w_hh, b_hh))


@_composite
def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``relu(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""
    return _t().relu(_linear(input, w_ih, b_ih) + _linear(hx, w_hh, b_hh))


@_composite
def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step: ``hx = (h, c)``; gates in PyTorch's order (input, forget, cell,
    output); returns ``(h', c')``."""
    torch = _t()
    h, c = hx
    gates = _linear(input, w_ih, b_ih) + _linear(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, -1)
    c_next = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c_next), c_next


@_composite
def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU step; gates in PyTorch's order (reset, update, new)."""
    torch = _t()
    x_r, x_z, x_n = _linear(input, w_ih, b_ih).chunk(3, -1)
    h_r, h_z, h_n = _linear(hx, w_hh, b_hh).chunk(3, -1)
    reset = torch.sigmoid(x_r + h_r)
    update = torch.sigmoid(x_z + h_z)
    new = torch.tanh(x_n + reset * h_n)
    return (1 - update) * new + update * hx


def _linear(x, weight, bias):
    out = x @ weight.mT
    return out if bias is None else out + bias


_BAG_MODES = {0: "sum", 1: "mean", 2: "max"}


@_composite
def embedding_bag(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights=None,
    include_last_offset: bool = False,
    padding_idx=None,
):
    """ATen's ``embedding_bag``: ``(output, offset2bag, bag_size, max_indices)`` for 1-D
    ``indices`` split into bags at ``offsets`` (``mode`` 0 sum, 1 mean, 2 max). The other
    three results are what PyTorch's CPU kernel returns beside the output: the bag of each
    index (empty for sums), the bag sizes without padding (zeros for sums), and for max
    the row each maximum came from (for mean, the bag sizes again; for sum, zeros)."""
    if not isinstance(offsets, Tensor):
        raise TypeError(
            "embedding_bag(): argument 'offsets' (position 3) must be Tensor, not "
            f"{type(offsets).__name__}"
        )
    if mode not in _BAG_MODES:
        raise RuntimeError("`mode` must be sum, mean, or max.")
    return embedding_bag_parts(
        weight,
        indices,
        offsets,
        _BAG_MODES[mode],
        per_sample_weights,
        padding_idx,
        include_last_offset,
    )


def _check_bag_arguments(weight, indices, offsets, mode, per_sample_weights, last, padding_idx):
    num = weight.shape[0] if weight.dim() else 0
    if padding_idx is not None and not -num <= padding_idx < num:
        raise RuntimeError(
            f"padding_idx must be within the number of embeddings, -{num} through "
            f"{num - 1}, but got {padding_idx}"
        )
    if offsets.dim() != 1:
        raise RuntimeError(
            f"offsets has to be a 1D Tensor, but got Tensor of dimension {offsets.dim()}"
        )
    for name, t in (("indices", indices), ("offsets", offsets)):
        if t.dtype not in (_dtype.int64, _dtype.int32):
            raise RuntimeError(
                f"Expected tensor for argument #1 '{name}' to have one of the following scalar "
                f"types: Long, Int; but got {t.type()} instead (while checking arguments for "
                "embedding_bag)"
            )
    starts = offsets._np.astype(np.int64)
    n = indices.numel()
    if starts.size:
        if starts[0] != 0:
            raise RuntimeError(
                "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to "
                f"start from position 0. However, got {int(starts[0])}"
            )
        if starts[-1] > n:
            raise RuntimeError(
                f"offsets[-1] can not be greater than input's length {n} but got "
                f"offsets[-1] of {int(starts[-1])}"
            )
    if per_sample_weights is not None:
        if mode != "sum":
            raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
        if per_sample_weights.dtype != weight.dtype:
            raise RuntimeError(
                "Expected tensor for argument #1 'weight' to have the same type as tensor for "
                f"argument #1 'per_sample_weights'; but type {weight.type()} does not equal "
                f"{per_sample_weights.type()} (while checking arguments for embedding_bag)"
            )
    if last and starts.size < 1:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    if starts.size and starts.min() < 0:
        raise IndexError("index out of range in self")
    if starts.size and (np.diff(starts) < 0).any():
        raise RuntimeError(
            "Expected i < index_size to be true, but got false.  (Could this error message be "
            "improved?  If so, please report an enhancement request to PyTorch.)"
        )
    flat = indices._np.reshape(-1).astype(np.int64)
    bad = np.nonzero((flat < 0) | (flat >= num))[0]
    if bad.size:
        raise RuntimeError(
            f"Index {int(bad[0])} of input takes value {int(flat[bad[0]])} which is not in the "
            f"valid range [0, {num})"
        )
    return starts, flat


def embedding_bag_parts(
    weight, indices, offsets, mode, per_sample_weights=None, padding_idx=None, last=False
):
    """``(output, offset2bag, bag_size, max_indices)`` as PyTorch's CPU kernel makes them.

    With ``last`` (include_last_offset) the final offset closes the bag list, but, as in
    PyTorch, the last bag's membership (bag sizes, means' divisors, maxima) runs to the end
    of ``indices``; only sums and means without ``padding_idx`` stop at the last offset."""
    torch = _t()
    starts, flat = _check_bag_arguments(
        weight, indices, offsets, mode, per_sample_weights, last, padding_idx
    )
    n = flat.size
    columns = weight.shape[1]
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    bag_starts = starts[:-1] if last else starts
    bags = bag_starts.size
    if bags:
        bag_of = np.searchsorted(bag_starts, np.arange(n, like=flat), side="right") - 1
    else:  # positions made by the indices' array module: on their device
        bag_of = np.full(n, -1, like=flat)
    bag_of = bag_of.astype(np.int64)
    member = bag_of >= 0
    kept = member & (flat != padding_idx) if padding_idx is not None else member
    counted = kept.copy()
    if last and padding_idx is None and mode != "max" and starts.size:
        counted &= np.arange(n, like=flat) < starts[-1]
    bag_size = np.bincount(bag_of[kept], minlength=bags).astype(np.int64)[:bags]
    offset2bag = Tensor._from_array(np.where(member, bag_of, 0), _dtype.int64)
    sizes = Tensor._from_array(bag_size, _dtype.int64)
    if mode == "max":
        out = torch.zeros(bags, columns, dtype=weight.dtype, device=weight.device)
        best = np.zeros((bags, columns), dtype=np.int64, like=flat)
        if kept.any():
            rows = weight[Tensor._from_array(flat[kept], _dtype.int64)]
            index = Tensor._from_array(np.repeat(bag_of[kept][:, None], columns, 1), _dtype.int64)
            out = out.scatter_reduce(0, index, rows, "amax", include_self=False)
            # the row holding each maximum (the first one on ties, as PyTorch's loop)
            values = weight._np[flat[kept]]
            owner = bag_of[kept]
            for column in range(columns):
                ties = np.arange(values.shape[0], like=flat)[::-1]
                order = np.lexsort((ties, values[:, column], owner))
                last = np.ones(1, dtype=bool, like=flat)
                tail = np.concatenate([owner[order][1:] != owner[order][:-1], last])
                chosen = order[tail]
                best[owner[chosen], column] = flat[kept][chosen]
        return out, offset2bag, sizes, Tensor._from_array(best, _dtype.int64)
    rows = weight[Tensor._from_array(flat[counted], _dtype.int64)]
    if per_sample_weights is not None:
        picked = Tensor._from_array(np.nonzero(counted)[0], _dtype.int64)
        rows = rows * per_sample_weights.reshape(-1)[picked].unsqueeze(-1)
    index = Tensor._from_array(np.repeat(bag_of[counted][:, None], columns, 1), _dtype.int64)
    out = torch.zeros(bags, columns, dtype=weight.dtype, device=weight.device)
    out = out.scatter_add(0, index, rows)
    if mode == "mean":
        divisor = Tensor._from_array(
            np.maximum(bag_size, 1)[:, None].astype(np.int64), _dtype.int64
        )
        out = (out / divisor).to(weight.dtype)
        return out, offset2bag, sizes, sizes.clone()
    zeros = torch.zeros(starts.size, dtype=torch.int64, device=weight.device)
    if padding_idx is None:
        offset2bag = torch.empty(0, dtype=torch.int64, device=weight.device)
    return out, offset2bag, zeros, zeros.clone()
