"""Tensor data starts on a 64-byte boundary (csrc/aligned_alloc.cpp), as with PyTorch's
CPU allocator, whatever NumPy call made the array."""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import torch
from torch import _native

pytestmark = pytest.mark.skipif(
    not _native.ENABLED, reason="the pure NumPy build keeps NumPy's allocator"
)


def _handler_name(array=None) -> str:
    core = getattr(np, "_core", None) or np.core
    get = core.multiarray.get_handler_name
    return get() if array is None else get(array)


def test_tensors_of_every_size_and_origin_are_aligned():
    made = [torch.empty(n) for n in (0, 1, 3, 8, 100, 255, 4096, 1 << 20, 3 << 20)]
    made += [torch.zeros(5, 7, dtype=torch.float64), torch.ones(3, dtype=torch.int8)]
    made += [
        torch.rand(1024, 1024),
        torch.arange(1000) * 2,
        torch.rand(64, 64) @ torch.rand(64, 64),
    ]
    made += [torch.cat([torch.ones(3), torch.zeros(5)]), torch.randn(33).clone()]
    assert all(t.data_ptr() % 64 == 0 for t in made if t.numel())
    assert _handler_name() == "torch_core_aligned_64"


def test_reused_and_resized_blocks_keep_their_bytes():
    for _ in range(20):  # small blocks come back from the cache: zeros must still be zeros
        scratch = np.full(30, 7.0)
        del scratch
        assert not np.zeros(30).any()
    grown = np.arange(100.0)
    grown.resize(100000, refcheck=False)  # realloc: the block may move to another offset
    assert grown[:100].tolist() == list(range(100)) and not grown[100:].any()
    assert grown.ctypes.data % 64 == 0
    assert np.fromiter(range(5000), float).sum() == sum(range(5000))
    big = np.zeros(1 << 23)  # lazily zeroed pages through calloc
    assert big.ctypes.data % 64 == 0 and not big[::4096].any()


def test_arrays_from_other_threads_and_handlers_are_freed_by_their_own():
    made = []
    worker = threading.Thread(target=lambda: made.append(np.ones(1000)))
    worker.start()
    worker.join()
    # a new thread starts in an empty context, with NumPy's default handler
    assert _handler_name(made[0]) == "default_allocator"
    assert _handler_name(np.ones(1000)) == "torch_core_aligned_64"
    del made[:]  # freed by the default handler, not ours


def test_the_allocator_can_be_turned_off():
    code = (
        "import numpy as np, torch; core = getattr(np, '_core', None) or np.core; "
        "print(core.multiarray.get_handler_name())"
    )
    env = dict(os.environ, TORCH_ALIGNED_ALLOCATOR="0")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "default_allocator"
