"""Loss layers. Each stores its options (``reduction``: ``'none'``, ``'mean'`` or
``'sum'``; the legacy ``size_average``/``reduce`` pair is turned into it) and calls the
functional form. Class weights are buffers, so ``to()`` and ``state_dict`` see them."""

from __future__ import annotations

from .. import functional as F  # noqa: N812
from ..functional._common import legacy_reduction
from .misc import PairwiseDistance
from .module import Module

__all__ = [
    "L1Loss", "NLLLoss", "NLLLoss2d", "PoissonNLLLoss", "GaussianNLLLoss", "KLDivLoss",
    "MSELoss", "BCELoss", "BCEWithLogitsLoss", "HingeEmbeddingLoss", "MultiLabelMarginLoss",
    "SmoothL1Loss", "HuberLoss", "SoftMarginLoss", "CrossEntropyLoss",
    "MultiLabelSoftMarginLoss", "CosineEmbeddingLoss", "MarginRankingLoss",
    "MultiMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss", "CTCLoss",
]  # fmt: skip


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = legacy_reduction(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(
        self, weight=None, size_average=None, reduce=None, reduction: str = "mean"
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class _ElementwiseLoss(_Loss):
    """A loss of ``input`` and ``target`` alone: ``_functional(input, target, reduction)``."""

    def forward(self, input, target):
        return self._functional(input, target, reduction=self.reduction)


class L1Loss(_ElementwiseLoss):
    """Mean absolute error ``|x - y|``.

    Args:
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        size_average, reduce: deprecated; use ``reduction``.

    Shape:
        - Input: (*); Target: same shape; Output: scalar, or (*) with ``'none'``.

    Examples::

        >>> nn.L1Loss()(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 2.0]))
        tensor(1.)
    """

    _functional = staticmethod(F.l1_loss)


class MSELoss(_ElementwiseLoss):
    """Mean squared error ``(x - y)^2``; arguments as :class:`L1Loss`.

    Examples::

        >>> nn.MSELoss(reduction="sum")(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 2.0]))
        tensor(2.)
    """

    _functional = staticmethod(F.mse_loss)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of class indices under log-probabilities.

    Args:
        weight (Tensor, optional): a weight per class (C,).
        ignore_index (int): targets with this value are skipped. Default: -100.
        reduction (str): Default: ``'mean'`` (weighted mean over counted targets).

    Shape:
        - Input: (N, C) or (N, C, d1, ...); Target: (N) or (N, d1, ...).

    Examples::

        >>> nn.NLLLoss()(torch.tensor([[-0.5, -1.5]]), torch.tensor([0]))
        tensor(0.5000)
    """

    def __init__(
        self,
        weight=None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(
            input, target, weight=self.weight, ignore_index=self.ignore_index,
            reduction=self.reduction,
        )  # fmt: skip


class NLLLoss2d(NLLLoss):
    """Deprecated alias of :class:`NLLLoss` for (N, C, H, W) inputs."""


class CrossEntropyLoss(_WeightedLoss):
    """Cross-entropy of logits against class indices or class probabilities:
    ``nll_loss(log_softmax(x, 1), y)``.

    Args:
        weight (Tensor, optional): a weight per class.
        ignore_index (int): Default: -100.
        reduction (str): Default: ``'mean'``.
        label_smoothing (float): Default: 0.

    Shape:
        - Input: (C), (N, C) or (N, C, d1, ...); Target: indices (), (N) or
          (N, d1, ...), or probabilities of the input's shape.

    Examples::

        >>> nn.CrossEntropyLoss()(torch.tensor([[0.0, 0.0]]), torch.tensor([1]))
        tensor(0.6931)
    """

    def __init__(
        self,
        weight=None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(
            input, target, weight=self.weight, ignore_index=self.ignore_index,
            reduction=self.reduction, label_smoothing=self.label_smoothing,
        )  # fmt: skip


class PoissonNLLLoss(_Loss):
    """Poisson negative log-likelihood.

    Args:
        log_input (bool): the input is the log-rate. Default: ``True``.
        full (bool): add Stirling's term. Default: ``False``.
        eps (float): added inside the log when ``log_input=False``. Default: 1e-8.

    Examples::

        >>> nn.PoissonNLLLoss()(torch.tensor([0.0]), torch.tensor([1.0]))
        tensor(1.)
    """

    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        size_average=None,
        eps: float = 1e-8,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(
            log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
            reduction=self.reduction,
        )  # fmt: skip


class GaussianNLLLoss(_Loss):
    """Gaussian negative log-likelihood with a predicted variance.

    Args:
        full (bool): add the constant term. Default: ``False``.
        eps (float): lower clamp of the variance. Default: 1e-6.

    Examples::

        >>> nn.GaussianNLLLoss()(torch.zeros(2), torch.zeros(2), torch.ones(2))
        tensor(0.)
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(
            input, target, var, full=self.full, eps=self.eps, reduction=self.reduction
        )


class KLDivLoss(_Loss):
    """KL divergence of ``target`` from the log-probabilities ``input``.

    Args:
        reduction (str): ``'none'``, ``'batchmean'``, ``'sum'`` or ``'mean'``.
            Default: ``'mean'``.
        log_target (bool): ``target`` holds log-probabilities. Default: ``False``.

    Examples::

        >>> p = torch.tensor([[0.5, 0.5]])
        >>> nn.KLDivLoss(reduction="batchmean")(p.log(), p)
        tensor(0.)
    """

    def __init__(
        self, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities.

    Args:
        weight (Tensor, optional): a weight per element (broadcast).
        reduction (str): Default: ``'mean'``.

    Examples::

        >>> nn.BCELoss()(torch.tensor([0.5]), torch.tensor([1.0]))
        tensor(0.6931)
    """

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross-entropy of ``sigmoid(input)``, computed stably from logits.

    Args:
        weight (Tensor, optional): a weight per element.
        reduction (str): Default: ``'mean'``.
        pos_weight (Tensor, optional): a weight of the positive examples per class.

    Examples::

        >>> nn.BCEWithLogitsLoss()(torch.tensor([0.0]), torch.tensor([1.0]))
        tensor(0.6931)
    """

    def __init__(
        self, weight=None, size_average=None, reduce=None, reduction: str = "mean", pos_weight=None
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(
            input, target, self.weight, pos_weight=self.pos_weight, reduction=self.reduction
        )


class HingeEmbeddingLoss(_Loss):
    """``x`` for targets 1, ``max(0, margin - x)`` for targets -1.

    Args:
        margin (float): Default: 1.

    Examples::

        >>> nn.HingeEmbeddingLoss()(torch.tensor([0.3, 0.3]), torch.tensor([1.0, -1.0]))
        tensor(0.5000)
    """

    def __init__(
        self, margin: float = 1.0, size_average=None, reduce=None, reduction: str = "mean"
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class MultiLabelMarginLoss(_ElementwiseLoss):
    """Multi-label hinge loss; each target row lists class indices, ended by -1.

    Examples::

        >>> x = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> nn.MultiLabelMarginLoss()(x, torch.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """

    _functional = staticmethod(F.multilabel_margin_loss)


class SmoothL1Loss(_Loss):
    """Squared error below ``beta``, absolute error above.

    Args:
        beta (float): Default: 1.

    Examples::

        >>> nn.SmoothL1Loss()(torch.tensor([0.0, 3.0]), torch.tensor([0.5, 0.0]))
        tensor(1.3125)
    """

    def __init__(
        self, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error (halved) below ``delta``, ``delta``-scaled absolute error above.

    Args:
        reduction (str): Default: ``'mean'``. delta (float): Default: 1.

    Examples::

        >>> nn.HuberLoss()(torch.tensor([0.0, 3.0]), torch.tensor([0.5, 0.0]))
        tensor(1.3125)
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class SoftMarginLoss(_ElementwiseLoss):
    """Logistic loss ``log(1 + exp(-y x))`` for targets in {-1, 1}.

    Examples::

        >>> nn.SoftMarginLoss()(torch.tensor([0.0]), torch.tensor([1.0]))
        tensor(0.6931)
    """

    _functional = staticmethod(F.soft_margin_loss)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """Per-class logistic loss, averaged over classes.

    Examples::

        >>> nn.MultiLabelSoftMarginLoss()(torch.zeros(1, 2), torch.tensor([[1.0, 0.0]]))
        tensor(0.6931)
    """

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(
            input, target, weight=self.weight, reduction=self.reduction
        )


class _PairMarginLoss(_Loss):
    """A loss of two inputs and a target of 1s and -1s, with a ``margin``."""

    def __init__(
        self, margin: float = 0.0, size_average=None, reduce=None, reduction: str = "mean"
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return self._functional(
            input1, input2, target, margin=self.margin, reduction=self.reduction
        )


class CosineEmbeddingLoss(_PairMarginLoss):
    """``1 - cos(x1, x2)`` for targets 1, ``max(0, cos(x1, x2) - margin)`` for -1.

    Args:
        margin (float): Default: 0.

    Examples::

        >>> x = torch.tensor([[1.0, 0.0]])
        >>> nn.CosineEmbeddingLoss()(x, x, torch.tensor([1.0]))
        tensor(0.)
    """

    _functional = staticmethod(F.cosine_embedding_loss)


class MarginRankingLoss(_PairMarginLoss):
    """``max(0, -y (x1 - x2) + margin)``.

    Args:
        margin (float): Default: 0.

    Examples::

        >>> nn.MarginRankingLoss()(torch.tensor([1.0]), torch.tensor([2.0]), torch.tensor([1.0]))
        tensor(1.)
    """

    _functional = staticmethod(F.margin_ranking_loss)


class MultiMarginLoss(_WeightedLoss):
    """Multi-class hinge loss.

    Args:
        p (int): 1 or 2. Default: 1. margin (float): Default: 1.
        weight (Tensor, optional): a weight per class.

    Examples::

        >>> nn.MultiMarginLoss()(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([3]))
        tensor(0.3250)
    """

    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight=None,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(
                f"MultiMarginLoss: expected weight to be None or 1D tensor, got "
                f"{weight.dim()}D instead"
            )
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return F.multi_margin_loss(
            input, target, p=self.p, margin=self.margin, weight=self.weight,
            reduction=self.reduction,
        )  # fmt: skip


def _check_margin_positive(loss_name: str, margin) -> None:
    if margin <= 0:
        raise ValueError(f"{loss_name}: expected margin to be greater than 0, got {margin} instead")


class TripletMarginLoss(_Loss):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with p-norm distances.

    Args:
        margin (float): Default: 1. p (float): Default: 2. eps (float): Default: 1e-6.
        swap (bool): use the closer of the two negatives' distances. Default: ``False``.

    Examples::

        >>> a = torch.zeros(1, 2)
        >>> nn.TripletMarginLoss()(a, a, a + 3)
        tensor(0.)
    """

    def __init__(
        self,
        margin: float = 1.0,
        p: float = 2.0,
        eps: float = 1e-6,
        swap: bool = False,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        _check_margin_positive("TripletMarginLoss", margin)
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(
            anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
            swap=self.swap, reduction=self.reduction,
        )  # fmt: skip


class TripletMarginWithDistanceLoss(_Loss):
    """Triplet loss with any distance function.

    Args:
        distance_function (callable, optional): Default: pairwise distance.
        margin (float): Default: 1. swap (bool): Default: ``False``.

    Examples::

        >>> a = torch.zeros(1, 2)
        >>> nn.TripletMarginWithDistanceLoss()(a, a, a + 3)
        tensor(0.)
    """

    def __init__(
        self,
        *,
        distance_function=None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
    ) -> None:
        super().__init__(None, None, reduction)
        _check_margin_positive("TripletMarginWithDistanceLoss", margin)
        # None means the Euclidean pairwise distance, held as a submodule (it shows in repr)
        self.distance_function = (
            distance_function if distance_function is not None else PairwiseDistance()
        )
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction,
        )  # fmt: skip


class CTCLoss(_Loss):
    """Connectionist temporal classification loss.

    Args:
        blank (int): the blank label. Default: 0.
        reduction (str): ``'mean'`` divides each loss by its target length first.
        zero_infinity (bool): replace infinite losses by 0. Default: ``False``.

    Shape:
        - Log_probs: (T, N, C); Targets: (N, S) or concatenated; lengths: (N,).

    Examples::

        >>> lp = torch.zeros(2, 1, 2).log_softmax(2)
        >>> nn.CTCLoss()(lp, torch.tensor([[1]]), torch.tensor([2]), torch.tensor([1]))
        tensor(0.2877)
    """

    def __init__(
        self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False
    ) -> None:
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(
            log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
            self.zero_infinity,
        )  # fmt: skip
