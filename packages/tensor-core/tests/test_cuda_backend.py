"""The cuda backend on simulated devices (``torch.cuda._runtime.simulated``, what
``TORCH_CUDA_SIMULATE=N`` turns on): placement, copies, mixed-device errors, memory
accounting, streams and events, generators, autograd across copies, save/load."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest
from device_factories import FACTORIES, assert_placed

import torch
from torch.cuda import _runtime
from torch.cuda._simulated import SimulatedArray

MIXED = "Expected all tensors to be on the same device, but found at least two devices"


@pytest.fixture
def rt():
    with _runtime.simulated(2) as runtime:
        yield runtime


def test_get_returns_the_simulated_runtime(rt):
    assert _runtime.get() is rt and rt.simulated and rt.device_count() == 2
    assert torch.device("cuda:1").index == 1


def test_runtime_goes_away_after_the_block():
    with _runtime.simulated(1):
        torch.ones(1).cuda()
    if _runtime.get() is None:
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            torch.ones(1).cuda()


@pytest.mark.parametrize("factory", FACTORIES)
def test_factories(rt, factory):
    assert_placed(factory, "cuda")
    assert rt.backend.host_to_device == 0  # made on the device, not copied there


def test_cuda_without_index_means_the_current_device(rt):
    rt.set_device(1)
    try:
        assert torch.zeros(1, device="cuda").device.index == 1
        assert torch.ones(1).cuda().device.index == 1
        assert rt.current_device() == 1
    finally:
        rt.set_device(0)


def test_copies_between_host_and_devices(rt):
    host = torch.arange(6.0).reshape(2, 3)
    on0 = host.cuda()
    assert on0.is_cuda and on0.device == torch.device("cuda", 0) and on0.get_device() == 0
    assert isinstance(on0._np, SimulatedArray) and not np.shares_memory(on0._np, host._np)
    assert on0.cuda() is on0 and on0.to("cuda:0") is on0
    on1 = on0.to("cuda:1", non_blocking=True)
    assert on1.get_device() == 1 and rt.backend.device_to_device == 1
    assert host.cuda(1).device.index == 1 and host.cuda(torch.device("cuda:1")).get_device() == 1
    back = on1.cpu()
    assert type(back._np) is np.ndarray and torch.equal(back, host)
    assert host.to("cuda", torch.float64).dtype == torch.float64
    assert host.get_device() == -1 and not host.is_cuda
    with pytest.raises(RuntimeError, match="Invalid device, must be cuda device"):
        host.cuda("cpu")


def test_ops_stay_on_their_device_and_match_the_host(rt):
    x = torch.randn(4, 5)
    d = x.cuda(1)
    for f in (
        lambda t: t * 2 + 1,
        lambda t: t @ t.t(),
        lambda t: t.sum(1),
        lambda t: torch.softmax(t, 1),
        lambda t: t.sort(1).values,
        lambda t: t[1:, ::2],
    ):
        result = f(d)
        assert result.device == d.device
        # allclose: the host's small products are torch._C's, the simulated device's NumPy's
        assert torch.allclose(result.cpu(), f(x), rtol=1e-6, atol=1e-6)


def test_mixing_devices_raises_pytorchs_error(rt):
    a, b = torch.ones(2).cuda(0), torch.ones(2).cuda(1)
    with pytest.raises(RuntimeError, match=f"{MIXED}, cuda:0 and cuda:1!"):
        a + b
    with pytest.raises(RuntimeError, match=f"{MIXED}, cuda:0 and cpu!"):
        a + torch.ones(2)
    assert (a + torch.tensor(2.0)).device == a.device  # a 0-dim CPU tensor mixes


def test_invalid_ordinal(rt):
    for make in (lambda: torch.ones(1).cuda(2), lambda: torch.zeros(1, device="cuda:5")):
        with pytest.raises(RuntimeError, match="CUDA error: invalid device ordinal"):
            make()


def test_legacy_type_names(rt):
    x = torch.ones(2)
    moved = x.type("torch.cuda.DoubleTensor")
    assert moved.is_cuda and moved.dtype == torch.float64
    assert moved.type() == "torch.cuda.DoubleTensor"
    assert moved.type("torch.FloatTensor").device.type == "cpu"


# --------------------------------------------------------------------------- memory


def test_memory_is_counted_per_device_in_blocks(rt):
    base0, base1 = rt.memory_allocated(0), rt.memory_allocated(1)
    x = torch.ones(3, device="cuda:1")  # 12 bytes: one 512-byte block
    assert rt.memory_allocated(1) == base1 + 512 and rt.memory_allocated(0) == base0
    big = torch.empty(1000, device="cuda:1")  # 4000 bytes -> 4096
    assert rt.memory_allocated(1) == base1 + 512 + 4096
    view = big[10:20]
    assert rt.memory_allocated(1) == base1 + 512 + 4096  # views allocate nothing
    del big, view
    assert rt.memory_allocated(1) == base1 + 512
    assert rt.max_memory_allocated(1) >= base1 + 512 + 4096
    rt.reset_peak_memory_stats(1)
    assert rt.max_memory_allocated(1) == rt.memory_allocated(1)
    del x


def test_results_of_kernels_are_counted_and_freed(rt):
    x = torch.ones(256, device="cuda")  # 1 KiB
    before = rt.memory_allocated(0)
    y = x * 2
    assert rt.memory_allocated(0) == before + 1024
    del y
    assert rt.memory_allocated(0) == before


def test_reserved_memory_and_empty_cache(rt):
    rt.empty_cache()
    x = torch.empty(3 << 20, dtype=torch.uint8, device="cuda")  # 3 MiB
    assert rt.memory_reserved(0) == 4 << 20  # whole 2 MiB segments
    del x
    assert rt.memory_allocated(0) == 0 and rt.memory_reserved(0) == 4 << 20  # cached
    rt.empty_cache()
    assert rt.memory_reserved(0) == 0
    assert rt.max_memory_reserved(0) >= 4 << 20
    stats = rt.memory_stats(0)
    assert stats["allocated_bytes.all.current"] == 0
    assert stats["allocated_bytes.all.peak"] >= 3 << 20
    assert stats["reserved_bytes.all.current"] == 0
    assert list(stats) == sorted(stats)
    free, total = rt.mem_get_info(0)
    assert free == total > 0


# ------------------------------------------------------------------ streams, events


def test_streams_are_per_device_and_per_thread(rt):
    default = rt.current_stream(0)
    assert default == rt.default_stream(0) and default.cuda_stream == 0
    side = rt.Stream(1, priority=-1)
    assert side.device == torch.device("cuda", 1) and side.priority == -1
    rt.set_stream(side)
    try:
        assert rt.current_stream(1) is side and rt.current_stream(0) is default
        import threading

        seen = []
        thread = threading.Thread(target=lambda: seen.append(rt.current_stream(1)))
        thread.start()
        thread.join()
        assert seen == [rt.default_stream(1)]  # another thread has its own current stream
    finally:
        rt.set_stream(rt.default_stream(1))
    assert "cuda:1" in repr(side) and side.query()


def test_events_record_wait_and_time(rt):
    start, end = rt.Event(enable_timing=True), rt.Event(enable_timing=True)
    assert repr(start) == "<torch.cuda.Event uninitialized>" and start.query()
    with pytest.raises(RuntimeError, match="Both events must be recorded"):
        start.elapsed_time(end)
    stream = rt.Stream(0)
    start.record(stream)
    torch.ones(100, device="cuda").sum()
    end.record(stream)
    assert end.position == start.position + 1 and start.query() and end.query()
    assert start.elapsed_time(end) >= 0.0
    other = rt.Stream(0)
    other.wait_event(end)
    assert other.waits == [end]
    other.wait_stream(stream)
    assert len(other.waits) == 2 and stream.position == 3
    untimed = rt.Event()
    untimed.record()
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        untimed.elapsed_time(end)
    with pytest.raises(RuntimeError, match="does not match recording stream's device"):
        start.record(rt.Stream(1))
    rt.synchronize()
    rt.synchronize(1)


# ----------------------------------------------------------------------- generators


def test_a_generator_per_device(rt):
    rt.manual_seed(7, 0)
    rt.manual_seed(8, 1)
    a = torch.rand(4, device="cuda:0")
    state = rt.get_rng_state(0)
    b = torch.rand(4, device="cuda:0")
    rt.set_rng_state(state, 0)
    assert torch.equal(torch.rand(4, device="cuda:0"), b)
    rt.manual_seed(7, 0)
    assert torch.equal(torch.rand(4, device="cuda:0"), a)
    assert rt.initial_seed(1) == 8 and rt.generator(1).device == torch.device("cuda", 1)
    cpu_state = torch.get_rng_state()
    torch.rand(3, device="cuda:1")
    assert torch.equal(torch.get_rng_state(), cpu_state)  # the CPU's generator untouched


# ----------------------------------------------------------- autograd, save and load


@pytest.mark.autograd
def test_autograd_across_copies(rt):
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    y = x.cuda(1)
    (y.exp() * 2).sum().backward()
    assert x.grad.device.type == "cpu"
    assert torch.allclose(x.grad, 2 * x.detach().exp())
    w = torch.randn(3, 3, device="cuda:1", requires_grad=True)
    (w @ w).tanh().sum().backward()
    assert w.grad.device == w.device


def test_save_and_load_with_map_location(rt):
    x = torch.arange(4.0, device="cuda:1")
    buffer = io.BytesIO()
    torch.save({"x": x}, buffer)
    for location, expected in (
        (None, "cuda:1"),
        ("cpu", "cpu"),
        ({"cuda:1": "cuda:0"}, "cuda:0"),
        (torch.device("cuda", 0), "cuda:0"),
    ):
        buffer.seek(0)
        loaded = torch.load(buffer, map_location=location)["x"]
        assert str(loaded.device) == expected and torch.equal(loaded.cpu(), x.cpu())


def test_loading_onto_a_missing_device(rt):
    buffer = io.BytesIO()
    torch.save(torch.ones(2, device="cuda:1"), buffer)
    with _runtime.simulated(1):
        buffer.seek(0)
        with pytest.raises(RuntimeError, match="torch.cuda.device_count\\(\\) is 1"):
            torch.load(buffer)


def test_pinned_memory(rt):
    x = torch.arange(4.0)
    assert not x.is_pinned()
    pinned = x.pin_memory()
    assert pinned.is_pinned() and pinned.device.type == "cpu" and torch.equal(pinned, x)
    assert pinned.pin_memory() is pinned and pinned[1:].is_pinned()
    assert pinned.cuda(non_blocking=True).is_cuda
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x.is_pinned("cuda")
    assert caught and caught[0].category is DeprecationWarning
    assert not torch.ones(1, device="cuda").is_pinned()


# ------------------------------------------- the CuPy backend's kernels, simulated


@pytest.fixture
def device_kernels():
    with _runtime.simulated(2, host_kernels=False) as runtime:
        yield runtime


def test_device_kernels_compute_what_the_host_does(device_kernels):
    from torch.cuda import _device_kernels

    assert _device_kernels.device_path("matmul") == "device"  # cuBLAS on CuPy
    assert _device_kernels.device_path("add") == "device"
    x = torch.randn(4, 5)
    d = x.cuda(1)
    for f in (lambda t: t * 2 + 1, lambda t: t @ t.t(), lambda t: t.sum(1), torch.tanh):
        result = f(d)
        assert result.device == d.device and torch.allclose(result.cpu(), f(x))
    y = d.clone()
    assert y.add_(1) is y and y.device == d.device and torch.equal(y.cpu(), x + 1)


@pytest.mark.autograd
def test_device_kernels_carry_gradients(device_kernels):
    w = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
    (w.cuda(1) @ w.cuda(1)).tanh().sum().backward()
    w_host = w.detach().clone().requires_grad_(True)
    (w_host @ w_host).tanh().sum().backward()
    assert torch.allclose(w.grad, w_host.grad)


def test_a_listed_op_takes_the_host_round_trip_until_the_runtime_goes(monkeypatch):
    # no op of the op database needs the round trip now: list one for the mechanism's test
    from torch._interface import ops
    from torch.cuda import _device_kernels

    monkeypatch.setitem(_device_kernels.HOST_ROUND_TRIP, "geqrf", "the round trip's test")
    a = torch.randn(4, 3, dtype=torch.float64)
    with _runtime.simulated(1, host_kernels=False) as runtime:
        assert "cuda" in ops["geqrf"].kernels
        assert _device_kernels.device_path("geqrf") == "host"
        before = runtime.backend.device_to_host
        q, tau = torch.geqrf(a.cuda())
        assert runtime.backend.device_to_host > before  # copied to the host and back
        assert q.device.type == "cuda" and torch.allclose(q.cpu(), torch.geqrf(a)[0])
    assert "cuda" not in ops["geqrf"].kernels
