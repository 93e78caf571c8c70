"""nn.parallel on two simulated CUDA devices (core's ``torch.cuda._runtime.simulated``,
what ``TORCH_CUDA_SIMULATE=2`` turns on): scatter, gather, replicate, parallel_apply, and
DataParallel training the digits CNN to the weights one device reaches."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn
from torch.cuda import _runtime
from torch.nn.parallel import gather, parallel_apply, replicate, scatter


@pytest.fixture
def rt():
    with _runtime.simulated(2) as runtime:
        yield runtime


def test_scatter_splits_nested_inputs(rt):
    x = torch.arange(10.0).reshape(5, 2)
    pieces = scatter((x, {"scale": x[:, 0]}, "tag"), [0, 1])
    assert len(pieces) == 2
    first, second = pieces
    assert first[0].device.index == 0 and second[0].device.index == 1
    assert first[0].shape == (3, 2) and second[0].shape == (2, 2)
    assert torch.equal(second[1]["scale"].cpu(), x[3:, 0])
    assert first[2] == second[2] == "tag"


def test_gather_concatenates_on_the_target(rt):
    parts = [torch.ones(2, 3, device="cuda:0"), torch.zeros(1, 3, device="cuda:1")]
    joined = gather(parts, 1)
    assert joined.device.index == 1 and joined.shape == (3, 3)
    assert gather(parts, "cpu").device.type == "cpu"
    nested = gather([(parts[0], None), (parts[1], None)], 0)
    assert nested[0].shape == (3, 3) and nested[1] is None
    with pytest.warns(UserWarning, match="all input tensors were scalars"):
        scalars = gather(
            [torch.tensor(1.0, device="cuda:0"), torch.tensor(2.0, device="cuda:1")], 0
        )
    assert scalars.tolist() == [1.0, 2.0] and scalars.device.index == 0


def test_replicas_share_the_gradient(rt):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).cuda(0)
    replicas = replicate(net, [0, 1])
    assert replicas[1][0].weight.device.index == 1 and list(replicas[1].parameters()) == []
    shared = replicas[0][1].running_mean  # buffers share memory on device 0
    assert shared.data_ptr() == net[1].running_mean.data_ptr()
    x = torch.randn(6, 3)
    out0 = replicas[0](x[:3].cuda(0))
    out1 = replicas[1](x[3:].cuda(1))
    (out0.sum() + out1.sum().to("cuda:0")).backward()
    grads = net[0].weight.grad
    assert grads is not None and grads.device.index == 0
    # the sum of each replica's gradient, as one pass over both halves would give
    reference = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    reference.load_state_dict({k: v.cpu() for k, v in net.state_dict().items()})
    (reference(x[:3]).sum() + reference(x[3:]).sum()).backward()
    assert torch.allclose(grads.cpu(), reference[0].weight.grad, atol=1e-6)


def test_parallel_apply_runs_a_thread_per_device(rt):
    seen = []

    class Probe(nn.Module):
        def forward(self, x):
            seen.append((threading.get_ident(), rt.current_device(), torch.is_grad_enabled()))
            return x * 2

    inputs = [(torch.ones(1, device="cuda:0"),), (torch.ones(1, device="cuda:1"),)]
    with torch.no_grad():
        outputs = parallel_apply([Probe(), Probe()], inputs)
    assert [o.device.index for o in outputs] == [0, 1]
    assert sorted(device for _, device, _ in seen) == [0, 1]
    assert not any(grad for _, _, grad in seen)  # the caller's grad mode, in each thread
    assert rt.current_device() == 0


def test_parallel_apply_reraises_with_the_replica(rt):
    class Broken(nn.Module):
        def forward(self, x):
            raise ValueError("bad input")

    inputs = [(torch.ones(1, device="cuda:0"),), (torch.ones(1, device="cuda:1"),)]
    with pytest.raises(ValueError, match="in replica 0 on device 0"):
        parallel_apply([Broken(), Broken()], inputs)


def test_data_parallel_checks_where_the_module_is(rt):
    net = nn.DataParallel(nn.Linear(2, 2))
    assert net.device_ids == [0, 1] and net.output_device == 0
    with pytest.raises(RuntimeError, match="module must have its parameters and buffers on"):
        net(torch.ones(4, 2, device="cuda:0"))
    net.cuda()
    out = net(torch.ones(4, 2))
    assert out.device.index == 0 and out.shape == (4, 2)
    functional = nn.parallel.data_parallel(net.module, torch.ones(4, 2), [0, 1], output_device=1)
    assert functional.device.index == 1


# ----------------------------------------------------------------- the digits CNN


class DigitsNet(nn.Module):
    """The CNN of examples/digits (without its dropout, whose masks would differ between
    one and two devices' generators)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = nn.Linear(32 * 2 * 2, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        return F.log_softmax(self.fc2(x), dim=1)


def _digits(count: int = 256):
    """sklearn's digits (as examples/digits loads them) when sklearn is installed, else
    as many synthetic 8x8 images: a noisy prototype per class."""
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        rng = np.random.default_rng(0)
        prototypes = rng.random((10, 8, 8))
        labels = rng.integers(0, 10, count)
        images = prototypes[labels] + 0.3 * rng.random((count, 8, 8))
        images, labels = images / images.max(), labels
    else:
        digits = load_digits()
        images, labels = digits.images[:count] / 16.0, digits.target[:count]
    x = torch.tensor(images, dtype=torch.float32).unsqueeze(1)
    return x, torch.tensor(labels, dtype=torch.int64)


def _train(model, params, images, labels, device: str, steps: int = 8, batch: int = 32):
    optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)
    losses = []
    for step in range(steps):
        rows = slice(step * batch, (step + 1) * batch)
        optimizer.zero_grad()
        loss = F.nll_loss(model(images[rows].to(device)), labels[rows].to(device))
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def test_data_parallel_trains_the_digits_cnn_as_one_device_does(rt):
    pytest.importorskip("torch.optim", reason="needs torch-optim, which is not installed")
    images, labels = _digits()
    torch.manual_seed(0)
    single = DigitsNet().cuda(0)
    torch.manual_seed(0)
    wrapped = DigitsNet().cuda(0)
    parallel = nn.DataParallel(wrapped, device_ids=[0, 1])
    one = _train(single, single.parameters(), images, labels, "cuda:0")
    two = _train(parallel, wrapped.parameters(), images, labels, "cuda:0")
    assert one[-1] < one[0]  # it learns
    assert np.allclose(one, two, atol=1e-5)
    for (name, a), b in zip(single.state_dict().items(), wrapped.state_dict().values()):
        assert a.device == b.device == torch.device("cuda", 0)
        assert torch.allclose(a.cpu(), b.cpu(), atol=1e-5), name
    # both devices did work: each replica's half of the batch went to its device
    assert rt.backend.device_to_device > 0
