"""Record what real PyTorch gives for the sparse COO expressions of
packages/tensor-core/tests/sparse_cases.py (run under real PyTorch only).

    /work/ptref/bin/python tools/golden/record_sparse.py

Writes packages/tensor-core/tests/golden/sparse.json: case name -> code and outcome.
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "tensor-core" / "tests"
sys.path.insert(0, str(TESTS))

import sparse_cases  # noqa: E402


def main() -> None:
    warnings.simplefilter("ignore")  # PyTorch's note that invariant checks are off
    data = {
        name: {"code": code, **sparse_cases.outcome(torch, code)}
        for name, code in sparse_cases.CASES.items()
    }
    path = TESTS / "golden" / "sparse.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT), f"({len(data)} cases)")


if __name__ == "__main__":
    main()
