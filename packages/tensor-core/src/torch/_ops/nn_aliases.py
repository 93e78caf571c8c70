"""``torch.*`` spellings of neural-network functions that PyTorch exposes at the top level
(ATen's signatures: losses take ``reduction`` as an int, 0 none, 1 mean, 2 sum):
distances (``cosine_similarity``, ``pairwise_distance``, ``pdist``), losses
(``margin_ranking_loss``, ``hinge_embedding_loss``, ``cosine_embedding_loss``,
``poisson_nll_loss``, ``triplet_margin_loss``), ``native_layer_norm``,
``native_batch_norm``, ``max_pool1d_with_indices``, ``feature_alpha_dropout``, ``rrelu``,
``hardshrink``, ``grid_sampler``, ``affine_grid_generator``, and ``Tensor.relu_``/
``prelu``/``hardshrink``.

NOTE: composites of core ops (the kernels stay in nn_kernels/nn_functional/resampling),
so gradients follow from those.
"""

from __future__ import annotations

import math

import torch

from .._tensor import Tensor
from . import losses, nn_functional, nn_kernels, resampling
from .gather_scatter import _inplace

__all__ = [
    "cosine_similarity",
    "pairwise_distance",
    "pdist",
    "margin_ranking_loss",
    "hinge_embedding_loss",
    "cosine_embedding_loss",
    "poisson_nll_loss",
    "triplet_margin_loss",
    "ctc_loss",
    "native_layer_norm",
    "native_batch_norm",
    "max_pool1d_with_indices",
    "feature_alpha_dropout",
    "rrelu",
    "hardshrink",
    "grid_sampler",
    "affine_grid_generator",
    "embedding_bag",
]


def _reduce(loss: Tensor, reduction: int) -> Tensor:
    if reduction == 1:
        return loss.mean()
    if reduction == 2:
        return loss.sum()
    return loss


# ------------------------------------------------------------------------ distances


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` (broadcast) along ``dim``; the
    product of the squared norms is clamped below by ``eps ** 2``."""
    dot = (x1 * x2).sum(dim)
    squares = (x1 * x1).sum(dim) * (x2 * x2).sum(dim)
    return dot / torch.sqrt(torch.clamp(squares, min=eps * eps))


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """The ``p``-norm of ``x1 - x2 + eps`` over the last dim."""
    return torch.linalg.vector_norm(x1 - x2 + eps, p, -1, keepdim)


def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """The ``p``-norm distances between every pair of rows ``i < j`` of a matrix, in
    row-major order of the pairs."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    n = input.shape[0]
    first, second = torch.triu_indices(n, n, 1)
    return torch.linalg.vector_norm(input[first] - input[second], p, -1)


# --------------------------------------------------------------------------- losses


def margin_ranking_loss(input1, input2, target, margin: float = 0.0, reduction: int = 1):
    """``max(0, -target * (input1 - input2) + margin)``."""
    return _reduce(torch.clamp(-target * (input1 - input2) + margin, min=0), reduction)


def hinge_embedding_loss(input, target, margin: float = 1.0, reduction: int = 1):
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1."""
    zeros = torch.zeros_like(input)
    below = torch.where(target != 1, torch.clamp(margin - input, min=0), zeros)
    above = torch.where(target != -1, input, zeros)
    return _reduce(below + above, reduction)


def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, reduction: int = 1):
    """``1 - cos`` where ``target`` is 1, ``max(0, cos - margin)`` where it is -1 (cos
    along dim 1, each squared norm offset by 1e-12 as in PyTorch)."""
    dot = (input1 * input2).sum(-1)
    norms = ((input1 * input1).sum(-1) + 1e-12) * ((input2 * input2).sum(-1) + 1e-12)
    cos = dot / torch.sqrt(norms)
    zeros = torch.zeros_like(cos)
    positive = torch.where(target == 1, 1 - cos, zeros)
    negative = torch.where(target == -1, torch.clamp(cos - margin, min=0), zeros)
    return _reduce(positive + negative, reduction)


def poisson_nll_loss(input, target, log_input: bool, full: bool, eps: float, reduction: int):
    """The negative log likelihood of ``target`` under a Poisson distribution of rate
    ``exp(input)`` (``log_input``) or ``input``; ``full`` adds Stirling's term."""
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    if full:
        safe = torch.where(target > 1, target, torch.ones_like(target))
        stirling = safe * torch.log(safe) - safe + 0.5 * torch.log(2 * math.pi * safe)
        loss = loss + torch.where(target > 1, stirling, torch.zeros_like(stirling))
    return _reduce(loss, reduction)


def triplet_margin_loss(
    anchor,
    positive,
    negative,
    margin: float = 1.0,
    p: float = 2.0,
    eps: float = 1e-6,
    swap: bool = False,
    reduction: int = 1,
):
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with pairwise
    ``p``-norm distances; ``swap`` uses the closer of the two negatives' distances."""
    d_positive = pairwise_distance(anchor, positive, p, eps)
    d_negative = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_negative = torch.minimum(d_negative, pairwise_distance(positive, negative, p, eps))
    return _reduce(torch.clamp(margin + d_positive - d_negative, min=0), reduction)


def _lengths(lengths, name: str) -> list[int]:
    """Sequence lengths given as a tensor of ints or a sequence of ints."""
    if isinstance(lengths, Tensor):
        if lengths.dtype.is_floating_point or lengths.dtype.is_complex:
            raise RuntimeError(
                f"ctc_loss(): {name} must be a tensor of integers, but got {lengths.dtype}"
            )
        return [int(v) for v in lengths.reshape(-1).tolist()]
    if isinstance(lengths, (list, tuple)) and all(
        isinstance(v, int) or (isinstance(v, Tensor) and v.numel() == 1) for v in lengths
    ):
        return [int(v) for v in lengths]
    raise TypeError(
        f"ctc_loss(): {name} must be a tuple of ints or a Tensor, but got {type(lengths).__name__}"
    )


def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths,
    target_lengths,
    blank: int = 0,
    reduction: int = 0,
    zero_infinity: bool = False,
) -> Tensor:
    """Connectionist temporal classification loss: ``-log`` of the total probability of
    the alignments of each target with its input.

    Args:
        log_probs: (T, N, C) log-probabilities (or (T, C) for one sequence).
        targets: padded (N, S) labels, or all targets concatenated (sum(target_lengths),).
        input_lengths: N ints (a sequence or a tensor), each at most T.
        target_lengths: N ints.
        blank: the blank label. Default: 0.
        reduction: 0 (the default when omitted, as in PyTorch's binding) per-sample
            losses, 1 the mean of the losses divided by their target lengths, 2 their sum.
        zero_infinity: replace infinite losses (impossible alignments) and their
            gradients by zero. Default: False.

    Examples::

        >>> lp = torch.log_softmax(torch.zeros(3, 1, 2), 2)  # every path has probability 1/8
        >>> torch.ctc_loss(lp, torch.tensor([[1]]), [3], [1], 0, 0)
        tensor([0.2877])
    """
    if isinstance(reduction, bool) or not isinstance(reduction, int):
        raise TypeError(
            f"ctc_loss(): argument 'reduction' must be int, not {type(reduction).__name__}"
        )
    in_lengths = _lengths(input_lengths, "input_lengths")
    tg_lengths = _lengths(target_lengths, "target_lengths")
    unbatched = log_probs.dim() == 2
    if unbatched:  # one sequence: its targets are read as concatenated targets
        log_probs = log_probs.unsqueeze(1)
    losses_ = losses.ctc_loss(log_probs, targets, in_lengths, tg_lengths, blank, zero_infinity)
    if zero_infinity:
        losses_ = torch.where(losses_ == math.inf, torch.zeros_like(losses_), losses_)
    if reduction == 1:
        divisor = torch.tensor(tg_lengths, dtype=losses_.dtype).clamp_min(1)
        return (losses_ / divisor).mean()
    if reduction == 2:
        return losses_.sum()
    return losses_.squeeze(0) if unbatched else losses_


# ---------------------------------------------------------------- normalisation


def native_layer_norm(input, normalized_shape, weight, bias, eps: float):
    """``(output, mean, rstd)`` of layer normalisation over the trailing
    ``normalized_shape`` dims (mean and rstd keep those dims as size 1)."""
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    mean = input.mean(dims, keepdim=True)
    rstd = 1 / torch.sqrt(input.var(dims, unbiased=False, keepdim=True) + eps)
    out = (input - mean) * rstd
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out, mean, rstd


def native_batch_norm(
    input, weight, bias, running_mean, running_var, training: bool, momentum: float, eps: float
):
    """``(output, save_mean, save_invstd)`` of batch normalisation over all dims but 1;
    in training the running statistics (if given) are updated in place, in evaluation the
    saved statistics are empty."""
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


# ---------------------------------------------------------------- pooling, dropout


def max_pool1d_with_indices(
    input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False
):
    """``(values, indices)`` of 1-d max pooling."""
    return nn_kernels.max_pool(
        input, kernel_size, stride or None, padding, dilation, ceil_mode, True, 1
    )


def feature_alpha_dropout(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
    """Alpha dropout of whole channels (dim 1): the SELU-preserving variant of
    ``feature_dropout``."""
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not train or p == 0:
        return input
    alpha_prime = -1.7580993408473766  # -selu_scale * selu_alpha
    shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2)
    keep = torch.empty(shape, dtype=input.dtype).bernoulli_(1 - p)
    a = (1 - p + p * alpha_prime**2 * (1 - p)) ** -0.5
    b = -a * alpha_prime * p
    return (input * keep + alpha_prime * (1 - keep)) * a + b


def rrelu(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    generator=None,
) -> Tensor:
    """Leaky ReLU with the mean slope ``(lower + upper) / 2``, or when ``training`` a slope
    drawn from U(lower, upper) for each non-positive element (in float64, in order)."""
    if not training:  # leaky_relu with the mean slope
        if input._dtype._category == 3:  # as leaky_relu's CPU kernel
            kind = input._dtype._legacy[:-6]
            raise NotImplementedError(f"\"leaky_relu_cpu\" not implemented for '{kind}'")
        return torch.where(input > 0, input, input * ((lower + upper) / 2))
    with torch.no_grad():
        negative = input <= 0
        draws = torch.empty(int(negative.sum()), dtype=torch.float64).uniform_(lower, upper)
        slope = torch.ones(tuple(input.shape), dtype=input.dtype)
        slope[negative] = draws.to(input.dtype)
    return input * slope


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, else 0."""
    return nn_functional.hardshrink(input, lambd)


_INTERPOLATION = {0: "bilinear", 1: "nearest", 2: "bicubic"}
_PADDING = {0: "zeros", 1: "border", 2: "reflection"}


def grid_sampler(input, grid, interpolation_mode: int, padding_mode: int, align_corners: bool):
    """``grid_sample`` with ATen's integer modes (interpolation 0 bilinear, 1 nearest,
    2 bicubic; padding 0 zeros, 1 border, 2 reflection)."""
    return resampling.grid_sample(
        input, grid, _INTERPOLATION[interpolation_mode], _PADDING[padding_mode], align_corners
    )


def affine_grid_generator(theta, size, align_corners: bool):
    """``affine_grid`` under ATen's name."""
    return resampling.affine_grid(theta, list(size), align_corners)


_BAG_MODES = {0: "sum", 1: "mean", 2: "max"}


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
    return nn_functional.embedding_bag_parts(
        weight,
        indices,
        offsets,
        _BAG_MODES[mode],
        per_sample_weights,
        padding_idx,
        include_last_offset,
    )


def _prelu_method(self: Tensor, weight: Tensor) -> Tensor:
    return nn_functional.prelu(self, weight)


#: Tensor methods of this family
METHODS = {
    "relu_": _inplace(nn_kernels.relu, "relu_"),
    "prelu": _prelu_method,
    "hardshrink": hardshrink,
}

#: core functions whose torch.* binding takes ``out=`` in PyTorch 2.13 (found by calling
#: them; relu, celu, pixel_shuffle, embedding, ... have an out schema but no such binding)
WITH_OUT = ("softmax", "log_softmax", "threshold", "hardshrink", "native_batch_norm")
