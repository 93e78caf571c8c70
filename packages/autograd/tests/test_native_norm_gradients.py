"""Gradients of core's native layer norm and softmax ops (torch._C's norm family)
against their composites, gradcheck and gradgradcheck."""

from __future__ import annotations

import pytest

import torch


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_layer_norm_op_matches_its_composite_with_gradients(dtype):
    torch.manual_seed(0)
    x = torch.randn(6, 5, 8, dtype=dtype, requires_grad=True)
    w = torch.randn(5, 8, dtype=dtype, requires_grad=True)
    b = torch.randn(5, 8, dtype=dtype, requires_grad=True)
    out = torch.layer_norm(x, (5, 8), w, b)
    assert type(out.grad_fn).__name__ == "NativeLayerNormBackward0"
    dims = (1, 2)
    mean = x.mean(dims, keepdim=True)
    composite = (x - mean) * torch.rsqrt(((x - mean) ** 2).mean(dims, keepdim=True) + 1e-5)
    composite = composite * w + b
    grad = torch.randn_like(out)
    fused = torch.autograd.grad(out, (x, w, b), grad)
    expected = torch.autograd.grad(composite, (x, w, b), grad)
    tol = 1e-5 if dtype is torch.float32 else 1e-12
    torch.testing.assert_close(out, composite, rtol=tol, atol=tol)
    for got, want in zip(fused, expected):
        torch.testing.assert_close(got, want, rtol=tol * 10, atol=tol * 10)


def test_layer_norm_double_backward_follows_gradcheck():
    torch.manual_seed(0)
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, dtype=torch.float64, requires_grad=True)
    b = torch.randn(4, dtype=torch.float64, requires_grad=True)
    fn = lambda *args: torch.layer_norm(args[0], (4,), args[1], args[2])  # noqa: E731
    assert torch.autograd.gradcheck(fn, (x, w, b))
    assert torch.autograd.gradgradcheck(fn, (x, w, b))


def test_softmax_backward_op_matches_the_formula():
    torch.manual_seed(0)
    x = torch.randn(7, 33, dtype=torch.float64, requires_grad=True)
    for dim in (-1, 0):
        assert torch.autograd.gradcheck(lambda t, d=dim: torch.softmax(t, d), (x,))
        assert torch.autograd.gradcheck(lambda t, d=dim: torch.log_softmax(t, d), (x,))
