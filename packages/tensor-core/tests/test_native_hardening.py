"""torch._C checks its own arguments, survives exceptions in its thread pool, releases the
GIL in long kernels and lets daemon threads die quietly at interpreter exit. Each test
here failed (or crashed, in its subprocess) before the matching fix."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from torch import _C


def run_python(code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# ------------------------------------------------------------------ argument checks


def test_conv_dilation_overflow_is_refused():
    # 2**62 * (5 - 1) wraps to 0 in int64: the output size looked valid (4) and the kernel
    # read 2**62 elements past the input
    x = np.ones((1, 1, 1, 1, 4), np.float32)
    w = np.ones((1, 1, 1, 1, 5), np.float32)
    with pytest.raises(ValueError, match="overflows"):
        _C.conv_forward(x, w, None, [1, 1, 2**62], [0, 0, 0], [0, 0, 0], 1)
    grad = np.ones((1, 1, 1, 1, 4), np.float32)
    with pytest.raises(ValueError, match="overflows"):
        _C.conv_weight_grad(x, grad, w, [1, 1, 2**62], [0, 0, 0], [0, 0, 0], 1)


def test_conv_groups_overflow_and_grad_ndim_are_refused():
    x = np.ones((1, 2, 1, 1, 4), np.float32)
    w = np.ones((2, 1, 1, 1, 1), np.float32)
    with pytest.raises(ValueError):
        _C.conv_forward(x, w, None, [1, 1, 1], [0, 0, 0], [0, 0, 0], 2**62)
    with pytest.raises(ValueError, match="output gradient"):
        _C.conv_weight_grad(x, np.ones(4, np.float32), w, [1, 1, 1], [0, 0, 0], [0, 0, 0], 2)


def test_conv_with_empty_batch_plans_nothing():
    # padding of 2**31 on an empty batch used to plan (and fill) 2**32 positions
    x = np.ones((0, 1, 1, 1, 4), np.float32)
    w = np.ones((1, 1, 1, 1, 1), np.float32)
    out = _C.conv_forward(x, w, None, [1, 1, 1], [0, 0, 2**31], [0, 0, 0], 1)
    assert out.shape == (0, 1, 1, 1, 2**31 + 4)
    grad = _C.conv_weight_grad(x, out, w, [1, 1, 1], [0, 0, 2**31], [0, 0, 0], 1)
    np.testing.assert_array_equal(grad, np.zeros_like(w))


# Calls that read a non-array as an array (its size) before checking its type: they crash
# or read garbage, so each runs in its own interpreter.
TYPE_CONFUSION = {
    "sgd params": "_C.sgd_step([1.5], [np.zeros(1)], None, [], 0.0, 0.0, 1.0, -0.1, False, False)",
    "adam params": "_C.adam_step([object()], [np.zeros(1)], [np.zeros(1)], [np.zeros(1)], None, "
    "[1.0], [1.0], 0.1, 0.9, 0.1, 1e-8, 0.0, 1.0, False, 0)",
    "adam max_sqs tuple": "p = [np.zeros(1)]; _C.adam_step(p, p, p, p, (1.5,), [1.0], [1.0], "
    "0.1, 0.9, 0.1, 1e-8, 0.0, 1.0, False, 0)",
    "rnn bias": "_C.rnn_layer_forward(np.zeros((1, 1, 2)), np.zeros((2, 2)), 3.5, "
    "np.zeros((2, 1, 2)), False)",
    "gru bias": "_C.gru_layer_forward(np.zeros((1, 1, 6)), np.zeros((2, 6)), 'bias', "
    "np.zeros((2, 1, 2)), np.zeros((1, 1, 6)), np.zeros((1, 1, 2)))",
}


def test_non_arrays_are_type_errors():
    cases = "".join(
        f"""
    try:
        {call}
    except TypeError as error:
        print({case!r}, "TypeError:", error)
    """
        for case, call in sorted(TYPE_CONFUSION.items())
    )
    result = run_python("import numpy as np\nfrom torch import _C\n" + textwrap.dedent(cases))
    assert result.returncode == 0, result.stderr
    for case in TYPE_CONFUSION:
        assert f"{case} TypeError:" in result.stdout, result.stdout


@pytest.mark.skipif(
    os.environ.get("TORCH_SANITIZED") == "1",
    reason="AddressSanitizer's shadow memory exceeds any address-space limit",
)
def test_huge_thread_counts_size_no_scratch():
    # threads sized a per-thread vector: 2**31 - 1 doubles (16 GiB) for a 10-element sum
    code = """
    import resource
    import numpy as np
    from torch import _C
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    print(_C.sum_all(np.ones(10), 2**31 - 1))
    """
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "10.0"


def test_max_pool_with_a_huge_kernel_costs_what_the_plane_does():
    # each window covers the whole 2-row plane: 2**40 kernel rows used to be visited one
    # by one
    code = """
    import numpy as np
    from torch import _C
    x = np.array([[[1.0, 5.0], [3.0, 2.0]]])
    values, indices = _C.max_pool2d_with_indices(
        x, [2**40, 1], [1, 1], [2**39, 0], [1, 1], 3, 2)
    print(values.tolist(), indices.tolist())
    """
    result = run_python(code, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str([[[3.0, 5.0]] * 3]) + " " + str([[[2, 1]] * 3])


def test_max_pool_backward_of_nothing_returns_at_once():
    # found by the sanitize session's long fuzz run: 2**48 empty planes were walked one by one
    start = time.perf_counter()
    out = _C.max_pool_backward(np.zeros((0,), np.float32), np.zeros((0,), np.int64), 2**48, 0, 1)
    assert out.shape == (2**48, 0) and time.perf_counter() - start < 1.0


def test_max_pool_window_arithmetic_overflow_is_refused():
    x = np.ones((1, 4, 4))
    for kernel, stride, padding, dilation, out in [
        ([2, 2], [2**62, 1], [0, 0], [1, 1], 3),
        ([3, 2], [1, 1], [0, 0], [2**62, 1], 1),
        ([2, 2], [1, 1], [2**62, 0], [1, 1], 1),
    ]:
        with pytest.raises(ValueError):
            _C.max_pool2d_with_indices(x, kernel, stride, padding, dilation, out, 1)


# ------------------------------------------------------------------ thread pool


def test_exception_in_a_pool_part_reaches_python_after_all_parts():
    # part 0 runs on the caller, part 1 on a worker: a worker's exception used to
    # terminate the process, the caller's returned while the worker still ran over its
    # stack. The pool keeps working afterwards.
    code = """
    import numpy as np
    from torch import _C
    for kind in ("runtime", "bad_alloc"):
        for part in (0, 1, 1, 0):
            try:
                _C._test_pool_throw(2, part, kind, 20)
            except Exception as e:
                print(type(e).__name__, e)
    print(_C.sum_all(np.ones(1 << 20, np.float32), 2))
    """
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[:8]] == ["RuntimeError"] * 4 + ["MemoryError"] * 4
    assert "parts running" not in result.stdout
    assert lines[8] == str(float(1 << 20))


# ------------------------------------------------------------------ the GIL


def _max_pool_input():
    return np.random.default_rng(0).standard_normal((24, 512, 512)).astype(np.float32)


def test_long_nn_kernels_release_the_gil():
    x = _max_pool_input()
    args = (x, [3, 3], [1, 1], [1, 1], [1, 1], 512, 512, 1)
    start = time.perf_counter()
    _C.max_pool2d_with_indices(*args)
    alone = time.perf_counter() - start
    if alone < 0.05:
        pytest.skip(f"the kernel ran too fast to measure here ({alone:.3f} s)")
    waits = []
    for _ in range(3):  # a kernel that holds the GIL fails every try; a busy machine, one
        entered = threading.Event()

        def pool(entered=entered):
            entered.set()
            _C.max_pool2d_with_indices(*args)

        worker = threading.Thread(target=pool)
        worker.start()
        entered.wait()
        time.sleep(0.005)  # let the worker get into the kernel
        start = time.perf_counter()
        time.sleep(0.001)  # needs the GIL back: waits for the whole kernel if it is held
        waits.append(time.perf_counter() - start)
        worker.join()
        if waits[-1] < alone / 2:
            return
    raise AssertionError(f"waited {waits} for the GIL; the kernel alone takes {alone}")


def test_daemon_thread_in_a_kernel_at_exit_does_not_abort():
    # the main thread exits while a daemon thread multiplies (torch._C.blas_gemm with
    # MKL, else NumPy) and convolves: CPython 3.11 made the daemon call pthread_exit when
    # it took the GIL back, whose unwinding through pybind11's noexcept guard aborted
    # ("terminate called without an active exception", SIGABRT)
    code = """
    import threading, time
    import numpy as np
    import torch
    from torch import _C
    a, b = torch.randn(512, 512), torch.randn(512, 512)
    x = np.ones((2, 4, 1, 64, 64), np.float32)
    w = np.ones((4, 4, 1, 3, 3), np.float32)

    def matmul():
        while True:
            a @ b

    def conv():
        while True:
            _C.conv_forward(x, w, None, [1, 1, 1], [0, 1, 1], [0, 1, 1], 1)

    for target in (matmul, matmul, conv):
        threading.Thread(target=target, daemon=True).start()
    time.sleep(0.3)
    print("exiting")
    """
    for _ in range(2):
        result = run_python(code)
        assert result.returncode == 0, (result.returncode, result.stderr)
        assert "terminate called" not in result.stderr
        assert result.stdout.strip() == "exiting"
