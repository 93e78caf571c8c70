"""The CTC forward algorithm in log space, written with differentiable core ops (so
autograd provides its gradient): one vectorised step per time step, over the batch and
the blank-extended label positions."""

from __future__ import annotations

import numpy as np

import torch

__all__ = []

_NEG = -1e30  # stands for log(0); finite so that logsumexp keeps finite gradients


def _lengths(lengths) -> list[int]:
    if isinstance(lengths, torch.Tensor):
        return [int(v) for v in lengths.reshape(-1).tolist()]
    return [int(v) for v in lengths]


def _label_rows(targets, target_lengths) -> list[list[int]]:
    if targets.dim() == 2:
        rows = targets.tolist()
        return [rows[b][:n] for b, n in enumerate(target_lengths)]
    flat = targets.tolist()
    starts = np.concatenate([[0], np.cumsum(target_lengths)]).astype(int)
    return [flat[starts[b] : starts[b + 1]] for b in range(len(target_lengths))]


def _extended(rows, blank: int):
    """Blank-extended labels (N, L), the valid positions, and where a skip over a blank
    is allowed."""
    width = 2 * max((len(r) for r in rows), default=0) + 1
    ext = np.full((len(rows), width), blank, dtype=np.int64)
    valid = np.zeros((len(rows), width), dtype=bool)
    for b, row in enumerate(rows):
        ext[b, 1 : 2 * len(row) : 2] = row
        valid[b, : 2 * len(row) + 1] = True
    skip = np.zeros_like(valid)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    return ext, valid, skip


def _shift(alpha, by: int):
    pad = torch.full((alpha.shape[0], by), _NEG, dtype=alpha.dtype)
    return torch.cat([pad, alpha[:, :-by]], 1)


def ctc_negative_log_likelihood(log_probs, targets, input_lengths, target_lengths, blank):
    """Per-sample ``-log p(target | input)`` (N,) (a scalar for unbatched input)."""
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs = log_probs.unsqueeze(1)
        targets = targets.unsqueeze(0) if targets.dim() == 1 else targets
    steps, batch, _ = log_probs.shape
    in_lengths = _lengths(input_lengths)
    tgt_lengths = _lengths(target_lengths)
    rows = _label_rows(targets, tgt_lengths)
    ext, valid, skip = _extended(rows, blank)
    width = ext.shape[1]
    index = torch.from_numpy(ext).unsqueeze(0).expand(steps, batch, width)
    emit = log_probs.gather(2, index)  # (T, N, L)
    valid_t = torch.from_numpy(valid)
    skip_t = torch.from_numpy(skip)
    start = np.zeros_like(valid)
    start[:, 0] = True
    start[:, 1] = np.array([len(r) > 0 for r in rows]) if width > 1 else False
    neg = torch.full((batch, width), _NEG, dtype=log_probs.dtype)
    alpha = torch.where(torch.from_numpy(start), emit[0], neg)
    lengths = torch.tensor(in_lengths).unsqueeze(1)
    for t in range(1, steps):
        candidates = [alpha]
        if width > 1:
            candidates.append(_shift(alpha, 1))
        if width > 2:
            candidates.append(torch.where(skip_t, _shift(alpha, 2), neg))
        step = torch.logsumexp(torch.stack(candidates, 0), 0) + emit[t]
        step = torch.where(valid_t, step, neg)
        alpha = torch.where(lengths > t, step, alpha)
    last = torch.tensor([2 * len(r) for r in rows]).unsqueeze(1)
    before = torch.tensor([max(2 * len(r) - 1, 0) for r in rows]).unsqueeze(1)
    end = alpha.gather(1, last)
    prev = torch.where(last > 0, alpha.gather(1, before), torch.full_like(end, _NEG))
    nll = -torch.logsumexp(torch.cat([end, prev], 1), 1)
    nll = torch.where(nll > -_NEG / 10, float("inf"), nll)
    nll = nll + _normaliser_term(log_probs, lengths)
    return nll.squeeze(0) if unbatched else nll


def _normaliser_term(log_probs, lengths):
    """Zero, with gradient ``exp(log_probs)`` on the steps within each input length.

    NOTE: PyTorch's CTC backward returns the gradient with respect to log_probs plus
    ``exp(log_probs)`` (the form that is exact for unnormalised logits fed through
    log_softmax, whose gradient then sums that term away). This term reproduces it.
    """
    steps = log_probs.shape[0]
    within = (torch.arange(steps).unsqueeze(1) < lengths.reshape(1, -1)).unsqueeze(2)
    weight = torch.where(within, torch.exp(log_probs.detach()), 0.0)
    return (weight * (log_probs - log_probs.detach())).sum((0, 2))
