"""Issue 15's repro: forked DataLoader workers while another thread multiplies matrices.

Before torch-core's fork gate, every fork here hung (NumPy's OpenBLAS shut its thread
pool down mid-GEMM inside fork()). The scenario runs in a subprocess with a hard
timeout, with NumPy's BLAS and, when the `mkl` wheel is installed, with MKL.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(not hasattr(os, "fork"), reason="fork start method only"),
]

SCENARIO = textwrap.dedent(
    """
    import sys, threading
    import torch
    from torch.utils.data import DataLoader, Dataset

    stop = threading.Event()

    def busy():
        a = torch.randn(512, 512)
        b = torch.randn(512, 512)
        while not stop.is_set():
            a @ b

    class Products(Dataset):
        def __len__(self):
            return 16

        def __getitem__(self, i):
            x = torch.full((64, 64), float(i))
            return (x @ torch.eye(64)).sum()

    threading.Thread(target=busy, daemon=True).start()
    total = 0.0
    for epoch in range(int(sys.argv[1])):
        loader = DataLoader(Products(), batch_size=4, num_workers=2,
                            multiprocessing_context="fork")
        total += sum(float(batch.sum()) for batch in loader)
    stop.set()
    print("total", total)
    """
)

PATHS = ["numpy"] + (["mkl"] if importlib.util.find_spec("mkl") else [])


@pytest.mark.parametrize("blas_path", PATHS)
def test_workers_fork_while_a_thread_multiplies(blas_path):
    env = dict(os.environ)
    if blas_path == "numpy":
        env["TORCH_BLAS"] = "numpy"
    else:
        env.pop("TORCH_BLAS", None)
    epochs = 8
    result = subprocess.run(
        [sys.executable, "-c", SCENARIO, str(epochs)],
        env=env,
        capture_output=True,
        text=True,
        timeout=150,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    expected = epochs * sum(64 * 64 * i for i in range(16))
    assert f"total {float(expected)}" in result.stdout
