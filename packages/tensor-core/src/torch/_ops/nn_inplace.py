"""The in-place neural-network functions of the ``torch`` namespace (``torch.selu_``,
``torch.dropout_``, ``torch.threshold_``, ``torch.embedding_renorm_``, ...) and a few
more ATen entry points PyTorch exports there (``torch.bilinear``,
``torch.channel_shuffle``, ``torch.native_dropout``, ``torch.conv_tbc``,
``torch.grid_sampler_2d``, ``torch.native_group_norm``).

Each in-place form computes its out-of-place op of ``nn_functional`` and writes the
result into its input; when autograd records the write, the out-of-place op is
recorded on a snapshot of the input (as the other in-place ops of the core). The random
ones draw their mask once, so the recorded history uses the same mask as the value."""

from __future__ import annotations

import numpy as np

from .. import _grad_mode
from .._tensor import Tensor
from . import nn_functional as nnf
from ._dispatch import adopt_history, check_inplace, defop
from .nn_functional import _refuse_integer
from .pointwise import _cast_error, _snapshot, can_cast

__all__ = [
    "celu_",
    "selu_",
    "threshold_",
    "rrelu_",
    "dropout_",
    "feature_dropout_",
    "alpha_dropout_",
    "feature_alpha_dropout_",
    "embedding_renorm_",
    "bilinear",
    "channel_shuffle",
    "native_channel_shuffle",
    "native_dropout",
    "grid_sampler_2d",
    "grid_sampler_3d",
    "conv_tbc",
    "native_group_norm",
]


def _t():
    import torch

    return torch


def _write(self: Tensor, compute) -> Tensor:
    """Write ``compute(self)`` into ``self``; ``compute`` is deterministic (a random op
    passes a closure over the mask it drew)."""
    recording = check_inplace(self)
    snapshot = _snapshot(self) if recording else None
    with _grad_mode.no_grad():
        result = compute(self)
    if not can_cast(result._dtype, self._dtype):
        raise _cast_error(result._dtype, self)
    if result is not self:
        np.copyto(self._np, result._np, casting="unsafe")
        self._bump_version()
    if recording:
        adopt_history(self, compute(snapshot))
    return self


# ----------------------------------------------------------------- activations


@defop("celu_")
def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place ``torch.celu``."""
    _refuse_integer(input, "elu_cpu")
    return _write(input, lambda x: nnf.celu(x, alpha))


@defop("selu_")
def selu_(input: Tensor) -> Tensor:
    """In-place ``torch.selu``."""
    _refuse_integer(input, "elu_cpu")
    return _write(input, nnf.selu)


@defop("threshold_")
def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """In-place ``torch.threshold``: elements not above ``threshold`` become
    ``value``."""
    return _write(input, lambda x: nnf.threshold(x, threshold, value))


@defop("rrelu_")
def rrelu_(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    generator=None,
) -> Tensor:
    """In-place ``torch.rrelu``; in training the slopes are drawn once."""
    _refuse_integer(input, "leaky_relu_cpu")
    if not training:
        return _write(input, lambda x: nnf.rrelu(x, lower, upper, False))
    slope = nnf._rrelu_training_slope(input, lower, upper, generator)
    return _write(input, lambda x: x * slope)


# ---------------------------------------------------------------------- dropout


def _dropout_into(input: Tensor, mask_shape, p: float, train: bool, alpha: bool) -> Tensor:
    if nnf._kept_whole(p, train):
        return input
    if alpha:
        # NOTE: the mask is drawn here once; _alpha_drop would draw a new one per call
        keep = nnf._keep_mask(mask_shape, p, input.dtype)
        alpha_prime = -1.7580993408473766
        a = (1 - p + p * alpha_prime**2 * (1 - p)) ** -0.5
        b = -a * alpha_prime * p
        return _write(input, lambda x: (x * keep + alpha_prime * (1 - keep)) * a + b)
    if p == 1:
        return _write(input, lambda x: x * 0)
    keep = nnf._keep_mask(mask_shape, p, input.dtype)
    return _write(input, lambda x: x * keep / (1 - p))


def _inplace_dropout(name: str, feature: bool, alpha: bool, doc: str):
    """The in-place dropout ``name``: of whole channels with ``feature``, keeping the mean
    and variance (SELU's alpha dropout) with ``alpha``."""

    def function(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
        mask_shape = nnf._channel_shape(input) if feature else tuple(input.shape)
        return _dropout_into(input, mask_shape, p, train, alpha=alpha)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return defop(name, function)


dropout_ = _inplace_dropout("dropout_", False, False, "In-place ``torch.dropout``.")
feature_dropout_ = _inplace_dropout(
    "feature_dropout_",
    True,
    False,
    "In-place ``torch.feature_dropout`` (whole channels of each sample).",
)
alpha_dropout_ = _inplace_dropout(
    "alpha_dropout_", False, True, "In-place ``torch.alpha_dropout``."
)
feature_alpha_dropout_ = _inplace_dropout(
    "feature_alpha_dropout_", True, True, "In-place ``torch.feature_alpha_dropout``."
)


@defop("native_dropout")
def native_dropout(input: Tensor, p: float, train) -> tuple:
    """``(output, mask)``: dropout and the boolean mask of the kept elements. ``train``
    of None counts as training, as in PyTorch."""
    torch = _t()
    if train is False or p == 0:
        return input.clone(), torch.ones(tuple(input.shape), dtype=torch.bool)
    nnf._kept_whole(p, True)  # PyTorch's check of p
    keep = nnf._keep_mask(tuple(input.shape), p, input.dtype)
    scale = 0.0 if p == 1 else 1.0 / (1 - p)
    return input * keep * scale, keep.bool()


# ------------------------------------------------------------------- embedding


@defop("embedding_renorm_")
def embedding_renorm_(weight: Tensor, indices: Tensor, max_norm: float, norm_type: float):
    """Rescale in place each row of ``weight`` named in ``indices`` whose ``norm_type``
    norm exceeds ``max_norm`` to norm ``max_norm`` (no gradient: a weight update)."""
    torch = _t()
    if indices.dtype not in (torch.int64, torch.int32):
        raise RuntimeError(
            "Expected tensor for argument #2 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {indices.type()} instead (while checking arguments "
            "for embedding_renorm_)"
        )
    with torch.no_grad():
        rows = torch.unique(indices.reshape(-1))
        norms = torch.linalg.vector_norm(weight[rows], ord=norm_type, dim=-1)
        over = norms > max_norm
        if bool(over.any()):
            picked = rows[over]
            scale = max_norm / (norms[over] + 1e-7)
            weight[picked] = weight[picked] * scale.unsqueeze(-1).to(weight.dtype)
    return weight


# ------------------------------------------------------------ bilinear, shuffle


@defop("bilinear")
def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias=None) -> Tensor:
    """``y[..., o] = x1[..., i] W[o, i, j] x2[..., j] + b[o]``."""
    torch = _t()
    if input1.dim() != input2.dim():
        raise RuntimeError(
            f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}"
        )
    _check_bilinear_sizes(input1, input2, weight, bias)
    for dim in range(input1.dim() - 1):
        if input1.shape[dim] != input2.shape[dim]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {dim}: got "
                f"{input1.shape[dim]} and {input2.shape[dim]}"
            )
    out = torch.einsum("...i,oij,...j->...o", input1, weight, input2)
    return out if bias is None else out + bias


def _check_bilinear_sizes(input1, input2, weight, bias) -> None:
    checks = [("input1", input1.shape[-1], 1), ("input2", input2.shape[-1], 2)]
    if bias is not None:
        checks.append(("bias", bias.shape[-1], 0))
    for name, got, dim in checks:
        expected = weight.shape[dim] if dim < weight.dim() else None
        if got != expected:
            raise RuntimeError(
                f"bilinear(): {name} size does not match weight size: got {got} but "
                f"expected {expected}"
            )


def _shuffle(input: Tensor, groups: int) -> Tensor:
    if input.dim() < 3:
        raise RuntimeError(
            "channel_shuffle expects input with > 2 dims, but got input with sizes "
            f"{list(input.shape)}"
        )
    if groups <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    channels = input.shape[1]
    if channels % groups:
        raise RuntimeError(
            "Number of channels must be divisible by groups. Got "
            f"{channels} channels and {groups} groups."
        )
    n, rest = input.shape[0], tuple(input.shape[2:])
    grouped = input.reshape(n, groups, channels // groups, *rest)
    return grouped.transpose(1, 2).reshape(tuple(input.shape))


@defop("channel_shuffle")
def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Split the channels (dim 1) into ``groups`` groups and interleave them."""
    return _shuffle(input, groups)


@defop("native_channel_shuffle")
def native_channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """``torch.channel_shuffle`` (PyTorch's kernel without the autograd wrapper)."""
    return _shuffle(input, groups)


# -------------------------------------------- ATen forms of grid sampling, conv, norm


def _grid_sampler_of(dims: int):
    def sampler(input, grid, interpolation_mode: int, padding_mode: int, align_corners: bool):
        if input.dim() != dims + 2 or grid.dim() != dims + 2:
            raise RuntimeError(
                f"grid_sampler(): expected {dims + 2}D input and grid with same number of "
                f"dimensions, but got input with sizes {list(input.shape)} and grid with "
                f"sizes {list(grid.shape)}"
            )
        return _t().grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)

    sampler.__name__ = sampler.__qualname__ = f"grid_sampler_{dims}d"
    sampler.__doc__ = f"``torch.grid_sampler`` for {dims + 2}-D input only (ATen's integer modes)."
    return sampler


grid_sampler_2d = defop("grid_sampler_2d", _grid_sampler_of(2))
grid_sampler_3d = defop("grid_sampler_3d", _grid_sampler_of(3))


@defop("conv_tbc")
def conv_tbc(input: Tensor, weight: Tensor, bias: Tensor, pad: int = 0) -> Tensor:
    """1-D convolution in time-batch-channel layout: ``input`` (time, batch, in),
    ``weight`` (width, in, out), ``bias`` (out); zero padding ``pad`` on both ends of
    time. Returns (time', batch, out)."""
    if input.dim() != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.dim() != 3:
        raise RuntimeError(
            "Weight tensor must have 3 dims: kernel_width, in_channels, out_channels."
        )
    if bias.dim() != 1:
        raise RuntimeError("Bias must be 1-D")
    if input.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if weight.shape[2] != bias.shape[0]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    torch = _t()
    out = torch.conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, padding=pad)
    return out.permute(2, 0, 1)


@defop("native_group_norm")
def native_group_norm(input, weight, bias, N: int, C: int, HxW: int, group: int, eps: float):  # noqa: N803 - PyTorch's names
    """``(output, mean, rstd)`` of group norm; ``mean`` and ``rstd`` (1 / std) are per
    sample and group, shape (N, group)."""
    torch = _t()
    output = torch.group_norm(input, group, weight, bias, eps)
    with torch.no_grad():
        grouped = input.detach().reshape(N, group, -1)
        mean = grouped.mean(-1)
        rstd = torch.rsqrt(grouped.var(-1, unbiased=False) + eps)
    return output, mean, rstd
