"""torch.cuda and torch.backends with a CUDA runtime: each public function hands its work
to the runtime (a small fake one here, monkeypatched over ``torch.cuda._runtime.get``), and
the simulated devices (``torch.cuda._runtime.simulated``) run the common idioms."""

from __future__ import annotations

import types

import pytest

import torch
from torch.cuda import _runtime, _state


class FakeStream:
    def __init__(self, device=None, priority=0, **kwargs):
        self.device, self.priority = device, priority


class FakeEvent:
    def __init__(self, **options):
        self.options = options


class FakeRuntime:
    """Records what torch.cuda asks of it; two devices of compute capability 8.6."""

    simulated = True
    Stream = FakeStream
    Event = FakeEvent

    def __init__(self):
        self.calls = []
        self.device = 0
        self.streams = {}

    def device_count(self):
        return 2

    def current_device(self):
        return self.device

    def set_device(self, index):
        self.calls.append(("set_device", index))
        self.device = index

    def synchronize(self, index):
        self.calls.append(("synchronize", index))

    def device_properties(self, index):
        return types.SimpleNamespace(
            name=f"Fake GPU {index}",
            major=8,
            minor=6,
            total_memory=1 << 30,
            multi_processor_count=8,
        )

    def memory_allocated(self, index):
        return 100 + index

    def max_memory_allocated(self, index):
        return 200 + index

    def memory_reserved(self, index):
        return 300 + index

    def max_memory_reserved(self, index):
        return 400 + index

    def memory_stats(self, index):
        return {"allocated_bytes.all.current": 100 + index, "num_ooms": 0}

    def reset_peak_memory_stats(self, index):
        self.calls.append(("reset_peak_memory_stats", index))

    def empty_cache(self):
        self.calls.append(("empty_cache",))

    def mem_get_info(self, index):
        return (1 << 29, 1 << 30)

    def current_stream(self, index):
        return self.streams.get(index, FakeStream(index))

    def default_stream(self, index):
        return FakeStream(index)

    def set_stream(self, stream):
        self.calls.append(("set_stream", stream))
        self.streams[stream.device] = stream

    def manual_seed(self, seed, index):
        self.calls.append(("manual_seed", seed, index))

    def seed(self, index):
        self.calls.append(("seed", index))

    def initial_seed(self, index):
        return 7

    def get_rng_state(self, index):
        return ("state", index)

    def set_rng_state(self, state, index):
        self.calls.append(("set_rng_state", state, index))

    def cudnn_version(self):
        return 91002

    def cuda_version(self):
        return "12.6"


@pytest.fixture
def fake(monkeypatch):
    runtime = FakeRuntime()
    monkeypatch.setattr(_runtime, "get", lambda: runtime)
    monkeypatch.setattr(_state, "_initialized", [False])
    return runtime


def test_queries_come_from_the_runtime(fake):
    assert torch.cuda.is_available() and torch.cuda.device_count() == 2
    assert not torch.cuda.is_initialized()
    assert torch.cuda.current_device() == 0 and torch.cuda.is_initialized()
    assert torch.cuda.get_device_name(1) == "Fake GPU 1"
    assert torch.cuda.get_device_capability("cuda:1") == (8, 6)
    assert torch.cuda.get_device_properties(torch.device("cuda", 0)).total_memory == 1 << 30
    assert torch.cuda.is_bf16_supported() and torch.cuda.is_tf32_supported()
    with pytest.raises(AssertionError, match="Invalid device id"):
        torch.cuda.get_device_name(2)


def test_device_context_switches_and_restores(fake):
    with torch.cuda.device(1):
        assert torch.cuda.current_device() == 1
    assert torch.cuda.current_device() == 0
    torch.cuda.set_device("cuda:1")
    assert fake.device == 1
    torch.cuda.set_device(-1)  # ignored, as in PyTorch
    assert fake.device == 1


def test_memory_functions_delegate(fake):
    torch.cuda.init()
    assert torch.cuda.memory_allocated(1) == 101
    assert torch.cuda.max_memory_allocated() == 200
    assert torch.cuda.memory_reserved("cuda:1") == 301
    assert torch.cuda.max_memory_reserved(0) == 400
    assert torch.cuda.memory_stats(1)["allocated_bytes.all.current"] == 101
    assert torch.cuda.memory_stats_as_nested_dict(0)["allocated_bytes"]["all"]["current"] == 100
    assert "Allocated memory" in torch.cuda.memory_summary(0)
    assert torch.cuda.mem_get_info() == (1 << 29, 1 << 30)
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats(1)
    torch.cuda.synchronize("cuda:1")
    assert ("empty_cache",) in fake.calls
    assert ("reset_peak_memory_stats", 1) in fake.calls
    assert ("synchronize", 1) in fake.calls


def test_random_functions_delegate(fake):
    torch.cuda.manual_seed(3)
    torch.cuda.manual_seed_all(4)
    assert ("manual_seed", 3, 0) in fake.calls
    assert [c for c in fake.calls if c[:2] == ("manual_seed", 4)] == [
        ("manual_seed", 4, 0),
        ("manual_seed", 4, 1),
    ]
    assert torch.cuda.initial_seed() == 7
    assert torch.cuda.get_rng_state_all() == [("state", 0), ("state", 1)]
    torch.cuda.set_rng_state("s", "cuda:1")
    assert ("set_rng_state", "s", 1) in fake.calls


def test_streams_and_events_are_the_runtimes(fake):
    stream = torch.cuda.Stream(device=1, priority=-1)
    assert isinstance(stream, FakeStream) and isinstance(stream, torch.cuda.Stream)
    assert (stream.device, stream.priority) == (1, -1)
    assert not isinstance(object(), torch.cuda.Stream)
    event = torch.cuda.Event(enable_timing=True)
    assert isinstance(event, torch.cuda.Event) and event.options["enable_timing"] is True
    torch.cuda.init()
    with torch.cuda.stream(torch.cuda.Stream(device=0)) as _:
        assert ("set_stream", fake.streams[0]) in fake.calls
    assert isinstance(torch.cuda.current_stream(1), torch.cuda.Stream)


def test_backends_with_a_runtime(fake):
    assert torch.backends.cudnn.is_available() and torch.backends.cudnn.version() == 91002
    assert torch.backends.cudnn.benchmark_limit == 10
    assert torch.backends.cuda.is_built()
    assert torch.version.cuda == "12.6"
    assert torch.backends.cuda.preferred_linalg_library("cusolver") is (
        torch.backends.cuda.preferred_linalg_library()
    )
    torch.backends.cuda.preferred_linalg_library("default")
    assert torch.backends.cuda.cufft_plan_cache[1].max_size == 4096


def test_missing_runtime_methods_say_which(fake):
    torch.cuda.init()
    with pytest.raises(NotImplementedError, match="does not provide current_blas_handle"):
        torch.cuda.current_blas_handle()
    with pytest.raises(NotImplementedError, match="CUDA graphs"):
        torch.cuda.CUDAGraph()


def test_legacy_types_make_cuda_tensors(fake, monkeypatch):
    made = []
    monkeypatch.setattr(torch, "empty", lambda *a, **k: made.append((a, k)) or "tensor")
    assert torch.cuda.LongTensor(2, 3) == "tensor"
    assert made == [((2, 3), {"dtype": torch.int64, "device": "cuda"})]
    with pytest.raises(NotImplementedError, match="sparse CUDA tensors"):
        torch.cuda.sparse.FloatTensor(2)


simulated = getattr(_runtime, "simulated", None)


@pytest.mark.skipif(simulated is None, reason="the simulated CUDA runtime is not built yet")
def test_idioms_on_simulated_devices():
    with simulated(2):
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        assert device.type == "cuda" and torch.cuda.device_count() == 2
        x = torch.cuda.FloatTensor(2, 3)
        assert isinstance(x, torch.cuda.FloatTensor) and x.device == torch.device("cuda", 0)
        assert not isinstance(x, torch.cuda.DoubleTensor)
        assert not isinstance(torch.zeros(2), torch.cuda.FloatTensor)
        assert torch.cuda.memory_allocated(0) >= 24
        with torch.cuda.device(1):
            y = torch.zeros(4, device="cuda")
        assert y.device == torch.device("cuda", 1)
        assert torch.cuda.current_device() == 0
        assert isinstance(torch.cuda.FloatStorage(3), torch.cuda.FloatStorage)
        torch.cuda.manual_seed_all(1)
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        assert len(torch.cuda.default_generators) == 2
