"""Writes into a tensor whose elements share memory (an expanded dim) raise as in PyTorch;
the writes PyTorch allows there (fills, view changes, advanced-index assignment) pass."""

import pytest

import torch

OVERLAP = "more than one element of the written-to tensor refers to a single memory location"


def _expanded():
    return torch.zeros(3, 1).expand(3, 3)


@pytest.mark.parametrize(
    "write",
    [
        lambda t: t.add_(1),
        lambda t: t.mul_(torch.ones(3, 3)),
        lambda t: t.copy_(torch.ones(3, 3)),
        lambda t: t.neg_(),
        lambda t: t.clamp_(0, 1),
        lambda t: t.lerp_(torch.ones(3, 3), 0.5),
        lambda t: t.index_add_(0, torch.tensor([0]), torch.ones(1, 3)),
        lambda t: t.scatter_(1, torch.tensor([[0]]), 1.0),
        lambda t: t.uniform_(),
        lambda t: t.__setitem__(0, 1.0),
        lambda t: torch.add(torch.ones(3, 3), 1, out=t),
        lambda t: torch.sort(torch.ones(3, 3), out=(t, torch.zeros(3, 3, dtype=torch.long))),
    ],
)
def test_write_into_expanded_tensor_raises(write):
    with pytest.raises(RuntimeError, match=OVERLAP):
        write(_expanded())


@pytest.mark.parametrize(
    "write",
    [
        lambda t: t.fill_(2),
        lambda t: t.zero_(),
        lambda t: t.masked_fill_(torch.ones(3, 3, dtype=torch.bool), 1.0),
        lambda t: t.index_fill_(0, torch.tensor([0]), 1.0),
        lambda t: t.__setitem__((0, 0), 1.0),
        lambda t: t.__setitem__((slice(None), 0), 1.0),
        lambda t: t.t_(),
    ],
)
def test_writes_pytorch_allows_into_expanded_tensor(write):
    write(_expanded())


def test_no_false_positives():
    torch.zeros(2, 3).t().add_(1)  # transposed: strides without zeros
    torch.zeros(3, 1).expand(3, 1).add_(1)  # stride 0 over a single element
    torch.zeros(1).expand(0).add_(1)  # empty
    # PyTorch decides only the expanded case; other as_strided overlaps pass there too
    torch.zeros(4).as_strided((3, 2), (1, 1)).add_(1)
