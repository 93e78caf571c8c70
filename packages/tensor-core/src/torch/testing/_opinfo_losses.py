"""Op-database entries of ``grid_sample`` in all its modes and of the CTC loss, with
NumPy references written point by point (slow, plain loops: an oracle independent of the
vectorised kernels)."""

from __future__ import annotations

import itertools
import math

import numpy as np

import torch

__all__ = ["entries"]


def _make(*args, **kwargs):
    from ._opinfo_base import _make as make

    return make(*args, **kwargs)


def _sample(*args):
    from ._opinfo_base import SampleInput

    return SampleInput(*args)


# ------------------------------------------------------------------- grid_sample


def _unnormalize(coord: float, size: int, align: bool) -> float:
    return (coord + 1) / 2 * (size - 1) if align else ((coord + 1) * size - 1) / 2


def _reflect(coord: float, low: float, high: float) -> float:
    span = high - low
    if span <= 0:
        return 0.0
    distance = abs(coord - low)
    flips = math.floor(distance / span)
    extra = distance - flips * span
    return extra + low if flips % 2 == 0 else span - extra + low


def _padded(coord: float, size: int, padding: str, align: bool) -> float:
    if padding == "border":
        return min(max(coord, 0.0), size - 1.0)
    if padding == "reflection":
        if align:
            return _reflect(coord, 0.0, size - 1.0)
        return min(max(_reflect(coord, -0.5, size - 0.5), 0.0), size - 1.0)
    return coord


def _cubic_weights(t: float) -> list[float]:
    a = -0.75

    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _grid_sample_ref(image, grid, mode, padding, align):
    """4-D ``grid_sample``, one output point at a time."""
    n, c, h, w = image.shape
    out = np.zeros((n, c) + grid.shape[1:3], dtype=np.float64)

    def read(b, y, x):
        if padding != "zeros":  # taps are moved into the input
            y, x = _padded(float(y), h, padding, align), _padded(float(x), w, padding, align)
        y, x = int(y), int(x)
        return image[b, :, y, x] if 0 <= y < h and 0 <= x < w else np.zeros(c)

    for b, i, j in itertools.product(range(n), *map(range, grid.shape[1:3])):
        x = _unnormalize(float(grid[b, i, j, 0]), w, align)
        y = _unnormalize(float(grid[b, i, j, 1]), h, align)
        if mode == "bicubic":  # the source position is not padded, each tap is
            x0, y0 = math.floor(x), math.floor(y)
            wx, wy = _cubic_weights(x - x0), _cubic_weights(y - y0)
            for p, q in itertools.product(range(4), range(4)):
                out[b, :, i, j] += wy[p] * wx[q] * read(b, y0 - 1 + p, x0 - 1 + q)
            continue
        x, y = _padded(x, w, padding, align), _padded(y, h, padding, align)
        if mode == "nearest":
            out[b, :, i, j] = read(b, np.round(y), np.round(x))
            continue
        x0, y0 = math.floor(x), math.floor(y)
        fx, fy = x - x0, y - y0
        out[b, :, i, j] = (
            read(b, y0, x0) * (1 - fx) * (1 - fy)
            + read(b, y0, x0 + 1) * fx * (1 - fy)
            + read(b, y0 + 1, x0) * (1 - fx) * fy
            + read(b, y0 + 1, x0 + 1) * fx * fy
        )
    return out


def _grid_sample_samples(dtype):
    image = _make((2, 2, 4, 5), dtype, 11)
    # positions past the border on both sides, none on a tap (the kernels' kinks)
    grid = _make((2, 3, 2, 2), dtype, 12, domain=(-1.3, 1.3))
    return [
        _sample((image, grid), (mode, padding, align))
        for mode in ("bicubic", "bilinear", "nearest")
        for padding in ("zeros", "border", "reflection")
        for align in (False, True)
    ]


def _grid_sample_5d_samples(dtype):
    volume = _make((1, 2, 3, 4, 3), dtype, 13)
    grid = _make((1, 2, 2, 1, 3), dtype, 14, domain=(-1.2, 1.2))
    return [
        _sample((volume, grid), ("bilinear", padding, align))
        for padding in ("zeros", "border", "reflection")
        for align in (False, True)
    ]


_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


def _grid_sample(image, grid, mode, padding, align):
    return torch.grid_sampler(image, grid, _MODES[mode], _PADDINGS[padding], align)


# ---------------------------------------------------------------------- ctc_loss

_CTC_TARGETS = ([1, 2, 2], [3, 1], [2])
_CTC_INPUT_LENGTHS = [5, 4, 2]


def _ctc_ref(logits, targets, input_lengths, target_lengths, blank, reduction):
    """The forward algorithm in probability space, one sample and step at a time, on
    ``log_softmax(logits)``."""
    shifted = logits - logits.max(axis=2, keepdims=True)
    probs = np.exp(shifted) / np.exp(shifted).sum(axis=2, keepdims=True)
    losses = []
    for b, (steps, length) in enumerate(zip(input_lengths, target_lengths)):
        labels = [blank]
        for label in list(targets[b][:length]):
            labels += [int(label), blank]
        alpha = np.zeros(len(labels))
        alpha[0] = probs[0, b, blank]
        if len(labels) > 1:
            alpha[1] = probs[0, b, labels[1]]
        for t in range(1, steps):
            previous = alpha.copy()
            for s in range(len(labels)):
                total = previous[s] + (previous[s - 1] if s > 0 else 0.0)
                if s > 1 and labels[s] != labels[s - 2]:
                    total += previous[s - 2]
                alpha[s] = total * probs[t, b, labels[s]]
        likelihood = alpha[-1] + (alpha[-2] if len(labels) > 1 else 0.0)
        losses.append(-math.log(likelihood))
    losses = np.array(losses)
    if reduction == 1:
        return np.mean(losses / np.maximum(np.array(target_lengths), 1))
    return losses.sum() if reduction == 2 else losses


def _ctc_samples(dtype):
    logits = _make((5, 3, 4), dtype, 15)
    padded = torch.tensor([row + [0] * (3 - len(row)) for row in _CTC_TARGETS])
    lengths = [len(row) for row in _CTC_TARGETS]
    return [
        _sample((logits,), (padded, _CTC_INPUT_LENGTHS, lengths, 0, reduction))
        for reduction in (0, 1, 2)
    ]


def _ctc(logits, targets, input_lengths, target_lengths, blank, reduction):
    # NOTE: through log_softmax, as in use: the kernel's gradient is PyTorch's, which adds
    # exp(log_probs) to the true gradient with respect to log_probs (log_softmax's
    # gradient removes that term again)
    log_probs = torch.log_softmax(logits, 2)
    return torch.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction)


def _ctc_ref_arrays(logits, targets, input_lengths, target_lengths, blank, reduction):
    return _ctc_ref(logits, targets.numpy(), input_lengths, target_lengths, blank, reduction)


def entries() -> list:
    """The entries (built on call: ``_opinfo`` imports this module while it loads)."""
    from ._opinfo_base import FLOATING, OpInfo

    return [
        OpInfo(
            "grid_sample",
            _grid_sample,
            _grid_sample_ref,
            _grid_sample_samples,
            FLOATING,
        ),
        OpInfo("grid_sample", _grid_sample, None, _grid_sample_5d_samples, FLOATING),
        OpInfo("_ctc_loss", _ctc, _ctc_ref_arrays, _ctc_samples, FLOATING, supports_gradgrad=False),
    ]
