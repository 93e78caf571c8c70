"""Record what real PyTorch gives for the sparse-gradient cases (run under real PyTorch
only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_sparse_grad.py

Writes packages/nn/tests/golden/sparse_grad.json (embedding gradients and
their accumulation) and packages/optim/tests/golden/sparse_steps.json (optimizers stepping
on sparse gradients): case name -> code and outcome.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: cases module -> golden file
CASES = {
    ROOT / "packages/nn/tests/functional/sparse_grad_cases.py": (
        ROOT / "packages/nn/tests/golden/sparse_grad.json"
    ),
    ROOT / "packages/optim/tests/sparse_step_cases.py": (
        ROOT / "packages/optim/tests/golden/sparse_steps.json"
    ),
}


def load(path: pathlib.Path):
    tests = next(folder for folder in path.parents if folder.name == "tests")
    sys.path.insert(0, str(tests))  # the cases import their package's helpers from tests/
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    for path, golden in CASES.items():
        cases = load(path)
        data = {
            name: {"code": code, **cases.outcome(torch, code)} for name, code in cases.CASES.items()
        }
        golden.write_text(json.dumps(data, indent=1) + "\n")
        print("wrote", golden.relative_to(ROOT), f"({len(data)} cases)")


if __name__ == "__main__":
    main()
