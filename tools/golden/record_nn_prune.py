"""Record how real PyTorch 2.13 answers ``torch.nn.utils.prune`` (masks of the norm-based
and seeded random methods, iterative pruning, state_dict entries, errors); run under real
PyTorch only:

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_nn_prune.py

Writes packages/nn/tests/golden/prune.json: case name -> code and outcome. The cases live
in packages/nn/tests/utils/prune_cases.py, shared with the replaying test.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "nn" / "tests"
sys.path.insert(0, str(TESTS))  # snippet_lines.py
sys.path.insert(0, str(TESTS / "utils"))

import prune_cases  # noqa: E402


def main() -> None:
    print("recording under torch", torch.__version__)
    data = {
        name: {"code": code, **prune_cases.outcome(code)}
        for name, code in prune_cases.CASES.items()
    }
    path = TESTS / "golden" / "prune.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
