"""torch.nn.grad: convolution gradients as functions equal autograd's."""

import torch
from torch import nn


def test_conv_gradients_equal_autograd():
    torch.manual_seed(0)
    x = torch.randn(2, 3, 7, requires_grad=True)
    w = torch.randn(4, 3, 3, requires_grad=True)
    out = nn.functional.conv1d(x, w, stride=2, padding=1)
    g = torch.randn(*out.shape)
    out.backward(g)
    gi = nn.grad.conv1d_input(x.shape, w, g, stride=2, padding=1)
    gw = nn.grad.conv1d_weight(x, w.shape, g, stride=2, padding=1)
    assert float((gi - x.grad).abs().max()) < 1e-5
    assert float((gw - w.grad).abs().max()) < 1e-5
