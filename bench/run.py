"""Time the same public-API code under whichever `torch` this interpreter imports and
print medians in microseconds as JSON (`nox -s bench` runs it under this project and
under real PyTorch and prints the ratios)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import timeit

import torch


def _median_us(stmt, number: int, repeat: int = 21) -> float:
    times = timeit.repeat(stmt, number=number, repeat=repeat)
    return statistics.median(times) / number * 1e6


def cases(only: str | None = None) -> dict:
    """Every case's median time in microseconds; with ``only``, just the core, nn and
    model cases whose name contains it (or one of its ``|``-separated parts)."""
    torch.manual_seed(0)
    small_a, small_b = torch.rand(8), torch.rand(8)
    big_a, big_b = torch.rand(1000, 1000), torch.rand(1000, 1000)
    mat_a, mat_b = torch.rand(256, 256), torch.rand(256, 256)
    leaf = torch.rand(8, requires_grad=True)
    a8, b8 = torch.rand(8, 8), torch.rand(8, 8)
    big4m_a, big4m_b = torch.rand(4 * 1024 * 1024), torch.rand(4 * 1024 * 1024)
    m1024 = torch.rand(1024, 1024)
    conv_x = torch.rand(32, 16, 28, 28)
    conv_w = torch.rand(32, 16, 3, 3)
    conv_xg = conv_x.clone().requires_grad_()
    conv_wg = conv_w.clone().requires_grad_()

    def conv_forward_backward():
        torch.conv2d(conv_xg, conv_wg, padding=1).sum().backward()

    # name: (statement, calls per timing); each case takes 21 timings
    timed = {
        # issue 3's targets: framework overhead on tiny tensors
        "add 8x8 + 8x8": (lambda: a8 + b8, 20000),
        "matmul 8x8 @ 8x8": (lambda: a8 @ b8, 20000),
        "mul 8x8 * python float": (lambda: a8 * 2.5, 20000),
        "index a[2:5, 1]": (lambda: a8[2:5, 1], 20000),
        "view a.view(64)": (lambda: a8.view(64), 20000),
        # issue 4's targets
        "sum 8x8": (lambda: a8.sum(), 20000),
        "add 4M float32": (lambda: big4m_a + big4m_b, 10),
        "exp 4M float32": (lambda: torch.exp(big4m_a), 10),
        "sum 4M float32": (lambda: big4m_a.sum(), 10),
        "matmul 1024x1024": (lambda: m1024 @ m1024, 3),
        "conv2d 32x16x28x28, 32 3x3": (lambda: torch.conv2d(conv_x, conv_w, padding=1), 3),
        "conv2d forward+backward": (conv_forward_backward, 2),
        "max_pool2d 2x2 of 32x16x28x28": (lambda: torch.max_pool2d(conv_x, 2), 5),
        "add small (8)": (lambda: small_a + small_b, 20000),
        "mul scalar small (8)": (lambda: small_a * 2.0, 20000),
        "add big (1000x1000)": (lambda: big_a + big_b, 20),
        "sum big (1000x1000)": (lambda: big_a.sum(), 50),
        "matmul (256x256)": (lambda: mat_a @ mat_b, 50),
        "rand (1000x1000)": (lambda: torch.rand(1000, 1000), 10),
        "add small, recorded for grad": (lambda: leaf + small_b, 20000),
    }
    if only is not None:
        # as the full run's earlier cases do: start each side's thread pool (PyTorch's
        # first convolutions run 3x slower until some parallel op has run)
        timeit.repeat(lambda: big4m_a + big4m_b, number=10, repeat=3)
    results = {
        name: _median_us(stmt, number)
        for name, (stmt, number) in timed.items()
        if only is None or _selected(name, only)
    }
    if only is not None:  # a focused rerun of the cases above, nn's and issue 21's models
        results.update(nn_cases(only))
        results.update(_model_cases(only))
        return results

    def forward_backward():
        y = (leaf * small_b + 1).sum()
        y.backward()

    results["mul+add+sum+backward (8)"] = _median_us(forward_backward, 2000)
    results["Adam step, 1M-parameter MLP"] = _median_us(_adam_step_mlp(), 10, repeat=11)
    results.update(autograd_cases())
    results.update(nn_cases())
    results.update(_model_cases())
    results.update(_multiprocessing_cases())
    results.update(data_cases())
    results.update(_serialization_cases())
    results.update(_jit_cases())
    return results


def _selected(name: str, only: str) -> bool:
    return any(part in name for part in only.split("|"))


def _model_cases(only: str | None = None) -> dict:
    """Issue 21's training steps of real models (bench/model_cases.py)."""
    from model_cases import model_cases

    return model_cases(only)


def _serialization_cases() -> dict:
    """Issue 8's 1 GiB save/load cases (bench/serialization_cases.py)."""
    from serialization_cases import serialization_cases

    return serialization_cases()


def _jit_cases() -> dict:
    """Issue 19's JIT cases (bench/jit_cases.py), when torch.jit is installed."""
    try:
        from jit_cases import jit_cases
    except ImportError:
        return {}
    return jit_cases()


def _multiprocessing_cases() -> dict:
    """Issue 9's Queue cases (bench/multiprocessing_cases.py), when torch.multiprocessing
    is installed."""
    try:
        from multiprocessing_cases import multiprocessing_cases
    except ImportError:
        return {}
    return multiprocessing_cases()


# issue 5's targets: recording overhead, a small graph forward+backward, peak memory

# Peak resident memory growth in KB: the kernel's high-water mark (VmHWM) is reset to the
# current RSS through /proc/self/clear_refs, so the import's own peak does not hide the
# workload's (ru_maxrss cannot be reset and printed 0 for both frameworks).
_PEAK_PROBE = """
def _status_kb(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1])
def reset_peak():
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _status_kb("VmRSS:")
def peak_growth(start):
    return _status_kb("VmHWM:") - start
"""

_MLP_PEAK = (
    _PEAK_PROBE
    + """
import torch
torch.manual_seed(0)
x = torch.rand(64, 256)
ws = [(torch.rand(256, 256) * 0.06).requires_grad_() for _ in range(100)]
torch.tanh(x[:1] @ ws[0])  # load lazily opened libraries (BLAS) before measuring
before = reset_peak()
h = x
for w in ws:
    h = torch.tanh(h @ w)
h.sum().backward()
print(peak_growth(before))
"""
)


def autograd_cases() -> dict:
    torch.manual_seed(0)
    a8, b8 = torch.rand(8, 8), torch.rand(8, 8)
    g8 = torch.rand(8, 8, requires_grad=True)
    w8 = torch.rand(8, 8, requires_grad=True)

    def small_graph():
        (torch.tanh(g8 * b8) @ w8).sum().backward()

    results = {
        "add 8x8, one requires grad": _median_us(lambda: g8 + a8, 20000),
        "mul/tanh/matmul/sum 8x8 fwd+bwd": _median_us(small_graph, 2000),
    }
    # peak resident memory growth (KB, not us) of a 100-layer tanh MLP forward+backward,
    # in a fresh interpreter so earlier cases do not set the peak
    out = subprocess.run(
        [sys.executable, "-c", _MLP_PEAK], check=True, capture_output=True, text=True
    ).stdout
    results["MLP 100x256 fwd+bwd peak KB"] = float(out.split()[-1])
    return results


# issue 7's targets: training steps through torch.nn

_LENET_PEAK = (
    _PEAK_PROBE
    + """
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
    nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84),
    nn.ReLU(), nn.Linear(84, 10),
)
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
x, y = torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))
with torch.no_grad():
    net(x[:1])  # load lazily opened libraries (BLAS, kernels) before measuring
before = reset_peak()
for _ in range(3):
    opt.zero_grad()
    F.cross_entropy(net(x), y).backward()
    opt.step()
print(peak_growth(before))
"""
)


def nn_cases(only: str | None = None) -> dict:
    """A LeNet-5 SGD-momentum step (batch 64), a 32-64-64-4 MLP Adam step (batch 16), an
    LSTM forward+backward (20 steps, batch 8, 32 -> 64), and the LeNet run's peak memory;
    with ``only``, just the timed cases it selects."""
    import torch.nn as nn
    import torch.nn.functional as F  # noqa: N812

    namespace = {"torch": torch, "nn": nn, "F": F}
    exec(_LENET_PEAK.split("before =")[0], namespace)
    net, opt, x, y = (namespace[k] for k in ("net", "opt", "x", "y"))

    def lenet_step():
        opt.zero_grad()
        F.cross_entropy(net(x), y).backward()
        opt.step()

    mlp = nn.Sequential(
        nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4)
    )
    adam = torch.optim.Adam(mlp.parameters())
    xm, ym = torch.randn(16, 32), torch.randn(16, 4)

    def mlp_step():
        adam.zero_grad()
        F.mse_loss(mlp(xm), ym).backward()
        adam.step()

    lstm, xs = nn.LSTM(32, 64), torch.randn(20, 8, 32)

    def lstm_forward_backward():
        lstm(xs)[0].sum().backward()

    timed = {
        "LeNet-5 SGD step (batch 64)": (lenet_step, 5, 9),
        "MLP 32-64-64-4 Adam step (batch 16)": (mlp_step, 200, 21),
        "LSTM 20x8x32->64 fwd+bwd": (lstm_forward_backward, 5, 9),
    }
    results = {
        name: _median_us(stmt, number, repeat=repeat)
        for name, (stmt, number, repeat) in timed.items()
        if only is None or _selected(name, only)
    }
    if only is not None:
        return results
    out = subprocess.run(
        [sys.executable, "-c", _LENET_PEAK], check=True, capture_output=True, text=True
    ).stdout
    results["LeNet-5 3 steps peak KB"] = float(out.split()[-1])
    return results


def _adam_step_mlp():
    """One Adam step over the parameters of a 784-1024-256-10 MLP (1.07M parameters),
    gradients set by hand (no autograd or nn needed on either side)."""
    shapes = [(1024, 784), (1024,), (256, 1024), (256,), (10, 256), (10,)]
    params = [torch.randn(*shape) * 0.01 for shape in shapes]
    for p in params:
        p.grad = torch.randn(*p.shape) * 0.01
    return torch.optim.Adam(params, lr=1e-3).step


# issue 9's target: an epoch of MNIST-sized data through a DataLoader with 2 workers


def data_cases() -> dict:
    """One pass over a TensorDataset of 60000 1x28x28 images with labels, batch 64, with
    2 worker processes (started per epoch, as by default) and without workers."""
    from torch.utils.data import DataLoader, TensorDataset

    torch.manual_seed(0)
    dataset = TensorDataset(torch.randn(60000, 1, 28, 28), torch.randint(0, 10, (60000,)))

    def epoch(workers):
        def run():
            for _ in DataLoader(dataset, batch_size=64, num_workers=workers):
                pass

        return run

    return {
        "DataLoader epoch 60000x1x28x28, batch 64, 2 workers": _median_us(epoch(2), 1, repeat=5),
        "DataLoader epoch 60000x1x28x28, batch 64, no workers": _median_us(epoch(0), 1, repeat=5),
    }


if __name__ == "__main__":
    if hasattr(torch, "set_num_threads"):
        torch.set_num_threads(2)  # the machine has 2 cores: both sides get both
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    print(json.dumps(cases(only)))
