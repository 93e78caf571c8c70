"""Record how real PyTorch's CPU-only build answers ``nn.parallel`` (DataParallel,
data_parallel, replicate, gather, parallel_apply) and ``Module.cuda`` when no CUDA device
exists (run under real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_nn_parallel.py

Writes packages/nn/tests/golden/parallel.json: case name -> code and outcome. The cases
live in packages/nn/tests/parallel/parallel_cases.py, shared with the replaying test.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "nn" / "tests"
sys.path.insert(0, str(TESTS))  # snippet_lines.py
sys.path.insert(0, str(TESTS / "parallel"))

import parallel_cases  # noqa: E402


def main() -> None:
    print("recording under torch", torch.__version__)
    data = {
        name: {"code": code, **parallel_cases.outcome(code)}
        for name, code in parallel_cases.CASES.items()
    }
    path = TESTS / "golden" / "parallel.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
