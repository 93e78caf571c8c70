"""spawn/start_processes: children's exceptions, exit codes and signals reach the parent
as PyTorch's exceptions (messages recorded from PyTorch)."""

import os
import signal
import time

import pytest
from mp_helpers import GOLDEN, fill_with_index, raise_value_error

import torch
import torch.multiprocessing as mp


def _raises(index):
    raise ValueError(f"bad input in process {index}")


def _exits(index):
    os._exit(3)


def _killed(index):
    os.kill(os.getpid(), signal.SIGKILL)


def _raises_in_second(index, marker):
    if index == 1:
        raise ValueError(f"bad input in process {index}")
    time.sleep(60)  # the parent must stop this one once the other fails


def _writes(index, path):
    with open(f"{path}.{index}", "w") as f:
        f.write(str(index))


def _check(error, expected):
    assert type(error).__name__ == expected["type"]
    lines = str(error).strip().splitlines()
    assert lines[0] == expected["first_line"]
    assert lines[-1] == expected["last_line"]
    assert error.error_index == expected["error_index"]
    assert getattr(error, "exit_code", None) == expected["exit_code"]
    assert getattr(error, "signal_name", None) == expected["signal_name"]


@pytest.mark.parametrize(
    "fn, key",
    [(_raises, "spawn_raised"), (_exits, "spawn_exit_code"), (_killed, "spawn_signal")],
)
def test_child_failures_as_pytorch(fn, key):
    with pytest.raises(mp.ProcessException) as info:
        mp.start_processes(fn, nprocs=1, start_method="fork")
    _check(info.value, GOLDEN[key])
    assert isinstance(info.value.pid, int)


def test_traceback_names_the_child_function_and_others_are_stopped():
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.start_processes(_raises_in_second, args=("x",), nprocs=2, start_method="fork")
    assert "in _raises_in_second" in str(info.value)
    assert info.value.error_index == 1
    assert mp.active_children() == []


def test_join_false_returns_a_context(tmp_path):
    context = mp.start_processes(
        _writes, args=(str(tmp_path / "out"),), nprocs=2, join=False, start_method="fork"
    )
    assert isinstance(context, mp.ProcessContext) and len(context.pids()) == 2
    while not context.join(timeout=10):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.0", "out.1"]


def test_spawn_start_method_propagates_the_traceback():
    # the one test with real spawn (slow: a fresh interpreter per child)
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.spawn(raise_value_error, nprocs=1)
    _check(info.value, GOLDEN["spawn_raised"])


def test_spawned_children_write_a_tensor_the_parent_sees():
    # spawn pickles the arguments for fresh interpreters: the storage travels as a
    # descriptor handed to each child at its start
    tensor = torch.zeros(2, 3)
    mp.spawn(fill_with_index, args=(tensor,), nprocs=2)
    assert tensor.tolist() == [[1.0] * 3, [2.0] * 3]


def test_spawn_warns_for_other_start_methods():
    with pytest.warns(FutureWarning, match="start_processes"):
        mp.spawn(_writes, args=(os.devnull + "-unused",), nprocs=0, start_method="fork")


def test_spawn_context_is_the_old_name_of_process_context():
    import warnings

    import torch.multiprocessing as mp

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        context = mp.SpawnContext([], [])
    assert isinstance(context, mp.ProcessContext)
    assert [str(w.message) for w in caught] == [
        "SpawnContext is renamed to ProcessContext since 1.4 release."
    ]
