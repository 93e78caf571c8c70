"""Models on a simulated CUDA device compute what they compute on the CPU: convolution,
batch norm, pooling, linear layers, an LSTM, losses and optimizers (the native host
kernels run on the device's host memory and their results stay on the device)."""

from __future__ import annotations

import pytest

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn
from torch.cuda import _runtime

pytest.importorskip("torch.optim", reason="needs torch-optim, which is not installed")


@pytest.fixture
def rt():
    with _runtime.simulated(2) as runtime:
        yield runtime


def _cnn():
    torch.manual_seed(0)
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1, bias=False),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.AvgPool2d(2, ceil_mode=True),
        nn.Flatten(),
        nn.Linear(4 * 2 * 2, 10),
    )


def _train(device, optimizer_class, **options):
    torch.manual_seed(1)
    x, y = torch.randn(12, 1, 8, 8), torch.randint(0, 10, (12,))
    model = _cnn().to(device)
    optimizer = optimizer_class(model.parameters(), **options)
    for _ in range(3):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
    assert all(t.device == torch.device(device) for t in model.state_dict().values())
    return {name: t.cpu() for name, t in model.state_dict().items()}


@pytest.mark.parametrize(
    ("optimizer_class", "options"),
    [
        (torch.optim.SGD, {"lr": 0.1, "momentum": 0.9}),
        (torch.optim.Adam, {"lr": 0.01}),
        (torch.optim.RMSprop, {"lr": 0.01}),
    ],
)
def test_a_cnn_trains_as_on_the_cpu(rt, optimizer_class, options):
    host = _train("cpu", optimizer_class, **options)
    device = _train("cuda:1", optimizer_class, **options)
    for name in host:
        assert torch.allclose(host[name].double(), device[name].double(), atol=1e-5), name


def test_an_lstm_runs_and_learns_on_the_device(rt):
    torch.manual_seed(0)
    lstm = nn.LSTM(4, 5, batch_first=True)
    x = torch.randn(2, 3, 4)
    expected, (h, c) = lstm(x)
    lstm.cuda()
    out, (h_dev, c_dev) = lstm(x.cuda())
    assert out.is_cuda and h_dev.is_cuda and torch.allclose(out.cpu(), expected, atol=1e-6)
    out.sum().backward()
    assert all(p.grad.is_cuda for p in lstm.parameters())


@pytest.mark.parametrize(
    "loss",
    [F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.binary_cross_entropy_with_logits, F.kl_div],
)
def test_losses(rt, loss):
    torch.manual_seed(0)
    a, b = torch.randn(4, 3), torch.rand(4, 3)
    on_device = loss(a.cuda(), b.cuda())
    assert on_device.is_cuda and torch.allclose(on_device.cpu(), loss(a, b))


def test_module_cuda_moves_parameters_and_buffers(rt):
    net = nn.BatchNorm1d(3).cuda(1)
    assert all(t.get_device() == 1 for t in (*net.parameters(), *net.buffers()))
    assert isinstance(net.weight, nn.Parameter) and net.weight.is_leaf
    assert net.cpu().weight.device.type == "cpu"
