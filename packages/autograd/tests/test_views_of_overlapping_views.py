"""Gradients through a view of a view whose elements share memory (expand, unfold): each
input element gets its gradient once, as in PyTorch 2.13 (values recorded from it)."""

import pytest

import torch
from torch.autograd import gradcheck, gradgradcheck

CASES = {
    # name: (input size, function of the input, PyTorch 2.13's gradient of its sum)
    "expand_then_slice": (4, lambda x: x.expand(3, 4)[:2], [2.0, 2.0, 2.0, 2.0]),
    "expand_then_select": (4, lambda x: x.expand(3, 4)[1], [1.0, 1.0, 1.0, 1.0]),
    "expand_transpose_slice": (4, lambda x: x.expand(3, 4).t()[1:3], [0.0, 3.0, 3.0, 0.0]),
    "expand_column_slice": (4, lambda x: (x * 1).expand(3, 4)[:, 1:3], [0.0, 3.0, 3.0, 0.0]),
    "unfold_then_slice": (
        10,
        lambda x: x.unfold(0, 4, 1)[:5],
        [1.0, 2.0, 3.0, 4.0, 4.0, 3.0, 2.0, 1.0, 0.0, 0.0],
    ),
    "strided_unfold_then_slice": (
        10,
        lambda x: x.unfold(0, 4, 2)[1:3, 1:],
        [0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 1.0, 1.0, 0.0, 0.0],
    ),
    "expanded_view_diagonal": (
        6,
        lambda x: x.view(2, 3).expand(2, 2, 3).diagonal(0, 0, 1),
        [1.0] * 6,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_pytorch(name):
    size, function, expected = CASES[name]
    x = torch.arange(float(size), requires_grad=True)
    function(x).sum().backward()
    assert x.grad.tolist() == expected


def test_weighted_gradient_matches_pytorch():
    x = torch.arange(10.0, requires_grad=True)
    weights = torch.arange(20.0).view(5, 4)
    ((x * 1).unfold(0, 4, 1)[:5] * weights).sum().backward()
    assert x.grad.tolist() == [0.0, 5.0, 15.0, 30.0, 46.0, 42.0, 33.0, 19.0, 0.0, 0.0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_of_gradients(name):
    size, function, _ = CASES[name]
    x = torch.rand(size, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: function(t) * function(t), (x,))
    assert gradgradcheck(lambda t: function(t) * function(t), (x,))
