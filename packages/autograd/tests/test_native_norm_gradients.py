"""Gradients of core's native layer norm, batch norm and softmax ops (torch._C's norm family)
against their composites, gradcheck and gradgradcheck."""

from __future__ import annotations

import pytest

import torch
from torch._interface import ops


def _assert_same_with_gradients(out, composite, inputs):
    """The fused op's result and its gradients along one random direction match the
    composite's (float32 to 1e-5, float64 to 1e-12; gradients ten times looser)."""
    grad = torch.randn_like(out)
    fused = torch.autograd.grad(out, inputs, grad)
    expected = torch.autograd.grad(composite, inputs, grad)
    tol = 1e-5 if out.dtype is torch.float32 else 1e-12
    torch.testing.assert_close(out, composite, rtol=tol, atol=tol)
    for got, want in zip(fused, expected):
        torch.testing.assert_close(got, want, rtol=tol * 10, atol=tol * 10)


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
    _assert_same_with_gradients(out, composite, (x, w, b))


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


def _batch_norm(x, running_mean, running_var, weight, bias):
    """Core's batch_norm (F.batch_norm's arguments) in training mode."""
    return ops["batch_norm"].function(x, running_mean, running_var, weight, bias, True, 0.1, 1e-5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_batch_norm_op_matches_its_composite_with_gradients(dtype):
    torch.manual_seed(0)
    x = torch.randn(4, 3, 5, 6, dtype=dtype, requires_grad=True)
    w = torch.randn(3, dtype=dtype, requires_grad=True)
    b = torch.randn(3, dtype=dtype, requires_grad=True)
    running = [torch.zeros(3, dtype=dtype), torch.ones(3, dtype=dtype)]
    out = _batch_norm(x, *running, w, b)
    assert type(out.grad_fn).__name__ == "NativeBatchNormBackward0"
    dims = (0, 2, 3)
    mean = x.mean(dims, keepdim=True)
    var = ((x - mean) ** 2).mean(dims, keepdim=True)
    composite = (x - mean) * torch.rsqrt(var + 1e-5) * w.reshape(1, 3, 1, 1) + b.reshape(1, 3, 1, 1)
    _assert_same_with_gradients(out, composite, (x, w, b))
    count = 4 * 5 * 6
    torch.testing.assert_close(running[0], 0.1 * mean.reshape(3).detach())
    unbiased = var.reshape(3).detach() * count / (count - 1)
    torch.testing.assert_close(running[1], 0.9 + 0.1 * unbiased)


def test_batch_norm_double_backward_follows_gradcheck():
    torch.manual_seed(0)
    x = torch.randn(4, 2, 3, dtype=torch.float64, requires_grad=True)
    w = torch.randn(2, dtype=torch.float64, requires_grad=True)
    b = torch.randn(2, dtype=torch.float64, requires_grad=True)

    def fn(x, w, b):
        return _batch_norm(x, None, None, w, b)

    assert torch.autograd.gradcheck(fn, (x, w, b))
    assert torch.autograd.gradgradcheck(fn, (x, w, b))
