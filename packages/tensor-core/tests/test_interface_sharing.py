"""The shared-memory protocol that torch-multiprocessing and torch-utils-data use
(torch/_interface/sharing.py): strategies, segment handles, and rebuilding storages and
tensors from them."""

import gc
import os

import pytest
from polling import wait_until

import torch
from torch import _interface
from torch._interface import sharing


@pytest.fixture
def strategy_of_test():
    previous = sharing.get_sharing_strategy()
    yield sharing.set_sharing_strategy
    sharing.set_sharing_strategy(previous)


# what the siblings use, by role (as the module's docstring groups it)
PROTOCOL = {
    "strategy": ("STRATEGIES", "get_sharing_strategy", "set_sharing_strategy"),
    "sending": ("Segment", "segment_of", "mark_in_flight"),
    "receiving": ("storage_from_fd", "storage_from_name", "typed_storage", "tensor_over"),
    "CUDA tensors (issue 18)": ("share_device_storage", "device_storage_from"),
}


def test_the_protocol_is_what_siblings_use_and_no_more():
    expected = [name for names in PROTOCOL.values() for name in names]
    assert sorted(sharing.__all__) == sorted(expected)
    assert not hasattr(_interface, "shared_memory")  # the whole module is no longer lent
    assert not hasattr(_interface, "storage_sharing_hooks")


def test_strategies(strategy_of_test):
    assert sharing.STRATEGIES == ("file_descriptor", "file_system")
    for strategy in sharing.STRATEGIES:
        strategy_of_test(strategy)
        assert sharing.get_sharing_strategy() == strategy
    with pytest.raises(AssertionError, match="invalid sharing strategy 'nfs'"):
        sharing.set_sharing_strategy("nfs")


def test_segment_of_an_anonymous_segment(strategy_of_test):
    strategy_of_test("file_descriptor")
    t = torch.arange(4.0)
    assert sharing.segment_of(t.untyped_storage()) is None
    t.share_memory_()
    segment = sharing.segment_of(t.untyped_storage())
    assert segment.name is None and isinstance(segment.fd, int)


def test_storage_from_fd_maps_the_same_bytes_and_owns_the_descriptor(strategy_of_test):
    strategy_of_test("file_descriptor")
    t = torch.arange(4.0).share_memory_()
    storage = t.untyped_storage()
    fd = os.dup(sharing.segment_of(storage).fd)
    # mapped here already: the same storage, and the duplicate is closed at once
    assert sharing.storage_from_fd(fd, storage.nbytes()) is storage
    with pytest.raises(OSError):
        os.fstat(fd)
    fd = os.dup(sharing.segment_of(storage).fd)
    nbytes = storage.nbytes()
    del t, storage
    gc.collect()
    received = sharing.storage_from_fd(fd, nbytes)  # a new mapping of the live segment
    tensor = sharing.tensor_over(received, torch.float32, 0, (4,), (1,))
    assert tensor.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert sharing.segment_of(received).fd == fd


def test_a_named_segment_in_flight(strategy_of_test):
    strategy_of_test("file_system")
    t = torch.ones(3).share_memory_()
    storage = t.untyped_storage()
    segment = sharing.segment_of(storage)
    assert isinstance(segment.name, str) and segment.fd is None
    address = sharing.mark_in_flight(segment.name)
    assert isinstance(address, str)
    assert sharing.storage_from_name(segment.name, storage.nbytes(), address) is storage
    path = os.path.join("/dev/shm", segment.name)
    assert os.path.exists(path)
    del t, storage, segment
    gc.collect()
    # the receiver's use and the sender's mark are both released: the tracker unlinks it
    assert wait_until(lambda: not os.path.exists(path))


def test_tensor_over_a_storage_is_a_fresh_leaf_view():
    base = torch.arange(6.0)
    tensor = sharing.tensor_over(base.untyped_storage(), torch.float32, 1, (2, 2), (2, 1))
    assert tensor.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert tensor._version == 0 and tensor.is_leaf and not tensor.requires_grad
    tensor.zero_()
    assert base.tolist() == [0.0, 0.0, 0.0, 0.0, 0.0, 5.0]


def test_typed_storage_views_an_untyped_one():
    untyped = torch.arange(3, dtype=torch.int32).untyped_storage()
    typed = sharing.typed_storage(untyped, torch.int32)
    assert isinstance(typed, torch.TypedStorage)
    assert typed.dtype is torch.int32 and typed.untyped() is untyped and typed.tolist() == [0, 1, 2]
