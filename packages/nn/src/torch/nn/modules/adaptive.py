"""The adaptive log-softmax (Grave et al., 2016, "Efficient softmax approximation for
GPUs"): for a large vocabulary sorted by frequency, the frequent classes (the
shortlist) and one entry per cluster of rarer classes share a small head layer; each
cluster's classes get their log-probabilities from a projection of reduced width,
whose log-probabilities add to the cluster's head entry."""

from __future__ import annotations

from collections import namedtuple

import torch

from .. import functional as F  # noqa: N812
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


def _check_cutoffs(cutoffs: list, n_classes: int) -> None:
    if (
        cutoffs != sorted(cutoffs)
        or min(cutoffs) <= 0
        or max(cutoffs) > n_classes - 1
        or len(set(cutoffs)) != len(cutoffs)
        or any(int(c) != c for c in cutoffs)
    ):
        raise ValueError(
            "cutoffs should be a sequence of unique, positive integers sorted in an increasing "
            "order, where each value is between 1 and n_classes-1"
        )


class AdaptiveLogSoftmaxWithLoss(Module):
    """Adaptive log-softmax over ``n_classes`` classes (sorted by decreasing frequency),
    split at ``cutoffs``: classes below ``cutoffs[0]`` form the shortlist of the head;
    each further range is a cluster whose tail projection has width ``in_features //
    div_value ** (i + 1)``.

    ``forward(input, target)`` returns ``(output, loss)``: the log-probability of each
    target and the mean negative log-likelihood. ``log_prob`` gives the full
    distribution, ``predict`` the most likely class.

    Args:
        in_features (int): size of each input sample.
        n_classes (int): number of classes.
        cutoffs (Sequence[int]): increasing, unique, in [1, n_classes - 1].
        div_value (float): the width divisor of each further cluster. Default: 4.0.
        head_bias (bool): give the head a bias. Default: False.

    Shape:
        - input: (N, in_features) or (in_features); target: (N) or () with values in
          [0, n_classes - 1]; output: (N) or (); loss: scalar. ``log_prob`` and
          ``predict`` take batches (N, in_features) only, as in PyTorch.

    Examples::

        >>> asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[4, 8])
        >>> out = asm(torch.randn(3, 8), torch.tensor([1, 5, 9]))
        >>> out.output.shape, asm.log_prob(torch.randn(3, 8)).exp().sum(1).round().tolist()
        (torch.Size([3]), [1.0, 1.0, 1.0])
    """

    def __init__(
        self,
        in_features: int,
        n_classes: int,
        cutoffs,
        div_value: float = 4.0,
        head_bias: bool = False,
        device=None,
        dtype=None,
    ) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        _check_cutoffs(cutoffs, n_classes)
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, **factory)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            width = int(in_features // (div_value ** (i + 1)))
            classes = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(
                Sequential(
                    Linear(in_features, width, bias=False, **factory),
                    Linear(width, classes, bias=False, **factory),
                )
            )

    def reset_parameters(self) -> None:
        self.head.reset_parameters()
        for into_cluster, to_classes in self.tail:
            into_cluster.reset_parameters()
            to_classes.reset_parameters()

    def _batched(self, input_, target_):
        dims = target_.dim()
        if dims == 1:
            if input_.size(0) != target_.size(0):
                raise RuntimeError(
                    "Input and target should have the same size in the batch dimension."
                )
            if input_.dim() != 2:
                raise RuntimeError(
                    "1D target tensor expects 2D input tensors, but found inputs with size "
                    f"{input_.size()}"
                )
            return input_, target_
        if dims == 0:
            if input_.dim() != 1:
                raise RuntimeError(
                    "0D target tensor expects 1D input tensors, but found inputs with size "
                    f"{input_.size()}"
                )
            return input_.unsqueeze(0), target_.unsqueeze(0)
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")

    def forward(self, input_, target_) -> _ASMoutput:
        input, target = self._batched(input_, target_)
        batch_size = target.size(0)
        output = input.new_zeros(batch_size)
        head_index = target.new_empty(batch_size)  # the head entry each target reads
        bounds = [0] + self.cutoffs
        used_rows = 0
        for i in range(len(bounds) - 1):
            low, high = bounds[i], bounds[i + 1]
            in_range = (target >= low) & (target < high)
            rows = in_range.nonzero().squeeze()
            if rows.numel() == 0:
                continue
            if i == 0:
                head_index.index_copy_(0, rows, target[in_range])
            else:
                cluster_logprob = F.log_softmax(self.tail[i - 1](input.index_select(0, rows)), 1)
                head_index.index_fill_(0, rows, self.shortlist_size + i - 1)
                local = cluster_logprob.gather(1, (target[in_range] - low).unsqueeze(1))
                output.index_copy_(0, rows, local.squeeze(1))
            used_rows += rows.numel()
        if used_rows != batch_size:
            raise RuntimeError(
                f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                f"[{target.min().item()}, {target.max().item()}] were found. "
            )
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output = output + head_logprob.gather(1, head_index.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        if target_.dim() == 0:
            output = output.squeeze(0)
        return _ASMoutput(output, loss)

    def _get_full_log_prob(self, input, head_output):
        """The log-probabilities of every class: the shortlist's from the head, each
        cluster's from its tail plus the cluster's head entry."""
        head_logprob = F.log_softmax(head_output, dim=1)
        pieces = [head_logprob[:, : self.shortlist_size]]
        for i in range(self.n_clusters):
            cluster_logprob = F.log_softmax(self.tail[i](input), dim=1)
            pieces.append(cluster_logprob + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return torch.cat(pieces, dim=1)

    def log_prob(self, input):
        """The log-probability of every class: (N, n_classes) for input (N, in_features)."""
        return self._get_full_log_prob(input, self.head(input))

    def predict(self, input):
        """The most likely class of each sample (N), as ``log_prob(input).argmax(1)``; the
        tails run only for the samples whose head picks a cluster."""
        head_output = self.head(input)
        output = torch.argmax(head_output, dim=1)
        outside = output >= self.shortlist_size
        if not outside.any():
            return output
        if outside.all():
            return torch.argmax(self._get_full_log_prob(input, head_output), dim=1)
        full = self._get_full_log_prob(input[outside], head_output[outside])
        output[outside] = torch.argmax(full, dim=1)
        return output
