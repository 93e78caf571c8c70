"""torch.nn.utils.fusion (goldens for the weights are in functional/test_functional.py)."""

import pytest

import torch
from torch import nn


def test_fused_conv_and_linear_match_the_pair():
    torch.manual_seed(0)
    conv, bn = nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3)
    bn(conv(torch.randn(4, 2, 5, 5)))  # non-trivial running statistics
    conv.eval(), bn.eval()
    x = torch.randn(2, 2, 5, 5)
    assert float((nn.utils.fuse_conv_bn_eval(conv, bn)(x) - bn(conv(x))).abs().max()) < 1e-5
    lin, bn1 = nn.Linear(4, 3).eval(), nn.BatchNorm1d(3).eval()
    y = torch.randn(5, 4)
    assert float((nn.utils.fuse_linear_bn_eval(lin, bn1)(y) - bn1(lin(y))).abs().max()) < 1e-5


def test_fusion_needs_eval_mode():
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        nn.utils.fuse_conv_bn_eval(nn.Conv2d(1, 1, 1), nn.BatchNorm2d(1))
