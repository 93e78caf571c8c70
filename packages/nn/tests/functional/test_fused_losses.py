"""Core's fused losses (one recorded node each) against the composites of
``torch.nn.functional`` that they replace on its hot path (moved here from
torch-core's tests with the composites)."""

import numpy as np
import pytest

import torch
from torch._interface import ops
from torch.nn.functional import loss as composites

REDUCTIONS = ["mean", "sum", "none"]


def _fused(name):
    return ops[name].function


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_mse_loss_matches_the_composite_to_the_bit(reduction):
    torch.manual_seed(0)
    x, y = torch.randn(4, 5), torch.randn(4, 5)
    expected = composites._mse_loss(x, y, reduction)
    got = _fused("_mse_loss")(x, y, reduction)
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


@pytest.mark.parametrize("name", ["cross_entropy", "nll_loss"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_class_index_losses_match_the_composites(name, reduction):
    torch.manual_seed(0)
    x = torch.randn(6, 4)
    if name == "nll_loss":
        x = torch.log_softmax(x, 1)
    target = torch.tensor([0, 3, -100, 2, 1, 3])
    expected = getattr(composites, f"_{name}")(x, target, reduction=reduction)
    got = _fused(f"_{name}")(x, target, -100, reduction)
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_loss_gradients_match_the_composites(reduction):
    torch.manual_seed(0)
    x = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
    target = torch.tensor([0, 3, -100, 2, 1, 3])
    grad = torch.randn(6, dtype=torch.float64) if reduction == "none" else None
    for name in ("cross_entropy", "nll_loss"):
        fused = torch.autograd.grad(_fused(f"_{name}")(x, target, -100, reduction), x, grad)
        composite_op = getattr(composites, f"_{name}")
        composite = torch.autograd.grad(composite_op(x, target, reduction=reduction), x, grad)
        np.testing.assert_allclose(fused[0].numpy(), composite[0].numpy(), rtol=1e-12)
