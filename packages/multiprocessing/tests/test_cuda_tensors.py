"""CUDA tensors and torch.multiprocessing: on core's simulated CUDA devices a tensor sent to
another process is received on the same device over the same (shared) memory, as CUDA IPC
handles give it on a GPU."""

from __future__ import annotations

import pickle
from multiprocessing.reduction import ForkingPickler

import pytest
from mp_helpers import double_cuda_tensor_in_child

import torch
import torch.multiprocessing as mp
from torch.cuda import _runtime


@pytest.mark.parametrize("strict", [False, True], ids=["simulated", "strict"])
def test_a_cuda_tensor_pickles_to_a_view_of_the_same_device_memory(strict):
    with _runtime.simulated(2, host_kernels=not strict):
        x = torch.arange(6.0, device="cuda:1")
        assert x.is_shared() and x.share_memory_() is x  # PyTorch: both hold for CUDA
        received = pickle.loads(ForkingPickler.dumps(x[2:], pickle.HIGHEST_PROTOCOL))
        assert received.device == torch.device("cuda", 1)
        received[0] = 100.0
        assert x.cpu().tolist() == [0.0, 1.0, 100.0, 3.0, 4.0, 5.0]


def test_a_spawned_process_writes_into_the_senders_cuda_tensor(monkeypatch):
    # the child needs as many simulated devices as the sender (the documented limit)
    monkeypatch.setenv(_runtime.SIMULATE_ENV, "2")
    context = mp.get_context("spawn")
    with _runtime.simulated(2):
        x = torch.ones(4, device="cuda:1")
        queue, done = context.Queue(), context.Queue()
        child = context.Process(target=double_cuda_tensor_in_child, args=(queue, done))
        child.start()
        queue.put(x)
        assert done.get(timeout=60) == ("cuda:1", [1.0, 1.0, 1.0, 1.0])
        assert done.get(timeout=60) == "written"
        child.join(60)
        assert child.exitcode == 0
        assert x.cpu().tolist() == [2.0, 2.0, 2.0, 2.0]


def test_receiving_without_enough_simulated_devices_raises():
    with _runtime.simulated(2):
        data = ForkingPickler.dumps(torch.ones(2, device="cuda:1"), pickle.HIGHEST_PROTOCOL)
        with _runtime.simulated(1):
            with pytest.raises(RuntimeError, match="cannot receive a tensor on cuda:1"):
                pickle.loads(data)
