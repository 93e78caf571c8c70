"""Without a CUDA runtime the Tensor-side CUDA calls behave as PyTorch 2.13's CPU build
(goldens recorded by tools/golden/record_cuda_tensor.py), and a CPU-only run never
imports CuPy."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from cuda_tensor_cases import CASES, outcome

from torch.cuda import _runtime

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "cuda_tensor.json").read_text())


@pytest.fixture(autouse=True)
def no_runtime(monkeypatch):
    if _runtime.get() is not None:
        pytest.skip("a CUDA runtime is active (TORCH_CUDA_SIMULATE or a GPU)")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch_cpu_build(name):
    expected = {k: v for k, v in GOLDEN[name].items() if k != "code"}
    assert outcome(CASES[name]) == expected


def test_cpu_only_import_never_imports_cupy():
    code = (
        "import sys, torch\n"
        "x = torch.ones(2)\n"
        "torch.cuda.is_available(); x.is_pinned(); x.get_device()\n"
        "try:\n    x.cuda()\nexcept AssertionError:\n    pass\n"
        "assert 'cupy' not in sys.modules, 'cupy was imported'\n"
        "assert 'torch.cuda._simulated' not in sys.modules\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != _runtime.SIMULATE_ENV}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_import_torch_does_not_load_the_cuda_runtime():
    code = "import sys, torch\nassert 'torch.cuda._runtime' not in sys.modules\n"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_bad_simulate_value(monkeypatch):
    monkeypatch.setenv(_runtime.SIMULATE_ENV, "two")
    with pytest.raises(ValueError, match="TORCH_CUDA_SIMULATE must be a number"):
        _runtime._simulated_count()
    monkeypatch.setenv(_runtime.SIMULATE_ENV, "0")
    assert _runtime._simulated_count() == 0
