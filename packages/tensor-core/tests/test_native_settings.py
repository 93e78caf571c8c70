"""The process-wide settings torch makes at import (docs/native.md) can each be turned off
by its environment variable and say whether they are in effect; the instruction-set tier
the native kernels run can be capped by TORCH_CPU_ISA, and every tier computes what the
best one does."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from torch import _native

SETTINGS = {
    "keep_freed_buffers": "TORCH_KEEP_FREED_BUFFERS",
    "aligned_numpy_allocator": "TORCH_ALIGNED_ALLOCATOR",
}
REPORT = (
    "import json, torch._native as n; "
    "print(json.dumps({'settings': n.process_settings(), 'isa': n.cpu_isa()}))"
)


def _report(**env_changes) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS.values()}
    env.pop("TORCH_CPU_ISA", None)
    env.update(env_changes)
    out = subprocess.run(
        [sys.executable, "-c", REPORT], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_pure_path_makes_no_setting():
    report = _report(TORCH_NATIVE="0")
    assert report == {"settings": dict.fromkeys(SETTINGS, False), "isa": "none"}


@pytest.mark.skipif(not _native.ENABLED, reason="the pure NumPy build makes no setting")
def test_every_setting_is_on_by_default():
    assert _report(TORCH_NATIVE="1")["settings"] == dict.fromkeys(SETTINGS, True)


@pytest.mark.skipif(not _native.ENABLED, reason="the pure NumPy build makes no setting")
@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_each_variable_turns_off_its_setting_only(name):
    settings = _report(TORCH_NATIVE="1", **{SETTINGS[name]: "0"})["settings"]
    assert settings == {other: other != name for other in SETTINGS}


@pytest.mark.skipif(not _native.ENABLED, reason="no native kernels")
def test_the_tier_is_reported_and_only_lowered():
    best = _native.cpu_isa()
    order = ["baseline", "avx2", "avx512"]
    assert best in order
    for cap in order:
        expected = order[min(order.index(cap), order.index(best))]
        assert _report(TORCH_NATIVE="1", TORCH_CPU_ISA=cap)["isa"] == expected


# Outputs of every family compiled per tier (exp, arithmetic and sums, convolution, the
# recurrent loops and 2x2 max pool, an optimizer step), from fixed inputs.
KERNEL_OUTPUTS = """
import sys
import numpy as np
import torch
from torch import _C

try:
    import torch.autograd, torch.nn, torch.optim
    SIBLINGS = True
except ModuleNotFoundError:
    SIBLINGS = False

rng = np.random.default_rng(0)
out = {}
for dt in (np.float32, np.float64):
    x = (rng.standard_normal(70000) * 20).astype(dt)
    out[f"exp_{dt.__name__}"] = _C.unary("exp", x)
    out[f"mul_{dt.__name__}"] = _C.binary("mul", x, x[::-1].copy())
    out[f"sum_{dt.__name__}"] = np.array(_C.sum_all(x))
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    images = torch.randn(2, 4, 9, 10, dtype=dt)
    out[f"conv_{dt}"] = torch.conv2d(images, torch.randn(6, 4, 3, 3, dtype=dt)).numpy()
    out[f"pool_{dt}"] = torch.max_pool2d(images, 2).numpy()
    if not SIBLINGS:  # core's own test session installs torch-core alone
        continue
    lstm = torch.nn.LSTM(5, 7).to(dt)
    out[f"lstm_{dt}"] = lstm(torch.randn(4, 3, 5, dtype=dt))[0].detach().numpy()
    gru = torch.nn.GRU(5, 7).to(dt)
    out[f"gru_{dt}"] = gru(torch.randn(4, 3, 5, dtype=dt))[0].detach().numpy()
    param = torch.randn(50000, dtype=dt, requires_grad=True)
    opt = torch.optim.Adam([param], lr=0.1)
    (param * param).sum().backward()
    opt.step()
    out[f"adam_{dt}"] = param.detach().numpy()
np.savez(sys.argv[1], **out)
"""


@pytest.mark.skipif(not _native.ENABLED, reason="no native kernels")
@pytest.mark.parametrize("tier", ["avx2", "baseline"])
def test_every_tier_computes_what_the_best_one_does(tier, tmp_path):
    results = {}
    for name, cap in (("best", "avx512"), ("capped", tier)):
        env = dict(os.environ, TORCH_NATIVE="1", TORCH_CPU_ISA=cap)
        path = tmp_path / f"{name}.npz"
        run = subprocess.run(
            [sys.executable, "-c", KERNEL_OUTPUTS, str(path)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
        results[name] = np.load(path)
    best, capped = results["best"], results["capped"]
    for key in best.files:
        # float32 kernels may round (or sum) differently per tier; float64 ones agree closely
        tight = "float64" in key
        np.testing.assert_allclose(
            capped[key],
            best[key],
            rtol=1e-12 if tight else 2e-5,
            atol=1e-12 if tight else 1e-5,
            err_msg=key,
        )
