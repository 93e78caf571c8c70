"""torch.set_num_threads / get_num_threads and the inter-op pair (checked against
PyTorch 2.13: argument errors and reported values)."""

import pytest

import torch
from torch import _native, _threads


@pytest.fixture
def restore_threads():
    yield
    _threads._state.update(threads=None, interop=None)
    if hasattr(_native.kernels, "set_thread_limit"):
        _native.kernels.set_thread_limit(0)


def test_set_num_threads_caps_the_native_kernels(restore_threads):
    a, b = torch.rand(1 << 20), torch.rand(1 << 20)
    expected = (a + b).sum()
    torch.set_num_threads(1)
    assert torch.get_num_threads() == 1
    if hasattr(_native.kernels, "thread_limit"):
        assert _native.kernels.thread_limit() == 1
    assert torch.equal(a + b, a.add(b)) and torch.allclose((a + b).sum(), expected)
    torch.set_num_threads(64)  # more than the pool: the whole pool, 64 reported
    assert torch.get_num_threads() == 64


@pytest.mark.parametrize("value, message", [
    (0, "expects a positive integer"),
    (-1, "expects a positive integer"),
    (1.5, "expects an int, but got float"),
    ("2", "expects an int, but got str"),
])  # fmt: skip
def test_bad_thread_counts_raise(restore_threads, value, message):
    with pytest.raises(RuntimeError, match=f"set_num_threads {message}"):
        torch.set_num_threads(value)
    with pytest.raises(RuntimeError, match=f"set_num_interop_threads {message}"):
        torch.set_num_interop_threads(value)


def test_interop_threads_are_recorded(restore_threads):
    assert torch.get_num_interop_threads() >= 1
    torch.set_num_interop_threads(3)
    assert torch.get_num_interop_threads() == 3
