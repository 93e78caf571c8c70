"""Storages in shared memory (torch/_shared_memory.py, _shm_tracker.py): sharing flags,
views following a move, both strategies, and cleanup of named segments by the tracker
even when their users are killed."""

import gc
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from polling import wait_until

import torch
from torch import _shared_memory as shm

# this test process's segments (and its children's) carry a tag of their own, so that
# tests running in parallel do not see each other's segments
# setdefault: torch-multiprocessing's tests may share this process and its tag
os.environ.setdefault(shm.TAG_ENV, f"coretest{os.getpid()}_")
MINE = shm.PREFIX + os.environ[shm.TAG_ENV]


def leftover_segments() -> list:
    return sorted(name for name in os.listdir(shm.SHM_DIR) if name.startswith(MINE))


@pytest.fixture(params=shm.STRATEGIES)
def strategy(request):
    previous = shm.get_sharing_strategy()
    shm.set_sharing_strategy(request.param)
    yield request.param
    shm.set_sharing_strategy(previous)


def test_share_memory_moves_the_data_and_views_follow(strategy):
    a = torch.arange(6.0)
    view = a[2:].view(2, 2)
    pointer = a.data_ptr()
    assert not a.is_shared() and not view.is_shared()
    assert a.share_memory_() is a
    assert a.is_shared() and view.is_shared() and a.untyped_storage().is_shared()
    assert a.data_ptr() != pointer  # the bytes moved, as in PyTorch
    assert view.data_ptr() == a.data_ptr() + 2 * 4
    a.add_(1)
    assert view.tolist() == [[3.0, 4.0], [5.0, 6.0]]
    view.zero_()
    assert a.tolist() == [1.0, 2.0, 0.0, 0.0, 0.0, 0.0]


def test_share_memory_is_a_noop_when_already_shared(strategy):
    a = torch.ones(3).share_memory_()
    pointer = a.data_ptr()
    assert a.share_memory_().data_ptr() == pointer
    storage = a.untyped_storage()
    assert storage.share_memory_() is storage and a.data_ptr() == pointer


def test_storage_share_memory_moves_every_tensor_over_it(strategy):
    a = torch.zeros(2, 3)
    t = a.t()
    typed = a.storage()
    assert typed.share_memory_() is typed and typed.is_shared()
    assert a.is_shared() and t.is_shared()
    t.fill_(5)
    assert a.sum().item() == 30.0 and typed.tolist() == [5.0] * 6


def test_new_shared_storages(strategy):
    storage = torch.UntypedStorage._new_shared(12)
    assert storage.is_shared() and storage.nbytes() == 12 and storage.tolist() == [0] * 12
    typed = torch.zeros(1, dtype=torch.float64).storage()._new_shared(3)
    assert typed.is_shared() and typed.size() == 3 and typed.dtype is torch.float64
    # the DataLoader's way: a tensor built directly over new shared memory
    out = torch.empty(0).set_(torch.UntypedStorage._new_shared(4 * 4), 0, (2, 2))
    torch.stack([torch.ones(2), torch.full((2,), 2.0)], out=out)
    assert out.is_shared() and out.tolist() == [[1.0, 1.0], [2.0, 2.0]]


def test_empty_and_odd_dtypes(strategy):
    assert torch.empty(0).share_memory_().is_shared()
    for dtype in (torch.bool, torch.int8, torch.float16, torch.bfloat16, torch.complex64):
        t = torch.ones(3, dtype=dtype).share_memory_()
        assert (
            t.is_shared() and t.dtype is dtype and t.tolist() == torch.ones(3, dtype=dtype).tolist()
        )


def test_storage_mapped_from_a_checkpoint_moves_with_its_bytes(strategy, tmp_path):
    # the segment is written from the old buffer through its descriptor: a read-only,
    # file-backed buffer (torch.load(mmap=True)) must serve as the source too
    torch.save({"w": torch.arange(1000.0)}, tmp_path / "w.pt")
    whole = torch.load(tmp_path / "w.pt", mmap=True)["w"]
    tail = whole[990:]
    tail.share_memory_()
    assert tail.is_shared() and whole.is_shared()
    assert tail.tolist() == [float(i) for i in range(990, 1000)]
    assert whole.sum().item() == sum(range(1000))


def test_results_of_ops_are_not_shared():
    a = torch.ones(3).share_memory_()
    assert not (a + 1).is_shared()
    assert a.clone().is_shared() is False
    assert a.detach().is_shared() and a[1:].is_shared()


def test_bad_strategy_is_an_assertion_error():
    with pytest.raises(AssertionError, match="invalid sharing strategy 'bogus'"):
        shm.set_sharing_strategy("bogus")


def test_file_descriptor_segments_close_their_descriptor():
    def open_fds():
        return len(os.listdir("/proc/self/fd"))

    torch.ones(1).share_memory_()  # warm-up
    gc.collect()
    before = open_fds()
    tensors = [torch.ones(10).share_memory_() for _ in range(20)]
    assert open_fds() == before + 20  # one memfd each, none in /dev/shm
    del tensors
    gc.collect()
    assert open_fds() == before


def test_file_system_segments_are_unlinked_with_their_last_user(strategy):
    if strategy != "file_system":
        pytest.skip("named segments only")
    before = leftover_segments()
    a = torch.ones(100).share_memory_()
    name = shm.segment_of(a.untyped_storage()._buffer).name
    assert name in leftover_segments()
    fds = len(os.listdir("/proc/self/fd"))
    b = torch.ones(100).share_memory_()
    assert len(os.listdir("/proc/self/fd")) == fds  # named segments keep no descriptor
    del a, b
    gc.collect()
    assert wait_until(lambda: set(leftover_segments()) <= set(before))


_CHILD = textwrap.dedent(
    """
    import os, sys, time, torch
    from torch import _shared_memory as shm
    shm.set_sharing_strategy("file_system")
    kept = [torch.ones(1000).share_memory_() for _ in range(3)]
    if os.fork() == 0:  # a grandchild using segments too
        more = torch.zeros(10).share_memory_()
        print("ready", flush=True)
        time.sleep(60)
        os._exit(0)
    time.sleep(60)
    """
)


def test_segments_of_killed_processes_are_unlinked():
    # a process and its forked child, both holding named segments, die by SIGKILL: the
    # tracker notices their connections close and unlinks everything they had
    before = leftover_segments()
    env = dict(os.environ)
    env.pop(shm.TRACKER_ENV, None)  # its own tracker: the test checks that one's work
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        assert len(set(leftover_segments()) - set(before)) == 4
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
    assert wait_until(lambda: set(leftover_segments()) <= set(before))


def test_numpy_view_of_a_shared_tensor_sees_the_same_memory(strategy):
    a = torch.zeros(4).share_memory_()
    array = a.numpy()
    array[:] = 7
    assert a.tolist() == [7.0] * 4
    assert np.shares_memory(array, a.untyped_storage()._buffer)


def test_without_memfd_an_unlinked_file_serves(monkeypatch):
    monkeypatch.delattr(os, "memfd_create")
    before = leftover_segments()
    t = torch.arange(4.0).share_memory_()
    segment = shm.segment_of_storage(t.untyped_storage())
    assert t.is_shared() and segment.name is None and segment.fd is not None
    assert os.readlink(f"/proc/self/fd/{segment.fd}").endswith("(deleted)")
    # no named segment of its own (an earlier test's may be cleaned up meanwhile)
    assert set(leftover_segments()) <= set(before) and t.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_a_killed_tracker_is_replaced(strategy):
    if strategy != "file_system":
        pytest.skip("named segments only")
    before = leftover_segments()
    kept = torch.ones(10).share_memory_()
    old_tracker = shm.tracker._process
    address = os.environ[shm.TRACKER_ENV]
    if old_tracker is None:
        pytest.skip("this process uses a tracker another process started")
    released = torch.ones(10).share_memory_()
    released_name = shm.segment_of_storage(released.untyped_storage()).name
    del released  # its DEL may still be unread when the tracker dies
    old_tracker.kill()
    old_tracker.wait()
    fresh = torch.ones(10).share_memory_()  # starts a new tracker, which learns `kept`
    assert os.environ[shm.TRACKER_ENV] != address
    assert fresh.is_shared() and len(set(leftover_segments()) - set(before)) >= 2
    del kept, fresh
    gc.collect()
    assert wait_until(lambda: set(leftover_segments()) <= set(before))
    assert released_name not in leftover_segments()
