"""The cuda backend on real GPUs (CuPy). Run by ``nox -s gpu``; every test skips, saying
why, where CuPy or a GPU is missing or simulated devices are on."""

from __future__ import annotations

import importlib.util
import os

import pytest

import torch
from torch.cuda import _runtime


def _real_runtime():
    if os.environ.get(_runtime.SIMULATE_ENV):
        pytest.skip(f"{_runtime.SIMULATE_ENV} is set: these tests need the real runtime")
    if importlib.util.find_spec("cupy") is None:
        pytest.skip("CuPy is not installed (pip install torch-core[cuda12] or [cuda13])")
    runtime = _runtime.get()
    if runtime is None or runtime.simulated:
        pytest.skip("CuPy finds no CUDA device")
    return runtime


@pytest.fixture
def rt():
    return _real_runtime()


def test_placement_and_copies(rt):
    x = torch.arange(6.0).reshape(2, 3)
    d = x.cuda()
    assert d.is_cuda and type(d._np).__module__.startswith("cupy")
    assert torch.equal(d.cpu(), x)
    assert torch.zeros(3, device="cuda").device == torch.device("cuda", 0)
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        d + x


def test_ops_and_autograd(rt):
    torch.manual_seed(0)
    a, b = torch.randn(64, 32), torch.randn(32, 16)
    assert torch.allclose((a.cuda() @ b.cuda()).cpu(), a @ b, atol=1e-4)
    w = torch.randn(8, 8, requires_grad=True)
    (w.cuda() @ w.cuda()).tanh().sum().backward()
    w_host = w.detach().clone().requires_grad_(True)
    (w_host @ w_host).tanh().sum().backward()
    assert torch.allclose(w.grad, w_host.grad, atol=1e-4)


def test_a_small_model_step(rt):
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 4, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(144, 10)
    )
    x, y = torch.randn(8, 1, 8, 8), torch.randint(0, 10, (8,))
    expected = torch.nn.functional.cross_entropy(model(x), y)
    model.cuda()
    loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    assert torch.allclose(loss.cpu(), expected, atol=1e-4)
    assert all(p.grad.is_cuda for p in model.parameters())


def test_memory_streams_events(rt):
    before = rt.memory_allocated(0)
    x = torch.empty(1 << 20, device="cuda")
    assert rt.memory_allocated(0) >= before + (4 << 20)
    assert rt.max_memory_allocated(0) >= rt.memory_allocated(0)
    del x
    rt.empty_cache()
    start, end = rt.Event(enable_timing=True), rt.Event(enable_timing=True)
    stream = rt.Stream(0)
    start.record(stream)
    end.record(stream)
    end.synchronize()
    assert start.elapsed_time(end) >= 0.0 and stream.query()


def test_nccl_all_reduce(rt):
    if rt.device_count() < 2:
        pytest.skip("NCCL collectives need two GPUs")
    import torch.cuda.nccl as nccl

    xs = [torch.full((4,), float(i + 1), device=f"cuda:{i}") for i in range(2)]
    nccl.all_reduce(xs)
    assert xs[1].cpu().tolist() == [3.0] * 4


def test_library_kernels_match_the_cpu(rt):
    """cuDNN's convolution, softmax and average pooling, cupyx.scipy.special and cuRAND
    draws (taken only on real CuPy; the simulated devices run the composites)."""
    import torch.nn.functional as F  # noqa: N812

    torch.manual_seed(0)
    x = torch.randn(2, 3, 9, 9, requires_grad=True)
    w = torch.randn(4, 3, 3, 3, requires_grad=True)
    for stride in (1, 2):
        host = F.conv2d(x, w, padding=1, stride=stride)
        host.sum().backward()
        host_grads = x.grad.clone(), w.grad.clone()
        x.grad = w.grad = None
        xd, wd = x.detach().cuda().requires_grad_(True), w.detach().cuda().requires_grad_(True)
        device = F.conv2d(xd, wd, padding=1, stride=stride)
        device.sum().backward()
        assert torch.allclose(device.cpu(), host.detach(), atol=1e-4)
        assert torch.allclose(xd.grad.cpu(), host_grads[0], atol=1e-3)
        assert torch.allclose(wd.grad.cpu(), host_grads[1], atol=1e-3)
    y = torch.randn(5, 7)
    for f in (
        lambda t: torch.softmax(t, 1),
        lambda t: torch.log_softmax(t, 0),
        lambda t: torch.erf(t),
        lambda t: torch.lgamma(t.abs() + 0.5),
        lambda t: torch.digamma(t.abs() + 0.5),
    ):
        assert torch.allclose(f(y.cuda()).cpu(), f(y), atol=1e-5)
    assert torch.allclose(F.avg_pool2d(x.detach().cuda(), 3).cpu(), F.avg_pool2d(x.detach(), 3))
    torch.cuda.manual_seed(0)
    drawn = torch.rand(1000, device="cuda")
    assert drawn.is_cuda and 0 <= float(drawn.min()) and float(drawn.max()) < 1
