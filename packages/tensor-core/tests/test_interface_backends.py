"""The device-backend contract, checked with the test-only "twin" device (a second CPU
device that keeps its arrays apart and counts copies): placement, copies, mixed-device
errors, ``.to()``, factories and ``*_like`` with ``device=``, save/load with
``map_location``."""

from __future__ import annotations

import io

import numpy as np
import pytest
from device_factories import FACTORIES, assert_placed

import torch
from torch import _dispatcher
from torch._interface import backends
from torch.testing._twin_backend import TwinArray, twin_device


@pytest.fixture
def twin():
    with twin_device() as backend:
        yield backend


def test_only_cpu_means_plain_bindings():
    # no dispatcher (and no per-call device check) while the CPU is the only backend
    assert not _dispatcher.installed()
    assert not hasattr(torch.add, "__wrapped_binding__")
    assert set(backends.backends()) == {"cpu"}


def test_registering_and_removing_a_backend_restores_bindings():
    add, tensor_add = torch.add, torch.Tensor.__add__
    with twin_device():
        assert torch.add is not add
        assert torch.device("twin:1").index == 1
    assert torch.add is add and torch.Tensor.__add__ is tensor_add
    with pytest.raises(RuntimeError, match="device type at start of device string"):
        torch.device("twin")


def test_backend_contract_is_checked():
    with pytest.raises(TypeError, match="expected a Backend"):
        backends.register_backend(object(), TwinArray)
    with pytest.raises(RuntimeError, match="taken or invalid"):
        backends.register_backend(backends.CPUBackend(), TwinArray)


@pytest.mark.parametrize("factory", FACTORIES)
def test_factories_place_on_the_device(twin, factory):
    assert_placed(factory, "twin")
    assert twin.copies == 0  # made there, not copied over


def test_like_and_new_follow_the_input(twin):
    x = torch.ones(2, 3, device="twin:1")
    for like in (torch.zeros_like, torch.ones_like, torch.empty_like, torch.rand_like):
        assert like(x).device == x.device
        assert like(x, device="cpu").device.type == "cpu"
        assert like(torch.ones(2), device="twin:1").device == x.device
    assert torch.full_like(x, 2.0).device == x.device
    for new in (x.new_zeros(2), x.new_ones(2), x.new_empty(2), x.new_full((2,), 1.0)):
        assert new.device == x.device
    assert x.new_tensor([1.0]).device == x.device
    assert x.new_zeros(2, device="cpu").device.type == "cpu"


def test_to_copies_between_devices_and_counts(twin):
    host = torch.arange(6.0).reshape(2, 3)
    on_twin = host.to("twin")
    assert on_twin.device == torch.device("twin", 0) and twin.copies == 1
    assert isinstance(on_twin._np, TwinArray)
    assert not np.shares_memory(on_twin._np, host._np)  # its own memory
    assert on_twin.to("twin:0") is on_twin and twin.copies == 1
    other = on_twin.to("twin:1")
    assert other.device.index == 1 and twin.copies == 2
    back = other.cpu()
    assert back.device.type == "cpu" and type(back._np) is np.ndarray and twin.copies == 3
    assert torch.equal(back, host)
    assert back.cpu() is back
    both = host.to("twin", torch.float64)
    assert both.device.type == "twin" and both.dtype == torch.float64
    assert host.to(on_twin).device == on_twin.device  # to(other): its device too


def test_ops_stay_on_the_device(twin):
    x = torch.arange(6.0, device="twin:1").reshape(2, 3)
    results = [
        x + 1,
        2 * x,
        x @ x.t(),
        x.sum(),
        x.exp().mean(1),
        torch.cat([x, x]),
        torch.stack([x, x]).max(0).values,
        x.sort(1).indices,
        x[0],
        x[torch.tensor([0, 1])],  # a CPU index tensor may index a device tensor
        x.view(-1),
        x.T,
        torch.linalg.norm(x),
        torch.where(x > 2, x, torch.zeros_like(x)),
    ]
    for result in results:
        assert result.device == x.device, result
    assert twin.copies == 0
    assert "device='twin:1'" in repr(x)  # printing copies to the host


def test_device_kernels_are_used_when_registered(twin):
    x = torch.ones(3, device="twin")
    torch.mul(x, 2)
    x * 3
    x.mul(4)
    assert twin.kernel_calls == {"mul": 3}
    torch.ones(3) * 2  # CPU tensors keep the CPU kernel
    assert twin.kernel_calls == {"mul": 3}


@pytest.mark.parametrize(
    "mix",
    [
        lambda a, b: a + b,
        lambda a, b: torch.add(a, b),
        lambda a, b: torch.cat([a, b]),
        lambda a, b: a @ b,
        lambda a, b: torch.where(a > 0, a, b),
        lambda a, b: a.add_(b),
    ],
)
def test_mixing_devices_raises(twin, mix):
    a = torch.ones(2, 2, device="twin")
    message = "Expected all tensors to be on the same device"
    with pytest.raises(RuntimeError, match=message):
        mix(a, torch.ones(2, 2))
    with pytest.raises(RuntimeError, match=message):
        mix(a, torch.ones(2, 2, device="twin:1"))


def test_zero_dim_cpu_tensors_mix_as_in_pytorch(twin):
    a = torch.ones(3, device="twin")
    assert (a * torch.tensor(2.0)).device == a.device
    assert torch.add(a, torch.tensor(1.0)).device == a.device


def test_numpy_needs_a_copy_to_the_host(twin):
    x = torch.ones(2, device="twin")
    with pytest.raises(TypeError, match="can't convert twin:0 device type tensor to numpy"):
        x.numpy()
    assert type(x.numpy(force=True)) is np.ndarray


def test_copy_between_devices_in_place(twin):
    x = torch.zeros(3, device="twin")
    x.copy_(torch.arange(3.0))
    x[0] = torch.tensor(5.0)
    assert x.device.type == "twin" and x.cpu().tolist() == [5.0, 1.0, 2.0]


@pytest.mark.parametrize(
    "map_location, expected",
    [
        (None, "twin:1"),
        ("cpu", "cpu"),
        ("twin:0", "twin:0"),
        ({"twin:1": "twin:0"}, "twin:0"),
        (torch.device("cpu"), "cpu"),
        (lambda storage, location: storage, "cpu"),
    ],
)
def test_save_and_load_with_map_location(twin, map_location, expected):
    x = torch.arange(6.0, device="twin:1").reshape(2, 3)
    buffer = io.BytesIO()
    torch.save({"x": x, "row": x[1]}, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, map_location=map_location)
    assert str(loaded["x"].device) == expected
    assert loaded["row"].device == loaded["x"].device
    assert loaded["row"].untyped_storage().data_ptr() == loaded["x"].untyped_storage().data_ptr()
    assert loaded["row"].cpu().tolist() == [3.0, 4.0, 5.0]


def test_device_index_out_of_range(twin):
    with pytest.raises(RuntimeError, match="index 5 is out of range"):
        torch.ones(1, device="twin:5")


def test_unregistered_devices_raise_as_pytorch_without_cuda():
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        torch.ones(2, device="cuda")
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        torch.ones(2).to("cuda")


def test_generators_are_per_device(twin):
    a = twin.default_generator(0)
    assert a is twin.default_generator(0) and a is not twin.default_generator(1)
    assert a is not torch.default_generator
    first = torch.randn(4, device="twin").cpu()
    a.manual_seed(1234)
    assert torch.equal(torch.randn(4, device="twin").cpu(), first)


def test_sparse_tensors_pass_the_device_check(twin):
    # a sparse tensor's device is its values'; it has no dense array to look at
    s = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1.0, 2.0]), (3,))
    assert torch.add(s, s).to_dense().tolist() == [2.0, 4.0, 0.0]
