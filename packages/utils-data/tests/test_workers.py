"""DataLoader with worker processes: order, seeding, options, and failures (worker
exception, SIGKILL, os._exit, timeout, main process killed), each followed by a check
that no worker process or file descriptor is left behind.

Workers are forked (the default start method on Linux), which keeps these tests fast;
one test uses "spawn".
"""

import gc
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
import traceback

import pytest

import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info


class Items(Dataset):
    """``i -> i``, with a failure mode at one index."""

    def __init__(self, n=8, mode=None, at=5):
        self.n, self.mode, self.at = n, mode, at

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.at:
            if self.mode == "raise":
                raise ValueError(f"bad item {i}")
            if self.mode == "key":
                raise KeyError("missing")
            if self.mode == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            if self.mode == "exit":
                os._exit(1)
            if self.mode == "slow":
                time.sleep(5)
        if self.mode == "jitter":
            time.sleep(0.02 * ((i * 7) % 3))  # batches finish out of order
        return i


class WorkerIds(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        info = get_worker_info()
        return (info.id, info.num_workers, os.getpid(), torch.initial_seed())


class Shards(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        return iter(range(info.id, self.n, info.num_workers))


def _open_fds():
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def no_leaks():
    """Fails the test if it leaves worker processes or file descriptors behind."""
    gc.collect()
    before = _open_fds()
    yield
    gc.collect()
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []
    assert _open_fds() <= before


def _consume(loader):
    """Iterate ``loader``; returns (batches, exception) without keeping the iterator
    alive through a traceback."""
    batches = []
    try:
        for batch in loader:
            batches.append(batch)
    except Exception as e:  # noqa: BLE001 - the tests inspect it
        e.__traceback__ = None  # its frames would keep the iterator (and workers) alive
        return batches, e
    return batches, None


def test_batches_in_sampler_order_whatever_the_workers(no_leaks):
    ds = Items(23, mode="jitter")
    expected = [b.tolist() for b in DataLoader(ds, batch_size=3)]
    for workers in (1, 2):
        got = [b.tolist() for b in DataLoader(ds, batch_size=3, num_workers=workers)]
        assert got == expected


def test_in_order_false_yields_every_batch(no_leaks):
    ds = Items(23, mode="jitter")
    got = [b.tolist() for b in DataLoader(ds, batch_size=2, num_workers=2, in_order=False)]
    assert sorted(sum(got, [])) == list(range(23))


def test_worker_info_and_seeds(no_leaks):
    torch.manual_seed(7)
    rows = list(DataLoader(WorkerIds(), batch_size=None, num_workers=2))
    assert [r[0] for r in rows] == [0, 1, 0, 1]  # round-robin
    assert {r[1] for r in rows} == {2}
    assert len({r[2] for r in rows}) == 2 and os.getpid() not in {r[2] for r in rows}
    seeds = {r[0]: r[3] for r in rows}
    assert seeds[1] == seeds[0] + 1  # base_seed + worker id


def test_worker_init_fn_runs_in_each_worker(no_leaks):
    def init(worker_id):
        torch.manual_seed(1000 + worker_id)

    rows = list(DataLoader(WorkerIds(), batch_size=None, num_workers=2, worker_init_fn=init))
    assert sorted({int(r[3]) for r in rows}) == [1000, 1001]


def test_worker_init_fn_exception_is_reraised(no_leaks):
    def init(worker_id):
        raise RuntimeError(f"init failed in {worker_id}")

    _, error = _consume(DataLoader(Items(4), num_workers=1, worker_init_fn=init))
    assert isinstance(error, RuntimeError) and "init failed in 0" in str(error)


def test_iterable_dataset_sharding(no_leaks):
    loader = DataLoader(Shards(10), batch_size=2, num_workers=2)
    assert [b.tolist() for b in loader] == [[0, 2], [1, 3], [4, 6], [5, 7], [8], [9]]


def test_persistent_workers_survive_epochs(no_leaks):
    loader = DataLoader(WorkerIds(), batch_size=None, num_workers=2, persistent_workers=True)
    first = {int(r[2]) for r in loader}
    second = {int(r[2]) for r in loader}
    assert first == second and len(first) == 2
    iterator = loader._iterator
    del loader, iterator


def test_persistent_workers_are_replaced_after_a_failure(no_leaks):
    loader = DataLoader(Items(8, "exit"), batch_size=2, num_workers=1, persistent_workers=True)
    _, error = _consume(loader)
    assert isinstance(error, RuntimeError)
    _, error = _consume(loader)  # fresh workers, which fail the same way
    assert isinstance(error, RuntimeError) and "exited unexpectedly" in str(error)
    iterator = loader._iterator
    del loader, iterator, error


def test_prefetch_factor_bounds_outstanding_tasks(no_leaks):
    loader = DataLoader(Items(20), batch_size=1, num_workers=2, prefetch_factor=3)
    iterator = iter(loader)
    assert iterator._send_idx == 6  # 3 per worker requested up front
    assert [b.item() for b in iterator] == list(range(20))


@pytest.fixture
def spawn_ready():
    # spawn starts the standard library's resource tracker once (it keeps a pipe open
    # for the rest of the session): start it before the leak check counts fds
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()


def test_spawn_context(spawn_ready, no_leaks):
    # the dataset must be importable in a fresh interpreter: a plain list is
    loader = DataLoader(
        list(range(6)), batch_size=2, num_workers=1, multiprocessing_context="spawn"
    )
    assert [b.tolist() for b in loader] == [[0, 1], [2, 3], [4, 5]]


def test_worker_exception_keeps_type_message_and_traceback(no_leaks):
    batches, error = _consume(DataLoader(Items(8, "raise"), batch_size=2, num_workers=2))
    assert [b.tolist() for b in batches] == [[0, 1], [2, 3]]
    assert type(error) is ValueError
    message = str(error)
    assert message.startswith("Caught ValueError in DataLoader worker process 0.\n")
    assert "Original Traceback (most recent call last):" in message
    assert "bad item 5" in message and "__getitem__" in message


def test_worker_key_error_message_is_readable(no_leaks):
    _, error = _consume(DataLoader(Items(8, "key"), batch_size=2, num_workers=1))
    assert type(error) is KeyError and str(error).startswith("Caught KeyError")


def test_iteration_continues_after_a_worker_exception(no_leaks):
    iterator = iter(DataLoader(Items(8, "raise"), batch_size=2, num_workers=2))
    got = []
    for _ in range(4):
        try:
            got.append(next(iterator).tolist())
        except ValueError:
            got.append("error")
    assert got == [[0, 1], [2, 3], "error", [6, 7]]
    del iterator


@pytest.mark.parametrize(
    ("mode", "detail"),
    [("kill", "is killed by signal: Killed"), ("exit", "exited unexpectedly with exit code 1")],
)
def test_dying_worker_raises_runtime_error(no_leaks, mode, detail):
    start = time.monotonic()
    _, error = _consume(DataLoader(Items(8, mode), batch_size=2, num_workers=2))
    assert time.monotonic() - start < 5
    assert type(error) is RuntimeError
    assert "DataLoader worker (pid(s) " in str(error) and "exited unexpectedly" in str(error)
    cause = error.__cause__
    assert isinstance(cause, RuntimeError) and detail in str(cause)
    pid = str(error).split("pid(s) ")[1].split(")")[0]
    assert f"(pid {pid})" in str(cause)
    assert detail in "".join(traceback.format_exception(error))


def test_timeout(no_leaks):
    start = time.monotonic()
    iterator = iter(DataLoader(Items(8, "slow"), batch_size=2, num_workers=1, timeout=0.5))
    got = [next(iterator).tolist(), next(iterator).tolist()]
    _next_times_out(iterator, 0.5)
    assert got == [[0, 1], [2, 3]]
    assert time.monotonic() - start < 4
    # the workers were shut down: the iteration is over
    assert list(iterator) == []
    del iterator


def _next_times_out(iterator, timeout) -> None:
    # the error is raised here, so that its traceback (which holds the iterator) is gone
    # when the caller deletes the iterator
    with pytest.raises(RuntimeError) as info:
        next(iterator)
    assert str(info.value) == f"DataLoader timed out after {timeout} seconds"


class Stuck(Dataset):
    """Every item takes far longer than any timeout of these tests."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        time.sleep(60)
        return i


def test_timeout_raises_at_the_deadline_then_stops_the_workers(no_leaks):
    # the error comes at the timeout (not after a drain of the stuck workers), and the
    # workers are gone right after it
    iterator = iter(DataLoader(Stuck(), batch_size=1, num_workers=2, timeout=1))
    start = time.monotonic()
    _next_times_out(iterator, 1)
    elapsed = time.monotonic() - start
    assert 1 <= elapsed < 1.75, elapsed
    workers = [p for p in multiprocessing.active_children() if p.name.startswith("pt_data")]
    assert workers == []
    assert list(iterator) == []
    del iterator


class NumThreads(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return torch.get_num_threads()


def test_workers_use_one_thread(no_leaks):
    # as PyTorch's workers: they run side by side already, a thread pool each would
    # oversubscribe the cores
    previous = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        got = [int(n) for n in DataLoader(NumThreads(), batch_size=None, num_workers=2)]
        assert got == [1, 1]
        assert torch.get_num_threads() == 2  # the main process keeps its own
    finally:
        torch.set_num_threads(previous)


def test_abandoned_iterator_shuts_its_workers_down(no_leaks):
    iterator = iter(DataLoader(Items(50), batch_size=1, num_workers=2))
    next(iterator)
    del iterator


_ORPHAN_SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, time
    import torch
    import torch.multiprocessing as torch_mp
    from torch.utils.data import DataLoader, Dataset

    class Slow(Dataset):
        def __len__(self):
            return 1000
        def __getitem__(self, i):
            time.sleep(0.05)
            return torch.full((1000,), float(i))

    torch_mp.set_sharing_strategy(sys.argv[1])
    iterator = iter(DataLoader(Slow(), batch_size=2, num_workers=2, prefetch_factor=4))
    kept = [next(iterator) for _ in range(3)]  # batches held, others in flight
    time.sleep(0.3)
    print(" ".join(str(p.pid) for p in iterator._workers.processes), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("strategy", ["file_descriptor", "file_system"])
def test_workers_exit_when_the_main_process_dies(strategy):
    # the main process is SIGKILLed holding batches, with more in flight: its workers
    # exit and no shared-memory segment of theirs or its is left in /dev/shm
    tag = f"utilsdata{os.getpid()}orphan{strategy[5]}_"
    result = _run_tagged(_ORPHAN_SCRIPT, strategy, tag)
    assert result.returncode == -signal.SIGKILL, result.stderr
    pids = [int(p) for p in result.stdout.split()]
    assert len(pids) == 2
    deadline = time.monotonic() + 5
    while any(_running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_running(p) for p in pids)
    assert _segments_gone(tag)


def test_batches_travel_by_plain_pickling_without_shared_memory(no_leaks, monkeypatch):
    # The path taken when torch.multiprocessing registers no reducers: the batch is
    # stacked normally and copied through the pipe. Forked workers inherit the patches.
    from multiprocessing.reduction import ForkingPickler

    from torch.utils.data._utils import collate

    monkeypatch.setattr(collate, "_shared_output", lambda elem, count: None)
    monkeypatch.setattr(ForkingPickler, "_extra_reducers", {})
    (batch,) = list(DataLoader(Items(4), batch_size=4, num_workers=1))
    assert batch.tolist() == [0, 1, 2, 3]
    assert not getattr(batch, "is_shared", lambda: False)()


@pytest.mark.skipif(
    not hasattr(torch.Tensor, "share_memory_"), reason="needs shared-memory storages"
)
def test_worker_batches_arrive_in_shared_memory(no_leaks):
    loader = DataLoader([torch.full((3,), float(i)) for i in range(4)], batch_size=2, num_workers=1)
    batches = list(loader)
    assert [b[:, 0].tolist() for b in batches] == [[0.0, 1.0], [2.0, 3.0]]
    assert all(b.is_shared() for b in batches)


def _file_system_strategy_available():
    import torch.multiprocessing as torch_mp

    return (
        hasattr(torch_mp, "set_sharing_strategy")
        and "file_system" in getattr(torch_mp, "get_all_sharing_strategies", lambda: ())()
    )


@pytest.fixture
def file_system_ready():
    # the first named segment connects this process to core's segment tracker for the
    # rest of the session: make that connection before the leak check counts fds
    import torch.multiprocessing as torch_mp

    previous = torch_mp.get_sharing_strategy()
    torch_mp.set_sharing_strategy("file_system")
    try:
        torch.zeros(4).share_memory_()
    finally:
        torch_mp.set_sharing_strategy(previous)


@pytest.mark.skipif(
    not _file_system_strategy_available(), reason="needs torch.multiprocessing's file_system"
)
@pytest.mark.parametrize("mode", ["raise", "slow"])
def test_failures_leave_no_named_segments(file_system_ready, no_leaks, monkeypatch, mode):
    # Named /dev/shm segments (file_system strategy) of batches in flight when a worker
    # fails must all be unlinked; a tag in their names tells ours from others'.
    import torch.multiprocessing as torch_mp

    tag = f"utilsdata{os.getpid()}{mode}_"
    monkeypatch.setenv("TORCH_CORE_SHM_TAG", tag)
    previous = torch_mp.get_sharing_strategy()
    torch_mp.set_sharing_strategy("file_system")
    try:
        loader = DataLoader(
            TensorItems(mode), batch_size=2, num_workers=2, timeout=1 if mode == "slow" else 0
        )
        batches, error = _consume(loader)
        del loader
        assert error is not None
        del batches, error
    finally:
        torch_mp.set_sharing_strategy(previous)
    gc.collect()
    assert _segments_gone(tag)


def _own_tracker_env(**extra) -> dict:
    """The environment for a script that must start its own segment tracker: not the one
    this test process may have started (core's tracker address is inherited through the
    environment), which outlives the script and keeps its in-flight segments."""
    env = {k: v for k, v in os.environ.items() if k != "TORCH_CORE_SHM_TRACKER"}
    return {**env, **extra}


def _run_tagged(script: str, arg: str, tag: str) -> subprocess.CompletedProcess:
    """Run ``script`` with its own tracker, its segments named with ``tag``."""
    return subprocess.run(
        [sys.executable, "-c", script, arg],
        capture_output=True,
        text=True,
        timeout=60,
        env=_own_tracker_env(TORCH_CORE_SHM_TAG=tag),
    )


def _segments_gone(tag: str, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while any(tag in name for name in os.listdir("/dev/shm")):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


_DYING_WORKER_SCRIPT = textwrap.dedent(
    """
    import os, signal, sys
    import torch
    import torch.multiprocessing as torch_mp
    from torch.utils.data import DataLoader

    class Items:
        def __len__(self):
            return 8
        def __getitem__(self, i):
            if i == 5:
                if sys.argv[1] == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                os._exit(1)
            return torch.full((1000,), float(i))

    torch_mp.set_sharing_strategy("file_system")
    try:
        for batch in DataLoader(Items(), batch_size=2, num_workers=2):
            pass
    except RuntimeError as e:
        print(type(e).__name__, e)
    """
)


@pytest.mark.skipif(
    not _file_system_strategy_available(), reason="needs torch.multiprocessing's file_system"
)
@pytest.mark.parametrize("mode", ["kill", "exit"])
def test_dying_workers_leave_no_named_segments_after_exit(mode):
    # A batch pickled by a worker that dies before delivering it stays "in flight" in
    # core's tracker until the main process ends (nobody can tell it will never be
    # received); once that happens nothing may be left.
    tag = f"utilsdata{os.getpid()}{mode}_"
    result = _run_tagged(_DYING_WORKER_SCRIPT, mode, tag)
    assert "exited unexpectedly" in result.stdout, result.stderr
    assert _segments_gone(tag)


class TensorItems(Items):
    """Like Items, with float tensors as samples (so batches go to shared memory)."""

    def __init__(self, mode):
        super().__init__(8, mode)

    def __getitem__(self, i):
        return torch.full((1000,), float(super().__getitem__(i)))
