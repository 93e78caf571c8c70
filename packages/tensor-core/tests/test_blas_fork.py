"""Forking while another thread is inside a matrix product must neither hang the parent
nor leave the child with a dead BLAS (torch/_blas.py: the fork gate).

Each scenario runs in a subprocess with a hard timeout, once with NumPy's OpenBLAS and
once with torch._C's MKL path, so a regression shows as a failure, not a hung run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import torch
import torch._blas as blas
from torch import _native

pytestmark = pytest.mark.timeout(300)

# A thread keeps BLAS busy (GEMM through torch's matmul, and LAPACK) while the main
# thread forks children that compute matrix products of their own and report them.
SCENARIO = textwrap.dedent(
    """
    import os, sys, threading
    import torch

    stop = threading.Event()

    def busy():
        a = torch.randn(512, 512)
        s = torch.randn(96, 96, dtype=torch.float64)
        while not stop.is_set():
            a @ a
            torch.bmm(a[None], a[None])
            torch.linalg.svd(s)

    threads = [threading.Thread(target=busy, daemon=True) for _ in range(2)]
    for t in threads:
        t.start()
    for i in range(int(sys.argv[1])):
        pid = os.fork()
        if pid == 0:
            x = torch.randn(300, 300)
            ok = torch.allclose(x @ torch.eye(300), x) and (x[:8, :8] @ x[:8, :8]).shape == (8, 8)
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            print("child failed", status)
            sys.exit(1)
    stop.set()
    for t in threads:
        t.join()
    print("forked", sys.argv[1])
    """
)

BLAS_PATHS = ["numpy"] + (["mkl"] if _native.blas_library_path() else [])


def _environment(blas_path: str) -> dict:
    """This process's environment with ``blas_path``'s matrix products selected."""
    env = {k: v for k, v in os.environ.items() if k != "TORCH_BLAS"}
    if blas_path == "numpy":
        env["TORCH_BLAS"] = "numpy"
    return env


def _run(blas_path: str, forks: int, timeout: float = 120) -> subprocess.CompletedProcess:
    env = _environment(blas_path)
    return subprocess.run(
        [sys.executable, "-c", SCENARIO, str(forks)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.parametrize("blas_path", BLAS_PATHS)
def test_fork_while_other_threads_multiply(blas_path):
    # Without the gate, NumPy's OpenBLAS hangs the parent inside fork() within a few forks.
    result = _run(blas_path, forks=30)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "forked 30" in result.stdout


def test_gated_functions_compute_what_numpy_does():
    a = np.random.default_rng(0).standard_normal((5, 5))
    assert np.array_equal(blas.matmul(a, a), np.matmul(a, a))
    assert np.array_equal(blas.linalg.inv(a), np.linalg.inv(a))
    assert blas.linalg.LinAlgError is np.linalg.LinAlgError
    with pytest.raises(np.linalg.LinAlgError):
        blas.linalg.inv(np.zeros((2, 2)))
    # keyword arguments reach the function, and errors leave the gate empty
    assert np.array_equal(blas.matmul(a, a, out=np.empty((5, 5))), a @ a)
    with pytest.raises(ValueError):
        blas.matmul(a, np.ones((3, 3)))
    assert blas.gate_state() == (0, 0)


def test_gated_wrapper_validates_and_describes():
    if not _native.ENABLED:
        pytest.skip("the native gate is torch._C's")
    with pytest.raises(TypeError, match="callable"):
        torch._C.fork_gated(3)
    assert blas.matmul.__wrapped__ is np.matmul
    assert "matmul" in repr(blas.matmul)


def test_fork_waits_for_a_product_in_flight():
    """A fork requested while a gated call runs starts only after the call returns."""
    import threading
    import time

    events = []
    started = threading.Event()

    def slow(x):
        started.set()
        time.sleep(0.3)  # releases the GIL, as a BLAS call does
        events.append("call done")
        return x

    slow_gated = blas.gated(slow)
    worker = threading.Thread(target=slow_gated, args=(1,))
    worker.start()
    started.wait()
    pid = os.fork()
    if pid == 0:
        os._exit(0 if blas.gate_state()[0] == 0 else 4)
    events.append("forked")
    _, status = os.waitpid(pid, 0)
    worker.join()
    assert events == ["call done", "forked"]
    assert os.waitstatus_to_exitcode(status) == 0
    assert blas.gate_state() == (0, 0)


def test_nested_gated_calls_count_once():
    inner = blas.gated(lambda: blas.gate_state())
    outer = blas.gated(lambda: (blas.gate_state(), inner()))
    assert outer() == ((1, 0), (1, 0))
    assert blas.gate_state() == (0, 0)


#: two daemon threads in matrix products, left running when the script ends
BUSY_DAEMONS = textwrap.dedent(
    """
    x = torch.randn(512, 512)

    def multiply():
        while True:
            x @ x

    for _ in range(2):
        threading.Thread(target=multiply, daemon=True).start()
    time.sleep(0.2)
    """
)
EXIT_SCENARIO = "import threading, time\nimport torch\n" + BUSY_DAEMONS + 'print("exiting")\n'


@pytest.mark.parametrize("blas_path", BLAS_PATHS)
def test_exit_while_daemon_threads_multiply(blas_path):
    # OpenBLAS's exit-time pool shutdown raced a GEMM in flight exactly as its fork
    # handler did (about 1 exit in 8 hung under load): the gate closes at exit too.
    env = _environment(blas_path)
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", EXIT_SCENARIO], env=env, stdout=subprocess.PIPE, text=True
        )
        for _ in range(6)
    ]
    try:
        for process in processes:
            out, _ = process.communicate(timeout=60)
            assert process.returncode == 0 and "exiting" in out
    finally:
        for process in processes:
            process.kill()


LATE_ATEXIT_SCENARIO = (
    textwrap.dedent(
        """
    import atexit, threading, time

    def late():  # registered before torch's own handler: runs after the gate closed
        import torch
        a = torch.randn(300, 300)
        print("late", bool(torch.equal(a @ torch.eye(300), a)), flush=True)

    atexit.register(late)
    import torch
    """
    )
    + BUSY_DAEMONS
)


@pytest.mark.parametrize("native", ["1", "0"])
def test_atexit_handlers_after_the_gate_closed_still_multiply(native):
    # the finalizing thread passes the closed gate (it waited forever before)
    result = subprocess.run(
        [sys.executable, "-c", LATE_ATEXIT_SCENARIO],
        env=dict(os.environ, TORCH_NATIVE=native),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and "late True" in result.stdout, result.stderr
