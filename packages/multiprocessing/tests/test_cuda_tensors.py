"""CUDA tensors and torch.multiprocessing: without CUDA IPC handles, sending one to
another process raises a clear error (checked on core's simulated CUDA devices)."""

from __future__ import annotations

import pickle
from multiprocessing.reduction import ForkingPickler

import pytest

import torch
import torch.multiprocessing  # noqa: F401 - registers the reducers
from torch.cuda import _runtime


def test_sending_a_cuda_tensor_raises_a_clear_error():
    with _runtime.simulated(2):
        x = torch.ones(3, device="cuda:1")
        assert x.is_shared() and x.share_memory_() is x  # PyTorch: both hold for CUDA
        with pytest.raises(RuntimeError, match="cannot send a tensor on cuda:1 to another"):
            ForkingPickler.dumps(x, pickle.HIGHEST_PROTOCOL)
        assert ForkingPickler.dumps(x.cpu(), pickle.HIGHEST_PROTOCOL)  # the way round
