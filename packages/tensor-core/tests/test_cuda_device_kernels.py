"""The cuda backend's per-op kernels on strict simulated devices (arrays that behave as
``cupy.ndarray`` does towards NumPy: ``torch.cuda._strict``): every op of the op database
gives the CPU's result on the device with no host copy, except the ops listed in
``torch.cuda._device_kernels.HOST_ROUND_TRIP``, which are exactly the ones that copy."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import torch
from torch.cuda import _device_kernels, _runtime, _strict
from torch.testing._opinfo import op_db

# --------------------------------------------------------------- the strict arrays


def test_strict_arrays_refuse_implicit_conversion():
    a = _strict.DeviceArray(np.arange(6.0).reshape(2, 3), 0)
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array is not allowed"):
        np.asarray(a)
    with pytest.raises(TypeError, match="Unsupported type <class 'numpy.ndarray'>"):
        np.add(a, np.ones(3))  # a host array in a device kernel, as CuPy refuses it
    with pytest.raises(TypeError, match="Unsupported type"):
        np.concatenate([a, np.ones((1, 3))])


def test_strict_arrays_compute_through_numpys_protocols():
    a = _strict.DeviceArray(np.arange(6.0).reshape(2, 3), 1)
    for result in (
        np.tanh(a),
        a + 1,
        np.float32(2) * a,
        np.concatenate([a, a]),
        np.sum(a, axis=1),
        np.where(a > 2, a, 0.0),
        np.matmul(a, a.T),
        a[:, 1],
        a.reshape(3, 2).T,
    ):
        assert isinstance(result, _strict.DeviceArray) and result.index == 1
    # creation with like= allocates on the current device, as CuPy's
    assert isinstance(np.empty((2,), like=a), _strict.DeviceArray)
    out = _strict.DeviceArray(np.empty((2, 3)), 1)
    assert np.add(a, a, out=out) is out and np.array_equal(out.get(), 2 * a.get())
    assert isinstance(np.sum(a), _strict.DeviceArray)  # a 0-dim array, as CuPy's


def test_strict_transfers_are_counted():
    counts = _strict.transfers
    before = (counts.host_to_device, counts.device_to_host, counts.scalar_reads)
    a = _strict.xp.asarray(np.ones(3))  # an upload
    a.get()  # a download
    float(a.sum())  # one element read back
    after = (counts.host_to_device, counts.device_to_host, counts.scalar_reads)
    assert tuple(x - y for x, y in zip(after, before)) == (1, 1, 1)


# ------------------------------------------------------------------ the op database


@pytest.fixture(scope="module")
def strict():
    with _runtime.simulated(1, host_kernels=False) as runtime:
        yield runtime


#: op-database entries whose op is not named as the entry (variants of one op)
_ENTRY_OPS = {
    "scatter_reduce_int_sum": "scatter_reduce",
    "interpolate_antialias": "interpolate",
    "cdist_p2.0": "cdist",
    "gradient_coordinates": "gradient",
    "cov_weighted": "cov",
    "frexp_mantissa": "frexp",
    "index_put_accumulate": "index_put_",
    "put_accumulate": "put",
    "grid_sample": "grid_sampler",
    "ldl_solve": "_ldl_solve",
}


#: entries that neither run on the device nor take their op's round trip yet: their code
#: reaches a host-only helper through a plain Python call (no dispatch), so on CuPy they
#: raise (or copy outside the round trip). Each fails here until fixed.
NOT_ON_DEVICE: dict[str, str] = {}

#: entries whose op copies arguments given as Python numbers to the device (PyTorch's CUDA
#: kernels copy them too): uploads of those, never a download
ARGUMENT_UPLOADS = {
    "_ctc_loss": "input and target lengths (lists of ints) go to the device",
}


def _round_trip_entry(info) -> bool:
    return _ENTRY_OPS.get(info.name, info.name) in _device_kernels.HOST_ROUND_TRIP


ENTRIES = [info for info in op_db if info.dtypes]


def _on(value, device):
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (list, tuple)):
        return type(value)(_on(v, device) for v in value)
    if isinstance(value, dict):
        return {k: _on(v, device) for k, v in value.items()}
    return value


def _host(value):
    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if isinstance(value, (list, tuple)):
        return [_host(v) for v in value]
    return value


def _assert_same(device_result, cpu_result) -> None:
    if isinstance(cpu_result, torch.Tensor):
        assert isinstance(device_result, torch.Tensor)
        assert device_result.shape == cpu_result.shape
        assert device_result.dtype == cpu_result.dtype
        np.testing.assert_allclose(
            device_result.numpy(), cpu_result.numpy(), rtol=1e-6, atol=1e-6, equal_nan=True
        )
    elif isinstance(cpu_result, (list, tuple)):
        assert len(device_result) == len(cpu_result)
        for d, c in zip(device_result, cpu_result):
            _assert_same(d, c)
    else:
        assert device_result == cpu_result or (device_result != device_result)


_FACTORIES = ("tensor", "eye", "arange", "zeros", "ones", "full", "as_tensor")


@pytest.fixture
def factories_on_the_device(monkeypatch):
    """The op-database entries make a few constants (an index, a target) with torch
    factories: on the device run these land on the device, as a user's would."""

    def install():
        for name in _FACTORIES:
            original = getattr(torch, name)

            def on_device(*args, _original=original, device=None, **kwargs):
                caller = sys._getframe(1).f_globals.get("__name__", "")
                if device is not None or not caller.startswith("torch.testing._opinfo"):
                    return _original(*args, device=device, **kwargs)  # core's own constants
                # the upload of an entry's constant is not the op's copy
                uploads = _strict.transfers.host_to_device
                try:
                    return _original(*args, device="cuda", **kwargs)
                finally:
                    _strict.transfers.host_to_device = uploads

            monkeypatch.setattr(torch, name, on_device)

    return install


def _dispatched(function):
    """The binding now in place of ``function``: entries that hold a torch function itself
    (``torch.exp2``) took it before the cuda backend wrapped the bindings."""
    from torch import _dispatcher

    for (owner, name), original in _dispatcher._originals.items():
        if original is function:
            return getattr(owner, name)
    return function


@pytest.mark.parametrize("info", ENTRIES, ids=[info.name for info in ENTRIES])
def test_op_runs_on_the_device_with_no_host_copy(strict, info, factories_on_the_device):
    if info.name in NOT_ON_DEVICE:
        with pytest.raises((TypeError, RuntimeError, AssertionError)):
            _run_on_the_device(strict, info, factories_on_the_device)
        return
    _run_on_the_device(strict, info, factories_on_the_device)


def _run_on_the_device(strict, info, factories_on_the_device):
    dtype = info.dtypes[0]
    samples = info.sample_inputs(dtype)
    expected = [_host(info.op(*s.tensors, *s.args, **s.kwargs)) for s in samples]
    moved = [(_on(s.tensors, "cuda"), _on(s.args, "cuda"), _on(s.kwargs, "cuda")) for s in samples]
    backend = strict.backend
    factories_on_the_device()
    before = (backend.host_to_device, backend.device_to_host)
    op = _dispatched(info.op)
    results = [op(*tensors, *args, **kwargs) for tensors, args, kwargs in moved]
    copies = (backend.host_to_device - before[0], backend.device_to_host - before[1])
    if _round_trip_entry(info):
        assert copies != (0, 0), f"{info.name} runs on the device: drop it from HOST_ROUND_TRIP"
    elif info.name in ARGUMENT_UPLOADS:
        assert copies[1] == 0, f"{info.name} copied {copies[1]} arrays to the host"
    else:
        assert copies == (0, 0), f"{info.name} copied (host_to_device, device_to_host)={copies}"
    for result, cpu_result in zip(results, expected):
        _assert_same(_host(result), cpu_result)


def test_every_round_trip_has_a_reason():
    for name, reason in _device_kernels.HOST_ROUND_TRIP.items():
        assert reason and isinstance(reason, str), name


def test_kernels_say_which_path_they_take(strict):
    assert _device_kernels.device_path("tanh") == "device"
    assert _device_kernels.device_path("matmul") == "device"
    for name in _device_kernels.HOST_ROUND_TRIP:
        assert torch._interface.ops.lookup(name) is not None, f"{name} is no registered op"
        assert _device_kernels.device_path(name) == "host", name


# ------------------------------------------------- what CuPy's rules found outside ops


def test_a_zero_dim_cpu_tensor_mixes_with_device_arrays(strict):
    a = torch.ones(2, device="cuda")
    result = a + torch.tensor(2.0)  # PyTorch treats it as a scalar; CuPy refuses host arrays
    assert result.device == a.device and result.cpu().tolist() == [3.0, 3.0]
    assert (torch.ones(2, dtype=torch.int64, device="cuda") * torch.tensor(1.5)).dtype == (
        torch.float32
    )


def test_load_onto_another_device_than_the_current_one(strict):
    import io

    x = torch.arange(4.0, device="cuda")
    buffer = io.BytesIO()
    torch.save(x, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, map_location={"cuda:0": "cuda:0"})
    assert loaded.device == x.device and loaded.cpu().tolist() == [0.0, 1.0, 2.0, 3.0]


def test_the_current_device_of_strict_arrays_is_per_thread():
    import threading

    with _runtime.simulated(2, host_kernels=False) as runtime:
        seen = []

        def on_device_one():
            previous = runtime.backend.select(1)
            seen.append(_strict.xp.empty(1).index)
            runtime.backend.restore(previous)

        thread = threading.Thread(target=on_device_one)
        thread.start()
        thread.join()
        assert seen == [1] and _strict.xp.empty(1).index == 0  # this thread's is unchanged


def test_the_environment_selects_strict_simulated_devices():
    import os
    import subprocess

    code = "import torch; print(type(torch.ones(1, device='cuda')._np).__name__)"
    for strict_value, expected in (("1", "DeviceArray"), ("", "SimulatedArray")):
        env = dict(os.environ, TORCH_CUDA_SIMULATE="1", TORCH_CUDA_SIMULATE_STRICT=strict_value)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == expected


def test_sparse_tensors_keep_indices_with_their_values(strict):
    indices = torch.tensor([[0, 1, 1], [2, 0, 2]])
    values = torch.tensor([3.0, 4.0, 5.0], device="cuda")
    s = torch.sparse_coo_tensor(indices, values, (2, 3))  # host indices follow the values
    assert s.device == values.device and s._indices().device == values.device
    dense = [[0.0, 0.0, 3.0], [4.0, 0.0, 5.0]]
    assert s.to_dense().cpu().tolist() == dense and s.cpu().to_dense().tolist() == dense
    assert (s + s).to_dense().device == values.device
    assert s.clone().zero_()._values().device == values.device
    with _runtime.simulated(2, host_kernels=False):
        with pytest.raises(RuntimeError, match=r"device of indices \(1\) must match device of"):
            torch.sparse_coo_tensor(indices.to("cuda:1"), values.to("cuda:0"), (2, 3))
