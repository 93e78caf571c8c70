"""Loss functions with PyTorch's signatures, including the legacy ``size_average`` and
``reduce`` arguments, written on public torch ops (and core's fused forms of the hot
ones: one recorded node where the composite records several)."""

from __future__ import annotations

import math

import torch

from ._common import core, fused_op, reduce_loss, resolve_reduction
from .activation import logsigmoid, softplus

__all__ = [
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "poisson_nll_loss",
    "cosine_embedding_loss", "cross_entropy", "ctc_loss", "gaussian_nll_loss",
    "hinge_embedding_loss", "kl_div", "l1_loss", "mse_loss", "margin_ranking_loss",
    "multilabel_margin_loss", "multilabel_soft_margin_loss", "multi_margin_loss",
    "nll_loss", "huber_loss", "smooth_l1_loss", "soft_margin_loss", "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
]  # fmt: skip

_CROSS_ENTROPY = fused_op("_cross_entropy")
_MSE_LOSS = fused_op("_mse_loss")
_NLL_LOSS = fused_op("_nll_loss")


def _same_size(input, target, name: str) -> None:
    if tuple(input.shape) != tuple(target.shape):
        import warnings

        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.",
            UserWarning,
            stacklevel=3,
        )


def nll_loss(
    input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
    reduction: str = "mean",
):  # fmt: skip
    """Negative log-likelihood of the ``target`` classes under log-probabilities
    ``input`` (N, C, ...).

    Examples::

        >>> F.nll_loss(torch.tensor([[-1.0, -2.0]]), torch.tensor([1]))
        tensor(2.)
    """
    reduction = resolve_reduction(size_average, reduce, reduction)
    if weight is None:
        result = _NLL_LOSS.function(input, target, ignore_index, reduction)  # None: not fusable
        if result is not None:
            return result
    return _nll_loss(input, target, weight, ignore_index, reduction)


def _nll_loss(input, target, weight=None, ignore_index: int = -100, reduction: str = "mean"):
    """The composite: ``-input[n, target[n]]`` weighted by class, ignoring
    ``ignore_index``; "mean" divides by the weights of the counted targets."""
    if input.dim() < 1:
        raise ValueError("input tensor should be 1D or more")
    if input.dim() == 1:
        input, target = input.unsqueeze(0), target.unsqueeze(0)
    if target.shape[0] != input.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target "
            f"batch_size ({target.shape[0]})."
        )
    classes = input.shape[1]
    valid = target != ignore_index
    safe = torch.where(valid, target, 0)
    # NOTE: checked by value on plain tensors only: inside torch.func.vmap the target is a
    # batched tensor without one value to read, and gather below refuses bad indices
    plain = type(safe) is torch.Tensor
    if plain and safe.numel() and (safe.max().item() >= classes or safe.min().item() < 0):
        bad = safe.max().item() if safe.max().item() >= classes else safe.min().item()
        raise IndexError(f"Target {bad} is out of bounds.")
    picked = input.gather(1, safe.unsqueeze(1)).squeeze(1)
    w = valid.to(input.dtype) if weight is None else weight[safe] * valid.to(input.dtype)
    loss = -picked * w
    if reduction == "mean":
        return loss.sum() / w.sum()
    return reduce_loss(loss, reduction)


def cross_entropy(
    input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
    reduction: str = "mean", label_smoothing: float = 0.0,
):  # fmt: skip
    """``nll_loss(log_softmax(input, 1), target)``; ``target`` holds class indices or
    class probabilities.

    Args:
        weight (Tensor, optional): a weight per class.
        ignore_index (int): targets equal to it add nothing. Default: -100.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        label_smoothing (float): mix the targets with the uniform distribution by this
            much. Default: 0.
    """
    reduction = resolve_reduction(size_average, reduce, reduction)
    _check_cross_entropy(input, target, weight, label_smoothing)
    if weight is None and label_smoothing == 0:
        # class indices, no weights: log-softmax and nll as one node (None: not fusable)
        result = _CROSS_ENTROPY.function(input, target, ignore_index, reduction)
        if result is not None:
            return result
    return _cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)


def _cross_entropy(
    input, target, weight=None, ignore_index: int = -100, reduction: str = "mean",
    label_smoothing: float = 0.0,
):  # fmt: skip
    """The composite: ``nll_loss(log_softmax(input, 1), target)`` mixed with the
    uniform target by ``label_smoothing``, or a float ``target`` of probabilities."""
    class_dim = 1 if input.dim() > 1 else 0
    logp = torch.log_softmax(input, class_dim)
    classes = input.shape[class_dim]
    if target.is_floating_point():  # class probabilities
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        w = 1 if weight is None else weight.reshape((-1,) + (1,) * (input.dim() - 2))
        loss = -(logp * target * w).sum(class_dim)
        if reduction == "mean":
            return loss.sum() / (loss.numel() if input.dim() > 1 else 1)
        return reduce_loss(loss, reduction)
    loss = _nll_loss(logp, target, weight, ignore_index, reduction)
    if label_smoothing <= 0:
        return loss
    valid = (target != ignore_index).to(input.dtype)
    w = 1 if weight is None else weight.reshape((1, -1) + (1,) * (input.dim() - 2))
    smooth = -(logp * w).sum(class_dim) * valid
    if reduction == "mean":
        denominator = (
            valid.sum()
            if weight is None
            else weight[torch.where(target != ignore_index, target, 0)].mul(valid).sum()
        )
        smooth = smooth.sum() / denominator
    else:
        smooth = reduce_loss(smooth, reduction)
    return loss * (1 - label_smoothing) + smooth * (label_smoothing / classes)


def _check_cross_entropy(input, target, weight, label_smoothing) -> None:
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    if not target.dtype.is_floating_point and target.dtype not in (torch.int64, torch.uint8):
        name = str(target.dtype).replace("torch.", "")
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {name}")
    classes = input.shape[1] if input.dim() > 1 else input.shape[0]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(
            f"weight tensor should be defined either for all {classes} classes or no classes "
            f"but got weight tensor of shape: {list(weight.shape)}"
        )


def binary_cross_entropy(
    input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean"
):
    """Binary cross-entropy of probabilities ``input`` against ``target``."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    if input.numel() and not bool(((input >= 0) & (input <= 1)).all()):
        raise RuntimeError("all elements of input should be between 0 and 1")
    # logs clamped at -100, as PyTorch does
    log_p = torch.clamp(torch.log(input), min=-100)
    log_q = torch.clamp(torch.log(1 - input), min=-100)
    loss = -(target * log_p + (1 - target) * log_q)
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss, reduction)


def binary_cross_entropy_with_logits(
    input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean",
    pos_weight=None,
):  # fmt: skip
    """Binary cross-entropy of ``sigmoid(input)``, computed stably from logits."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    return core("binary_cross_entropy_with_logits")(
        input, target, weight, None, None, reduction, pos_weight
    )


def kl_div(
    input, target, size_average=None, reduce=None, reduction: str = "mean",
    log_target: bool = False,
):  # fmt: skip
    """KL divergence ``target * (log target - input)`` with log-probabilities ``input``;
    ``reduction='batchmean'`` divides the sum by the batch size."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    return core("kl_div")(input, target, None, None, reduction, log_target)


def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    """Mean absolute error."""
    _same_size(input, target, "l1_loss")
    reduction = resolve_reduction(size_average, reduce, reduction)
    return reduce_loss(torch.abs(input - target), reduction)


def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None):
    """Mean squared error.

    Examples::

        >>> F.mse_loss(torch.tensor([1.0, 3.0]), torch.tensor([1.0, 1.0]))
        tensor(2.)
    """
    _same_size(input, target, "mse_loss")
    reduction = resolve_reduction(size_average, reduce, reduction)
    if weight is not None:
        diff = input - target
        return reduce_loss(diff * diff * weight, reduction)
    result = _MSE_LOSS.function(input, target, reduction)  # one node; None: not fusable
    if result is not None:
        return result
    return _mse_loss(input, target, reduction)


def _mse_loss(input, target, reduction: str = "mean"):
    """The composite (the fused op's oracle)."""
    diff = input - target
    return reduce_loss(diff * diff, reduction)


def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0, weight=None):
    """Squared error (halved) below ``delta``, ``delta * (|x| - delta / 2)`` above."""
    _same_size(input, target, "huber_loss")
    if delta <= 0:
        raise RuntimeError(
            f"huber_loss does not support non-positive values for delta, got {delta}"
        )
    diff = torch.abs(input - target)
    loss = torch.where(diff < delta, 0.5 * diff * diff, delta * (diff - 0.5 * delta))
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss, reduction)


def smooth_l1_loss(
    input, target, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0
):
    """Huber loss divided by ``beta``."""
    _same_size(input, target, "smooth_l1_loss")
    reduction = resolve_reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    diff = torch.abs(input - target)
    loss = torch.where(diff < beta, 0.5 * diff * diff / beta, diff - 0.5 * beta) if beta else diff
    return reduce_loss(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    """``log(1 + exp(-y x))``, averaged."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    return reduce_loss(softplus(-target * input), reduction)


def multilabel_soft_margin_loss(
    input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean"
):
    """Per-class binary logistic loss averaged over the classes of each sample."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    log_sig = logsigmoid
    loss = -(target * log_sig(input) + (1 - target) * log_sig(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(-1) / input.shape[-1]
    return reduce_loss(loss, reduction)


def poisson_nll_loss(
    input, target, log_input: bool = True, full: bool = False, size_average=None,
    eps: float = 1e-8, reduce=None, reduction: str = "mean",
):  # fmt: skip
    """Negative log-likelihood of ``target`` under a Poisson with rate ``input`` (or
    ``exp(input)`` when ``log_input``); ``full`` adds Stirling's term."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    if full:
        stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss = loss + torch.where(target > 1, stirling, 0.0)
    return reduce_loss(loss, reduction)


def gaussian_nll_loss(
    input, target, var, full: bool = False, eps: float = 1e-6, reduction: str = "mean"
):
    """Negative log-likelihood of ``target`` under Gaussians with mean ``input`` and
    variance ``var`` (clamped at ``eps``)."""
    if isinstance(var, (int, float)):
        var = torch.full_like(input, float(var))
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (input.shape[:-1] == var.shape[:-1] and var.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    # NOTE: clamp the value only; the gradient flows to var as if unclamped
    var = var + (var.clamp(min=eps) - var).detach()
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return reduce_loss(loss, reduction)


def hinge_embedding_loss(
    input, target, margin: float = 1.0, size_average=None, reduce=None, reduction: str = "mean"
):
    """``x`` where the target is 1, ``max(0, margin - x)`` where it is -1."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    zeros = torch.zeros_like(input)
    positive = torch.where(target == 1, input, zeros)
    negative = torch.where(target == -1, torch.clamp(margin - input, min=0), zeros)
    return reduce_loss(positive + negative, reduction)


def margin_ranking_loss(
    input1, input2, target, margin: float = 0, size_average=None, reduce=None,
    reduction: str = "mean",
):  # fmt: skip
    """``max(0, -y (x1 - x2) + margin)``."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got "
            f"sizes: input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} "
        )
    return reduce_loss(torch.clamp(-target * (input1 - input2) + margin, min=0), reduction)


def cosine_embedding_loss(
    input1, input2, target, margin: float = 0, size_average=None, reduce=None,
    reduction: str = "mean",
):  # fmt: skip
    """``1 - cos(x1, x2)`` where the target is 1, ``max(0, cos - margin)`` where -1."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    eps = 1e-12
    dim = input1.dim() - 1
    dot = (input1 * input2).sum(dim)
    mag = ((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps)
    cos = dot / torch.sqrt(mag)
    zeros = torch.zeros_like(cos)
    positive = torch.where(target == 1, 1 - cos, zeros)
    negative = torch.where(target == -1, torch.clamp(cos - margin, min=0), zeros)
    return reduce_loss(positive + negative, reduction)


def multi_margin_loss(
    input, target, p: int = 1, margin: float = 1.0, weight=None, size_average=None,
    reduce=None, reduction: str = "mean",
):  # fmt: skip
    """Multi-class hinge loss: mean over classes i != y of
    ``max(0, margin - x[y] + x[i]) ** p``."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    x = input if input.dim() > 1 else input.unsqueeze(0)
    y = target.reshape(-1)
    picked = x.gather(1, y.unsqueeze(1))
    hinge = torch.clamp(margin - picked + x, min=0)
    if p == 2:
        hinge = hinge * hinge
    if weight is not None:
        hinge = hinge * weight[y].unsqueeze(1)
    not_target = torch.arange(x.shape[1]).unsqueeze(0) != y.unsqueeze(1)
    loss = torch.where(not_target, hinge, 0.0).sum(1) / x.shape[1]
    if input.dim() <= 1:
        loss = loss.squeeze(0)
    return reduce_loss(loss, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    """Multi-label hinge loss: ``target`` lists each sample's classes, ended by -1."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    x = input if input.dim() > 1 else input.unsqueeze(0)
    t = target if target.dim() > 1 else target.unsqueeze(0)
    classes = x.shape[1]
    # the valid targets: those before the first -1 of each row
    valid = (t >= 0).to(torch.int64).cumprod(1).bool()
    safe = torch.where(valid, t, 0)
    classes_range = torch.arange(classes)
    is_target = ((safe.unsqueeze(2) == classes_range) & valid.unsqueeze(2)).any(1)
    picked = x.gather(1, safe)  # (N, C): x[y_j]
    hinge = torch.clamp(1 - picked.unsqueeze(2) + x.unsqueeze(1), min=0)  # (N, j, i)
    mask = valid.unsqueeze(2) & ~is_target.unsqueeze(1)
    loss = torch.where(mask, hinge, 0.0).sum((1, 2)) / classes
    if input.dim() <= 1:
        loss = loss.squeeze(0)
    return reduce_loss(loss, reduction)


def triplet_margin_loss(
    anchor, positive, negative, margin: float = 1.0, p: float = 2, eps: float = 1e-6,
    swap: bool = False, size_average=None, reduce=None, reduction: str = "mean",
):  # fmt: skip
    """``max(d(a, p) - d(a, n) + margin, 0)`` with the p-norm pairwise distance."""
    from .linear import pairwise_distance

    reduction = resolve_reduction(size_average, reduce, reduction)
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = torch.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return reduce_loss(torch.clamp(d_pos - d_neg + margin, min=0), reduction)


def triplet_margin_with_distance_loss(
    anchor, positive, negative, *, distance_function=None, margin: float = 1.0,
    swap: bool = False, reduction: str = "mean",
):  # fmt: skip
    """Triplet loss with any ``distance_function`` (default: pairwise distance)."""
    from .linear import pairwise_distance

    distance = pairwise_distance if distance_function is None else distance_function
    d_pos = distance(anchor, positive)
    d_neg = distance(anchor, negative)
    if swap:
        d_neg = torch.minimum(d_neg, distance(positive, negative))
    return reduce_loss(torch.clamp(d_pos - d_neg + margin, min=0), reduction)


def ctc_loss(
    log_probs, targets, input_lengths, target_lengths, blank: int = 0,
    reduction: str = "mean", zero_infinity: bool = False,
):  # fmt: skip
    """Connectionist temporal classification loss of ``log_probs`` (T, N, C) against
    ``targets`` (N, S) or concatenated (sum(target_lengths),)."""
    enum = {"none": 0, "mean": 1, "sum": 2}.get(reduction)
    if enum is None:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if hasattr(torch, "ctc_loss"):  # core's kernel (torch-core after 0.3.0)
        return torch.ctc_loss(
            log_probs, targets, input_lengths, target_lengths, blank, enum, zero_infinity
        )
    from ._ctc import ctc_negative_log_likelihood

    losses = ctc_negative_log_likelihood(log_probs, targets, input_lengths, target_lengths, blank)
    if zero_infinity:
        losses = torch.where(torch.isinf(losses), 0.0, losses)
    if reduction == "mean":
        lengths = torch.as_tensor(target_lengths).to(losses.dtype).clamp(min=1)
        return (losses / lengths).mean()
    return reduce_loss(losses, reduction)
