"""Training steps on a strict simulated CUDA device (arrays that refuse host access as
CuPy's do): a small CNN and an LSTM run forward, backward and a parameter update with no
host copy, and reach the CPU's weights. Random numbers are drawn on the device."""

from __future__ import annotations

import pytest

import torch
from torch.cuda import _runtime

pytestmark = [pytest.mark.nn, pytest.mark.autograd]


@pytest.fixture(scope="module")
def strict():
    with _runtime.simulated(1, host_kernels=False) as runtime:
        yield runtime


def _cnn():
    from torch import nn

    torch.manual_seed(0)
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(4, 4, 3, stride=2, padding=1, bias=False),
        nn.Tanh(),
        nn.AvgPool2d(2),
        nn.Flatten(),
        nn.Linear(4, 10),
    )


def _lstm():
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lstm = nn.LSTM(3, 5, num_layers=2)
            self.head = nn.Linear(5, 2)

        def forward(self, x):
            out, _ = self.lstm(x)
            return self.head(out[-1])

    torch.manual_seed(0)
    return Net()


def _cnn_loss(model, x, y):
    import torch.nn.functional as F  # noqa: N812

    return F.cross_entropy(model(x), y)


def _lstm_loss(model, x, y):
    import torch.nn.functional as F  # noqa: N812

    return F.mse_loss(model(x), y)


def _cnn_data():
    torch.manual_seed(1)
    return torch.randn(6, 1, 8, 8), torch.randint(0, 10, (6,))


def _lstm_data():
    torch.manual_seed(1)
    return torch.randn(4, 3, 3), torch.randn(3, 2)


def _steps(model, loss_of, x, y, device, backend=None, steps=2, lr=0.1):
    """SGD steps; on the device, the copies made inside each step are returned too."""
    model = model.to(device)
    x, y = x.to(device), y.to(device)
    copies, losses = [], []
    for _ in range(steps):
        before = None if backend is None else (backend.host_to_device, backend.device_to_host)
        model.zero_grad()
        loss = loss_of(model, x, y)
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p.add_(p.grad, alpha=-lr)
        if backend is not None:
            copies.append((backend.host_to_device - before[0], backend.device_to_host - before[1]))
        losses.append(loss.item())  # one element read back, as on a GPU (not a copy)
    weights = {name: t.detach().cpu() for name, t in model.state_dict().items()}
    return weights, losses, copies


@pytest.mark.parametrize(
    ("make", "loss_of", "data"),
    [(_cnn, _cnn_loss, _cnn_data), (_lstm, _lstm_loss, _lstm_data)],
    ids=["cnn", "lstm"],
)
def test_a_training_step_makes_no_host_copy_and_matches_the_cpu(strict, make, loss_of, data):
    x, y = data()
    host, host_losses, _ = _steps(make(), loss_of, x, y, "cpu")
    device, device_losses, copies = _steps(make(), loss_of, x, y, "cuda", strict.backend)
    assert copies == [(0, 0)] * len(copies)
    assert device_losses == pytest.approx(host_losses, rel=1e-5)
    for name, value in host.items():
        assert torch.allclose(device[name], value, rtol=1e-4, atol=1e-6), name


def test_random_numbers_are_drawn_on_the_device(strict):
    backend = strict.backend
    before = (backend.host_to_device, backend.device_to_host)
    torch.cuda.manual_seed(3)
    drawn = [
        torch.rand(4, device="cuda"),
        torch.randn(4, device="cuda"),
        torch.randint(0, 9, (4,), device="cuda"),
        torch.empty(4, device="cuda").uniform_(-1, 1),
        torch.empty(4, device="cuda").normal_(2, 3),
        torch.empty(4, device="cuda").bernoulli_(0.5),
        torch.nn.functional.dropout(torch.ones(8, device="cuda"), 0.5),
    ]
    assert (backend.host_to_device, backend.device_to_host) == before
    assert all(t.device.type == "cuda" for t in drawn)
    # the simulated device's generator is MT19937 as the CPU's: same seed, same numbers
    torch.cuda.manual_seed(3)
    on_device = torch.rand(4, device="cuda").cpu()
    torch.manual_seed(3)
    assert torch.equal(on_device, torch.rand(4))


@pytest.mark.parametrize(
    "view, size, expected",
    [
        (lambda x: x.expand(3, 4)[1], 4, [1.0] * 4),
        (lambda x: x.unfold(0, 4, 1)[:5], 10, [1.0, 2.0, 3.0, 4.0, 4.0, 3.0, 2.0, 1.0, 0.0, 0.0]),
        (lambda x: x.expand(2, 4).t(), 4, [2.0] * 4),
    ],
)
def test_gradients_through_views_of_overlapping_views_stay_on_the_device(view, size, expected):
    # (PyTorch 2.13's values; the positions the split uses are made on the device)
    with _runtime.simulated(1, host_kernels=False):
        x = torch.arange(float(size), device="cuda", requires_grad=True)
        view(x).sum().backward()
        assert x.grad.device.type == "cuda"
        assert x.grad.cpu().tolist() == expected
