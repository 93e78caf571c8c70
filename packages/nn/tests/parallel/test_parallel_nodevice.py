"""Without a CUDA device, ``nn.parallel`` and ``Module.cuda`` behave as PyTorch 2.13's
CPU build (goldens recorded by tools/golden/record_nn_parallel.py)."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

import torch
from torch._interface import backends

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from parallel_cases import CASES, outcome  # noqa: E402

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "parallel.json").read_text())


@pytest.fixture(autouse=True)
def no_runtime():
    if backends.cuda_runtime() is not None:
        pytest.skip("a CUDA runtime is active (TORCH_CUDA_SIMULATE or a GPU)")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch_cpu_build(name):
    expected = {k: v for k, v in GOLDEN[name].items() if k != "code"}
    assert outcome(CASES[name]) == expected


def test_scatter_without_cuda_says_so():
    # PyTorch's CPU build fails on a missing C function; this one names the cause
    with pytest.raises(RuntimeError, match="Torch not compiled with CUDA enabled"):
        torch.nn.parallel.scatter(torch.ones(4), [0, 1])
