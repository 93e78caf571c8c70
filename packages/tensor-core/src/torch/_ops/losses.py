"""Losses under their ``torch.*`` names (ATen's signatures: ``reduction`` is an int, 0 none,
1 mean, 2 sum): ``margin_ranking_loss``, ``hinge_embedding_loss``,
``cosine_embedding_loss``, ``poisson_nll_loss``, ``triplet_margin_loss`` (composites of
core ops, so gradients follow from their parts) and ``ctc_loss``, on a kernel computed
directly on arrays: the connectionist temporal classification (CTC) loss.

``_ctc_loss`` is one graph node: its forward pass runs the alpha (forward-variable)
recursion in log space, one vectorised step per time step over the batch and the
blank-extended label positions; its gradient runs the beta recursion the same way. The
gradient is the one PyTorch returns: with respect to ``log_probs``, plus ``exp(log_probs)``
on the steps within each input length (exact when ``log_probs`` come from a
``log_softmax``, whose gradient sums that term away). Like PyTorch's, it has no second
derivative. ``torch.ctc_loss`` reduces its per-sample losses.
"""

from __future__ import annotations

import functools
import math

import numpy as np

import torch

from .. import _dispatcher, _dtype
from .._tensor import Tensor, make
from ._dispatch import as_array, contiguous, defop, record, register_op
from .distances import pairwise_distance

__all__ = [
    "margin_ranking_loss",
    "hinge_embedding_loss",
    "cosine_embedding_loss",
    "poisson_nll_loss",
    "triplet_margin_loss",
    "ctc_loss",
]

_FLOATS = (_dtype.float32, _dtype.float64)
_WHERE = "(while checking arguments for ctc_loss_allocate_outputs)"


# this family's ops registered under its name
_register = functools.partial(register_op, family="losses")


class CTCSaved:
    """What the gradient needs: the inputs as arrays, the alpha table and the losses."""

    __slots__ = (
        "log_probs",
        "ext",
        "skip",
        "valid",
        "input_lengths",
        "target_lengths",
        "alpha",
        "nll",
        "zero_infinity",
    )

    def __init__(self, **fields):
        for name, value in fields.items():
            setattr(self, name, value)


def _check(lp: np.ndarray, targets: np.ndarray, input_lengths, target_lengths, blank: int):
    """PyTorch's argument checks, in its order."""
    steps, batch, classes = lp.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for length in target_lengths:
        if length < 0:
            raise RuntimeError(
                f"Expected target_lengths to have value at least 0, but got value {length} "
                + _WHERE
            )
    if targets.ndim == 1:
        total = int(sum(target_lengths))
        if targets.shape[0] != total:
            raise RuntimeError(
                f"Expected tensor to have size {total} at dimension 0, but got size "
                f"{targets.shape[0]} for argument #2 'targets' {_WHERE}"
            )
    else:
        if targets.shape[0] != batch:
            raise RuntimeError(
                f"Expected tensor to have size {batch} at dimension 0, but got size "
                f"{targets.shape[0]} for argument #2 'targets' {_WHERE}"
            )
        longest = max(target_lengths, default=0)
        if targets.shape[1] < longest:
            raise RuntimeError(
                f"Expected tensor to have size at least {longest} at dimension 1, but got "
                f"size {targets.shape[1]} for argument #2 'targets' {_WHERE}"
            )
    for length in input_lengths:
        if length < 0:
            raise RuntimeError(
                f"Expected input_lengths to have value at least 0, but got value {length} " + _WHERE
            )
        if length > steps:
            raise RuntimeError(
                f"Expected input_lengths to have value at most {steps}, but got value "
                f"{length} {_WHERE}"
            )


def _extended_labels(targets: np.ndarray, target_lengths: np.ndarray, blank: int, classes):
    """The blank-extended label sequences (N, 2 S + 1), where each is defined, and where a
    position may be reached by skipping the one before (its label differs from the label
    two positions back)."""
    # every array made by the array module of the lengths (on the device of log_probs)
    like = target_lengths
    batch = len(target_lengths)
    longest = int(target_lengths.max()) if batch else 0
    width = 2 * longest + 1
    if targets.ndim == 1:
        first = np.zeros(1, dtype=np.int64, like=like)
        starts = np.concatenate([first, np.cumsum(target_lengths)[:-1]]).astype(np.int64)
        offsets = starts[:, None] + np.arange(longest, like=like)
        labels = targets[np.minimum(offsets, max(targets.shape[0] - 1, 0))] if longest else None
    else:
        labels = targets[:, :longest]
    ext = np.full((batch, width), blank, dtype=np.int64, like=like)
    inside = np.arange(longest, like=like)[None, :] < target_lengths[:, None]
    if longest:
        ext[:, 1::2] = np.where(inside, labels, blank)
    valid = np.arange(width, like=like)[None, :] <= 2 * target_lengths[:, None]
    used = ext[valid]
    if used.size:  # two elements read back (a synchronisation on a device)
        lowest, highest = int(used.min()), int(used.max())
        if lowest < 0 or highest >= classes:
            bad = lowest if lowest < 0 else highest
            raise IndexError(f"ctc_loss(): target {bad} is out of bounds for {classes} classes")
    skip = np.zeros((batch, width), dtype=bool, like=like)
    skip[:, 2:] = ext[:, 2:] != ext[:, :-2]
    return ext, valid, skip


def _beside(lengths: np.ndarray, like):
    """Host ``lengths`` as an array of the array module of ``like`` (on its device)."""
    if isinstance(like, np.ndarray):
        return lengths
    return np.asarray(lengths.tolist(), dtype=np.int64, like=like)


def _log_sum3(a, b, c):
    """log(exp(a) + exp(b) + exp(c)) elementwise, shifted by the largest (0 when all are
    -inf, so that the result is -inf without NaN)."""
    top = np.maximum(np.maximum(a, b), c)
    top = np.where(top == -np.inf, 0, top)
    with np.errstate(divide="ignore"):
        return np.log(np.exp(a - top) + np.exp(b - top) + np.exp(c - top)) + top


def _shift_right(a: np.ndarray, by: int) -> np.ndarray:
    out = np.full_like(a, -np.inf)
    out[:, by:] = a[:, :-by]
    return out


def _shift_left(a: np.ndarray, by: int) -> np.ndarray:
    out = np.full_like(a, -np.inf)
    out[:, :-by] = a[:, by:]
    return out


def _ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths,
    target_lengths,
    blank: int = 0,
    zero_infinity: bool = False,
) -> Tensor:
    """Per-sample CTC negative log-likelihoods (N,) of ``log_probs`` (T, N, C) against
    padded (N, S) or concatenated targets; ``input_lengths`` and ``target_lengths`` are
    sequences of N ints."""
    if log_probs._dtype not in _FLOATS:
        raise NotImplementedError(
            f"\"ctc_loss_cpu\" not implemented for '{log_probs._dtype._legacy[:-6]}'"
        )
    lp = log_probs._np
    tg = targets._np
    in_host = as_array(input_lengths, np.int64).reshape(-1)
    tg_host = as_array(target_lengths, np.int64).reshape(-1)
    _check(lp, tg, in_host.tolist(), tg_host.tolist(), blank)
    # the lengths (the caller's ints) on the device of log_probs: one small upload there
    in_lengths, tg_lengths = _beside(in_host, lp), _beside(tg_host, lp)
    steps, batch, classes = lp.shape
    ext, valid, skip = _extended_labels(tg.astype(np.int64), tg_lengths, blank, classes)
    width = ext.shape[1]
    rows = np.arange(batch, like=lp)[:, None]
    alpha = np.full((steps, batch, width), -np.inf, dtype=lp.dtype, like=lp)
    if steps:
        emit = lp[:, rows, ext]  # (T, N, L): each position's log-probability at each step
        alpha[0, :, 0] = emit[0, :, 0]
        if width > 1:
            alpha[0, :, 1] = np.where(tg_lengths > 0, emit[0, :, 1], -np.inf)
        for t in range(1, steps):
            previous = alpha[t - 1]
            two_back = np.where(skip, _shift_right(previous, 2), -np.inf) if width > 2 else -np.inf
            one_back = _shift_right(previous, 1) if width > 1 else -np.inf
            step = _log_sum3(previous, one_back, two_back) + emit[t]
            alpha[t] = np.where(valid, step, -np.inf)
    last = np.maximum(in_lengths - 1, 0)
    samples = np.arange(batch, like=lp)
    end = alpha[last, samples, 2 * tg_lengths] if steps else np.full(batch, -np.inf, like=lp)
    before = np.where(
        tg_lengths > 0,
        alpha[last, samples, np.maximum(2 * tg_lengths - 1, 0)] if steps else -np.inf,
        -np.inf,
    )
    top = np.maximum(end, before)
    top = np.where(top == -np.inf, 0, top)
    with np.errstate(divide="ignore"):
        likelihood = np.log(np.exp(end - top) + np.exp(before - top)) + top
    # an empty input explains only an empty target
    likelihood = np.where(in_lengths == 0, np.where(tg_lengths == 0, 0.0, -np.inf), likelihood)
    nll = as_array(-likelihood, lp.dtype)
    result = Tensor._from_array(nll, log_probs._dtype)
    saved = CTCSaved(
        log_probs=lp,
        ext=ext,
        skip=skip,
        valid=valid,
        input_lengths=in_lengths,
        target_lengths=tg_lengths,
        alpha=alpha,
        nll=nll,
        zero_infinity=bool(zero_infinity),
    )
    return record(CTC_LOSS, (log_probs, targets), result, (saved,))


def _unit_gradient(saved: CTCSaved) -> np.ndarray:
    """The gradient of each sample's loss with respect to ``log_probs`` (T, N, C), before
    scaling by the output gradient."""
    lp, ext, alpha = saved.log_probs, saved.ext, saved.alpha
    steps, batch, classes = lp.shape
    width = ext.shape[1]
    in_lengths, tg_lengths = saved.input_lengths, saved.target_lengths
    rows = np.arange(batch, like=lp)[:, None]
    emit = lp[:, rows, ext]
    positions = np.arange(width, like=lp)[None, :]
    finals = (positions == 2 * tg_lengths[:, None]) | (
        (positions == 2 * tg_lengths[:, None] - 1) & (tg_lengths[:, None] > 0)
    )
    skip_ahead = np.zeros_like(saved.skip)
    skip_ahead[:, :-2] = saved.skip[:, 2:]
    beta = np.full_like(alpha, -np.inf)
    following = np.full((batch, width), -np.inf, dtype=lp.dtype, like=lp)
    for t in range(steps - 1, -1, -1):
        one_ahead = _shift_left(following, 1) if width > 1 else -np.inf
        two_ahead = (
            np.where(skip_ahead, _shift_left(following, 2), -np.inf) if width > 2 else -np.inf
        )
        step = _log_sum3(following, one_ahead, two_ahead) + emit[t]
        start = np.where(finals, emit[t], -np.inf)
        here = (t == in_lengths - 1)[:, None]
        within = (t < in_lengths - 1)[:, None]
        row = np.where(here, start, np.where(within, step, -np.inf))
        beta[t] = np.where(saved.valid, row, -np.inf)
        following = beta[t]
    both = alpha + beta  # log of the probability of the paths through (t, position)
    # NOTE: at each sample's last step PyTorch takes the last label's paths alone when that
    # label is the blank (its final blank's paths are overwritten, not added): as there
    last_is_blank = (tg_lengths > 0) & (
        ext[rows[:, 0], np.maximum(2 * tg_lengths - 1, 0)] == ext[:, 0]
    )
    ends = np.nonzero(last_is_blank & (in_lengths > 0))[0]
    both[in_lengths[ends] - 1, ends, 2 * tg_lengths[ends]] = -np.inf
    top = both.max(axis=2, keepdims=True)  # width >= 1: never an empty reduction
    top = np.where(np.isfinite(top), top, 0)
    times = np.arange(steps, like=lp)
    index = (times[:, None, None] * batch + rows[None]) * classes + ext[None]
    sums = np.bincount(
        index.reshape(-1),
        weights=np.exp(both - top).reshape(-1).astype(np.float64),
        minlength=steps * batch * classes,
    ).reshape(steps, batch, classes)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_class = np.log(sums).astype(lp.dtype) + top
        grad = np.exp(lp) - np.exp(per_class + saved.nll[None, :, None] - lp)
    inside = times[:, None] < in_lengths[None, :]
    if saved.zero_infinity:
        inside = inside & (saved.nll != np.inf)[None, :]
    return np.where(inside[:, :, None], grad, 0).astype(lp.dtype)


def ctc_loss_backward(grad: Tensor, saved: CTCSaved) -> Tensor:
    """The gradient of :func:`_ctc_loss` with respect to ``log_probs``: each sample's
    gradient scaled by its output gradient."""
    unit = _unit_gradient(saved)
    scale = grad._np.astype(unit.dtype).reshape(1, -1, 1)
    return make(contiguous(unit * scale), grad._dtype)


def ctc_loss_backward_op(grad: Tensor, log_probs: Tensor, saved: CTCSaved) -> Tensor:
    """:func:`ctc_loss_backward` recorded as an op of ``grad`` and ``log_probs`` (under
    ``create_graph``): its gradient raises, as PyTorch's does."""
    result = ctc_loss_backward(grad, saved)
    return record(CTC_LOSS_BACKWARD, (grad, log_probs), result, (saved,))


CTC_LOSS = _register(
    "_ctc_loss",
    _ctc_loss,
    "_ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, "
    "int blank=0, bool zero_infinity=False) -> Tensor",
    saved=("ctc",),
)
CTC_LOSS_BACKWARD = _register(
    "_ctc_loss_backward",
    ctc_loss_backward_op,
    "_ctc_loss_backward(Tensor grad, Tensor log_probs, ...) -> Tensor",
    saved=("ctc",),
)


# ------------------------------------------------------------- the torch.* losses


def _reduce(loss: Tensor, reduction: int) -> Tensor:
    if reduction == 1:
        return loss.mean()
    if reduction == 2:
        return loss.sum()
    return loss


@defop("margin_ranking_loss")
def margin_ranking_loss(input1, input2, target, margin: float = 0.0, reduction: int = 1):
    """``max(0, -target * (input1 - input2) + margin)``."""
    return _reduce(torch.clamp(-target * (input1 - input2) + margin, min=0), reduction)


@defop("hinge_embedding_loss")
def hinge_embedding_loss(input, target, margin: float = 1.0, reduction: int = 1):
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1."""
    zeros = torch.zeros_like(input)
    below = torch.where(target != 1, torch.clamp(margin - input, min=0), zeros)
    above = torch.where(target != -1, input, zeros)
    return _reduce(below + above, reduction)


@defop("cosine_embedding_loss")
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


@defop("poisson_nll_loss")
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


@defop("triplet_margin_loss")
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


@defop("ctc_loss")
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
    # through the dispatcher, as a binding: a device kernel registered for the op applies
    losses_ = _dispatcher.call_op(
        "_ctc_loss", _ctc_loss, log_probs, targets, in_lengths, tg_lengths, blank, zero_infinity
    )
    if zero_infinity:
        losses_ = torch.where(losses_ == math.inf, torch.zeros_like(losses_), losses_)
    if reduction == 1:
        divisor = torch.tensor(tg_lengths, dtype=losses_.dtype, device=losses_.device)
        divisor = divisor.clamp_min(1)
        return (losses_ / divisor).mean()
    if reduction == 2:
        return losses_.sum()
    return losses_.squeeze(0) if unbatched else losses_
