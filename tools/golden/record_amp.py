"""Record what real PyTorch 2.13 gives under ``torch.autocast("cpu")`` and for
``torch.amp.GradScaler("cpu")`` (run under real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_amp.py

Writes packages/tensor-core/tests/golden/amp.json (output dtypes of core ops, the
GradScaler trajectory) and packages/nn/tests/golden/amp.json (nn.functional ops, a small
model's forward and backward).
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORE_TESTS = ROOT / "packages" / "tensor-core" / "tests"
NN_TESTS = ROOT / "packages" / "nn" / "tests"
sys.path[:0] = [str(CORE_TESTS), str(NN_TESTS)]

import amp_cases  # noqa: E402
import amp_model_case  # noqa: E402


def main() -> None:
    print("recording under torch", torch.__version__)
    core = {
        "ops": {
            name: amp_cases.outcome(code, torch) for name, code in amp_cases.CORE_CASES.items()
        },
        "scaler": amp_cases.scaler_trajectory(torch),
    }
    nn = {
        "ops": {name: amp_cases.outcome(code, torch) for name, code in amp_cases.NN_CASES.items()},
        "model": {dt: amp_model_case.model_run(torch, dt) for dt in ("bfloat16", "float16")},
    }
    for folder, data in ((CORE_TESTS, core), (NN_TESTS, nn)):
        path = folder / "golden" / "amp.json"
        path.write_text(json.dumps(data, indent=1) + "\n")
        print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
