"""Record how real PyTorch's CPU-only build answers the Tensor-side CUDA calls
(``Tensor.cuda``, ``.to('cuda')``, ``pin_memory``, ``is_pinned``, ``get_device``,
factories with ``device='cuda'``) when no CUDA device exists (run under real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_cuda_tensor.py

Writes packages/tensor-core/tests/golden/cuda_tensor.json: case name -> code and outcome
(the value's repr, or the exception type and message). The cases live in
packages/tensor-core/tests/cuda_tensor_cases.py, shared with the test that replays them.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "tensor-core" / "tests"
sys.path.insert(0, str(TESTS))

import cuda_tensor_cases  # noqa: E402


def main() -> None:
    print("recording under torch", torch.__version__)
    data = {
        name: {"code": code, **cuda_tensor_cases.outcome(code)}
        for name, code in cuda_tensor_cases.CASES.items()
    }
    path = TESTS / "golden" / "cuda_tensor.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
