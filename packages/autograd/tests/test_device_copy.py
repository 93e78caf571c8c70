"""Autograd across devices, on core's test-only "twin" device: gradients flow back
through ``.to()`` to the device each input lives on."""

from __future__ import annotations

import pytest

import torch
from torch.testing._twin_backend import twin_device


@pytest.fixture
def twin():
    with twin_device() as backend:
        yield backend


def test_gradient_flows_back_through_a_copy(twin):
    x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    y = x.to("twin")
    assert y.grad_fn is not None and y.device.type == "twin"
    loss = (y * y).sum()
    loss.backward()
    assert x.grad.device.type == "cpu"
    assert torch.allclose(x.grad, 2 * x.detach())


def test_leaves_on_the_device_get_gradients_there(twin):
    w = torch.randn(3, 3, dtype=torch.float64, device="twin:1", requires_grad=True)
    b = torch.zeros(3, dtype=torch.float64, device="twin:1", requires_grad=True)
    out = torch.tanh(w @ w + b).mean()
    out.backward()
    assert w.grad.device == w.device and b.grad.device == b.device
    # the same computation on the host gives the same gradients
    w_host = w.detach().cpu().requires_grad_(True)
    b_host = b.detach().cpu().requires_grad_(True)
    torch.tanh(w_host @ w_host + b_host).mean().backward()
    assert torch.allclose(w.grad.cpu(), w_host.grad)
    assert torch.allclose(b.grad.cpu(), b_host.grad)


def test_round_trip_between_devices(twin):
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)
    y = x.to("twin:0").to("twin:1").cpu() * 3
    y.sum().backward()
    assert torch.equal(x.grad, torch.full((4,), 3.0, dtype=torch.float64))


def test_gradcheck_through_a_copy(twin):
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: (t.to("twin").exp() * 2).cpu(), (x,))
