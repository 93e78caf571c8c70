"""Record what real PyTorch 2.13's torch.hub does in the scenarios of
packages/tensor-core/tests/hub_cases.py (run under real PyTorch only; offline: a local
HTTP server plays the network).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_hub.py

Writes packages/tensor-core/tests/golden/hub.json.
"""

from __future__ import annotations

import json
import pathlib
import sys
import tempfile

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORE_TESTS = ROOT / "packages" / "tensor-core" / "tests"
sys.path.insert(0, str(CORE_TESTS))

import hub_cases  # noqa: E402


def main() -> None:
    print("recording under torch", torch.__version__)
    with tempfile.TemporaryDirectory() as tmp:
        results = hub_cases.run_all(torch, pathlib.Path(tmp).resolve())
    path = CORE_TESTS / "golden" / "hub.json"
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
