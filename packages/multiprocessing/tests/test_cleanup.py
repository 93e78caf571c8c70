"""No shared segment outlives its last user, and no descriptor leaks, even when processes
are killed with SIGKILL."""

import os
import signal
import subprocess
import sys
import textwrap

import pytest
from mp_helpers import leftover_segments, open_fds, wait_until

import torch
import torch.multiprocessing as mp

FORK = mp.get_context("fork")


def hold_until_killed(queue, ready):
    tensors = [queue.get() for _ in range(3)]
    ready.put([t.is_shared() for t in tensors])
    signal.pause()


def test_killed_receiver_releases_its_segments(strategy, no_leaks):
    tensors = [torch.ones(1000) for _ in range(3)]
    queue, ready = FORK.Queue(), FORK.Queue()
    process = FORK.Process(target=hold_until_killed, args=(queue, ready))
    process.start()
    for tensor in tensors:
        queue.put(tensor)
    assert ready.get(timeout=30) == [True] * 3
    os.kill(process.pid, signal.SIGKILL)
    process.join(30)
    assert process.exitcode == -signal.SIGKILL
    tensors[0].fill_(2)  # the parent's memory is intact
    assert tensors[0].sum().item() == 2000.0
    if strategy == "file_system":
        assert len(leftover_segments()) >= 3  # still used by the parent
    del tensors
    for q in (queue, ready):
        q.close()
        q.join_thread()


_TREE = textwrap.dedent(
    """
    import signal, sys, torch, torch.multiprocessing as mp

    def child(queue, ready):
        kept = [queue.get() for _ in range(2)]
        kept.append(torch.zeros(50).share_memory_())  # one of its own
        ready.put("ready")
        signal.pause()

    if __name__ == "__main__":
        mp.set_sharing_strategy(sys.argv[1])
        context = mp.get_context("fork")
        queue, ready = context.Queue(), context.Queue()
        process = context.Process(target=child, args=(queue, ready))
        process.start()
        tensors = [torch.ones(100) for _ in range(2)]
        for t in tensors:
            queue.put(t)
        print(ready.get(timeout=30), flush=True)
        signal.pause()
    """
)


def test_killed_process_tree_leaves_nothing_behind(tmp_path, no_leaks):
    # a parent and its worker share segments (both strategies, in turn), then the whole
    # process group dies by SIGKILL: nothing stays in /dev/shm
    script = tmp_path / "tree.py"
    script.write_text(_TREE)
    env = {k: v for k, v in os.environ.items() if k != "TORCH_CORE_SHM_TRACKER"}
    before = leftover_segments()
    for strategy in ("file_system", "file_descriptor"):
        tree = subprocess.Popen(
            [sys.executable, str(script), strategy],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
        )
        try:
            assert tree.stdout.readline().strip() == "ready"
            # segments are compared as sets of names: the other test worker of this
            # session may create and free its own meanwhile
            made = set(leftover_segments()) - set(before)
            if strategy == "file_system":
                assert len(made) >= 3
        finally:
            os.killpg(tree.pid, signal.SIGKILL)
            tree.wait()
            tree.stdout.close()
        gone = wait_until(lambda made=made: not made & set(leftover_segments()))
        assert gone, leftover_segments()


def test_descriptors_are_closed_after_many_transfers(no_leaks):
    # steady state: repeated sends do not accumulate descriptors in either process
    queue, back = FORK.SimpleQueue(), FORK.SimpleQueue()
    process = FORK.Process(target=echo, args=(queue, back))
    process.start()
    for round_ in range(3):
        sent = [torch.full((10,), float(i)) for i in range(20)]
        for t in sent:
            queue.put(t)
        returned = [back.get() for _ in sent]
        assert [t.untyped_storage() is r.untyped_storage() for t, r in zip(sent, returned)] == [
            True
        ] * 20
        if round_ == 0:
            fds = open_fds()
        del sent, returned
    assert wait_until(lambda: open_fds() <= fds)
    queue.put(None)
    process.join(30)
    queue.close()
    back.close()


def echo(queue, back):
    while (t := queue.get()) is not None:
        t.add_(1)
        back.put(t)
        del t


def send_and_exit(queue):
    queue.put(torch.full((100,), 4.0))


def test_file_system_segment_outlives_its_sender_while_in_flight(no_leaks):
    # the sender exits before the message is read: the tracker holds the segment for the
    # receiver (file_descriptor cannot do this: the sender serves the descriptor)
    mp.set_sharing_strategy("file_system")
    try:
        queue = FORK.Queue()
        process = FORK.Process(target=send_and_exit, args=(queue,))
        process.start()
        process.join(30)
        assert process.exitcode == 0
        received = queue.get(timeout=30)
        assert received.is_shared() and received.sum().item() == 400.0
        del received
        queue.close()
        queue.join_thread()
    finally:
        mp.set_sharing_strategy("file_descriptor")


_KILLED_SENDER = textwrap.dedent(
    """
    import os, signal, sys, time
    import torch, torch.multiprocessing as mp

    def child(queue, child_strategy):
        mp.set_sharing_strategy(child_strategy)
        queue.put(torch.arange(6, dtype=torch.float32) * 2)
        os.kill(os.getpid(), signal.SIGKILL)  # right after the message is written

    if __name__ == "__main__":
        parent_strategy, child_strategy, read = sys.argv[1:]
        mp.set_sharing_strategy(parent_strategy)
        context = mp.get_context("fork")
        queue = context.SimpleQueue()  # written by the putting thread itself
        process = context.Process(target=child, args=(queue, child_strategy))
        process.start()
        process.join(30)
        assert process.exitcode == -signal.SIGKILL, process.exitcode
        time.sleep(0.5)  # let any tracker see the sender's end first
        if read == "read":
            received = queue.get()
            print(received.is_shared(), received.tolist(), flush=True)
            del received
        else:
            print("unread", flush=True)
    """
)


@pytest.mark.parametrize(
    "parent_strategy, read",
    [("file_system", "read"), ("file_descriptor", "read"), ("file_descriptor", "unread")],
)
def test_tensor_of_a_killed_file_system_sender_is_delivered(tmp_path, parent_strategy, read):
    # the sender dies by SIGKILL right after putting the tensor: the segment stays for the
    # receiver (PyTorch's shm manager keeps it), whether the parent shares the sender's
    # strategy (one tracker for both) or only the child uses file_system (the child's
    # tracker lingers for the message in flight and the receiver joins it); nothing is
    # left in /dev/shm afterwards, also when the message is never read
    script = tmp_path / "killed_sender.py"
    script.write_text(_KILLED_SENDER)
    tag = f"killedsender{os.getpid()}_{parent_strategy}_{read}_"
    env = {k: v for k, v in os.environ.items() if k != "TORCH_CORE_SHM_TRACKER"}
    env["TORCH_CORE_SHM_TAG"] = tag
    args = [sys.executable, str(script), parent_strategy, "file_system", read]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    expected = "unread" if read == "unread" else "True [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]"
    assert done.stdout.strip() == expected

    def mine():
        return [n for n in os.listdir("/dev/shm") if n.startswith("torch_core_shm_" + tag)]

    assert wait_until(lambda: not mine(), seconds=10), mine()
