"""Loss functions: ``MSECriterion``, ``AbsCriterion``, ``SmoothL1Criterion``,
``BCECriterion``, ``ClassNLLCriterion``, ``CrossEntropyCriterion``,
``MarginCriterion`` and ``DistKLDivCriterion``.

With ``sizeAverage=True`` (the default) a loss is averaged over the elements (over the
samples for the class criterions); otherwise summed.
"""

from __future__ import annotations

import torch

from .activation import LogSoftMax
from .criterion import Criterion, _check_same_size

__all__ = [
    "MSECriterion",
    "AbsCriterion",
    "SmoothL1Criterion",
    "BCECriterion",
    "ClassNLLCriterion",
    "CrossEntropyCriterion",
    "MarginCriterion",
    "DistKLDivCriterion",
]


class _ElementwiseCriterion(Criterion):
    """A loss that is a sum of one term per element of ``input - target``."""

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = sizeAverage

    def _divisor(self, input):
        return input.numel() if self.sizeAverage else 1

    def updateOutput(self, input, target):
        _check_same_size(input, target, type(self).__name__)
        terms = self._terms(input, target.view_as(input))
        self.output = float(terms.sum()) / self._divisor(input)
        return self.output

    def updateGradInput(self, input, target):
        _check_same_size(input, target, type(self).__name__)
        self.gradInput = self._grads(input, target.view_as(input)) / self._divisor(input)
        return self.gradInput


class MSECriterion(_ElementwiseCriterion):
    """Squared error ``(x - y)^2``.

    Examples::

        >>> nn.MSECriterion().forward(torch.tensor([0.0, 2.0]), torch.tensor([1.0, 1.0]))
        1.0
    """

    def _terms(self, input, target):
        return (input - target).pow(2)

    def _grads(self, input, target):
        return 2 * (input - target)


class AbsCriterion(_ElementwiseCriterion):
    """Absolute error ``|x - y|``.

    Examples::

        >>> nn.AbsCriterion().forward(torch.tensor([0.0, 3.0]), torch.tensor([1.0, 1.0]))
        1.5
    """

    def _terms(self, input, target):
        return (input - target).abs()

    def _grads(self, input, target):
        return (input - target).sign()


class SmoothL1Criterion(_ElementwiseCriterion):
    """Huber loss: ``0.5 d^2`` where ``|d| < 1``, else ``|d| - 0.5`` (``d = x - y``).

    Examples::

        >>> nn.SmoothL1Criterion().forward(torch.tensor([0.5, 3.0]), torch.zeros(2))
        1.3125
    """

    def _terms(self, input, target):
        d = (input - target).abs()
        return torch.where(d < 1, 0.5 * d * d, d - 0.5)

    def _grads(self, input, target):
        return (input - target).clamp(-1, 1)


class MarginCriterion(_ElementwiseCriterion):
    """Hinge loss ``max(0, margin - x * y)`` for targets ``y`` in ``{-1, 1}``.

    Examples::

        >>> nn.MarginCriterion().forward(torch.tensor([0.5, 2.0]), torch.tensor([1.0, 1.0]))
        0.25
    """

    def __init__(self, margin=1, sizeAverage=True):
        super().__init__(sizeAverage)
        self.margin = margin

    def _terms(self, input, target):
        return (self.margin - input * target).clamp(min=0)

    def _grads(self, input, target):
        active = (self.margin - input * target) > 0
        return torch.where(active, -target, torch.zeros_like(target))


class DistKLDivCriterion(_ElementwiseCriterion):
    """Kullback-Leibler divergence ``y * (log y - x)`` of targets ``y`` (probabilities)
    from log-probabilities ``x``; elements with ``y = 0`` add nothing.

    Examples::

        >>> crit = nn.DistKLDivCriterion()
        >>> round(crit.forward(torch.tensor([0.5, 0.5]).log(), torch.tensor([0.5, 0.5])), 6)
        0.0
    """

    def _terms(self, input, target):
        positive = target > 0
        safe = torch.where(positive, target, torch.ones_like(target))
        return torch.where(positive, target * (safe.log() - input), torch.zeros_like(input))

    def _grads(self, input, target):
        return torch.where(target > 0, -target, torch.zeros_like(target))


class BCECriterion(_ElementwiseCriterion):
    """Binary cross-entropy ``-w (y log x + (1 - y) log(1 - x))`` of probabilities ``x``.

    Args:
        weights (Tensor, optional): a weight per element of one sample (broadcast over a
            batch). Default: ``None``.
        sizeAverage (bool): Default: ``True``.

    The logarithms take ``x + 1e-12`` and ``1 - x + 1e-12``, as Lua Torch did.

    Examples::

        >>> round(nn.BCECriterion().forward(torch.tensor([0.5]), torch.tensor([1.0])), 4)
        0.6931
    """

    weights = None

    eps = 1e-12

    def __init__(self, weights=None, sizeAverage=True):
        super().__init__(sizeAverage)
        self.weights = weights

    def _weighted(self, values):
        return values if self.weights is None else values * self.weights

    def _terms(self, input, target):
        logs = target * (input + self.eps).log() + (1 - target) * (1 - input + self.eps).log()
        return -self._weighted(logs)

    def _grads(self, input, target):
        grads = (input - target) / ((1 - input + self.eps) * (input + self.eps))
        return self._weighted(grads)


class ClassNLLCriterion(Criterion):
    """Negative log-likelihood of the target classes (0-based) given log-probabilities.

    Args:
        weights (Tensor, optional): a weight per class. Default: ``None``.
        sizeAverage (bool): divide by the summed weights of the targets. Default:
            ``True``.
        ignoreIndex (int): a target value that adds nothing. Default: ``-100``.

    Shape:
        input ``(C)`` or ``(N, C)``; target an int, ``(1)`` or ``(N)``.

    Examples::

        >>> logp = torch.tensor([[0.25, 0.75], [0.5, 0.5]]).log()
        >>> round(nn.ClassNLLCriterion().forward(logp, torch.tensor([1, 0])), 4)
        0.4904
    """

    weights = None
    ignoreIndex = -100

    def __init__(self, weights=None, sizeAverage=True, ignoreIndex=-100):
        super().__init__()
        self.weights, self.sizeAverage, self.ignoreIndex = weights, sizeAverage, ignoreIndex
        self.total_weight = 0.0

    def _prepare(self, input, target):
        """(N, C) input, (N) target, the kept-sample mask and each sample's weight."""
        if input.dim() not in (1, 2):
            raise RuntimeError(f"ClassNLLCriterion: expected a 1D or 2D input, got {input.dim()}D")
        batch = input if input.dim() == 2 else input.unsqueeze(0)
        target = torch.as_tensor(target).reshape(-1).long()
        if target.numel() != batch.size(0):
            raise ValueError(
                f"Expected input batch_size ({batch.size(0)}) to match target batch_size "
                f"({target.numel()})."
            )
        kept = target != self.ignoreIndex
        classes = batch.size(1)
        bad = kept & ((target < 0) | (target >= classes))
        if bool(bad.any()):
            raise IndexError(f"Target {int(target[bad][0])} is out of bounds.")
        safe = torch.where(kept, target, torch.zeros_like(target))
        weight = (
            torch.ones(classes, dtype=batch.dtype)
            if self.weights is None
            else (self.weights.to(batch.dtype))
        )
        sample_weight = weight.index_select(0, safe) * kept.to(batch.dtype)
        return batch, safe, sample_weight

    def updateOutput(self, input, target):
        batch, safe, sample_weight = self._prepare(input, target)
        picked = batch.gather(1, safe.unsqueeze(1)).squeeze(1)
        loss = -(picked * sample_weight).sum()
        self.total_weight = float(sample_weight.sum())
        if self.sizeAverage:
            loss = loss / self.total_weight
        self.output = float(loss)
        return self.output

    def updateGradInput(self, input, target):
        batch, safe, sample_weight = self._prepare(input, target)
        values = -sample_weight
        if self.sizeAverage:
            values = values / float(sample_weight.sum())
        grad = torch.zeros_like(batch)
        grad.scatter_(1, safe.unsqueeze(1), values.unsqueeze(1))
        self.gradInput = grad.view_as(input)
        return self.gradInput


class CrossEntropyCriterion(Criterion):
    """:class:`LogSoftMax` followed by :class:`ClassNLLCriterion`, on raw scores.

    Examples::

        >>> round(nn.CrossEntropyCriterion().forward(torch.zeros(1, 4), torch.tensor([2])), 4)
        1.3863
    """

    def __init__(self, weights=None, sizeAverage=True):
        super().__init__()
        self.lsm = LogSoftMax()
        self.nll = ClassNLLCriterion(weights, sizeAverage)

    def updateOutput(self, input, target):
        self.output = self.nll.updateOutput(self.lsm.updateOutput(input), target)
        return self.output

    def updateGradInput(self, input, target):
        grad = self.nll.updateGradInput(self.lsm.output, target)
        self.gradInput = self.lsm.updateGradInput(input, grad)
        return self.gradInput
