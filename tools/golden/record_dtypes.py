"""Record what real PyTorch 2.13 does with uint16/32/64 and the float8 dtypes (run under
real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_dtypes.py

Writes packages/tensor-core/tests/golden/limited_dtypes.json: per dtype the outcome of
each case of tests/limited_dtype_cases.py, the promotion table, finfo/iinfo, float8
conversions, and torch.save files of small tensors of each dtype (base64).
"""

from __future__ import annotations

import base64
import io
import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORE_TESTS = ROOT / "packages" / "tensor-core" / "tests"
sys.path.insert(0, str(CORE_TESTS))

import limited_dtype_cases as cases  # noqa: E402


def saved_files() -> dict:
    files = {}
    for name in cases.LIMITED:
        a, _ = cases.make_operands(torch, name)
        buffer = io.BytesIO()
        torch.save({"t": a, "view": a[1:]}, buffer)
        files[name] = base64.b64encode(buffer.getvalue()).decode()
    return files


def outcomes(name: str) -> dict:
    return {case: cases.outcome(torch, code, name) for case, code in cases.all_cases().items()}


def main() -> None:
    print("recording under torch", torch.__version__)
    data = {
        "ops": {
            name: {
                case: cases.outcome(torch, code, name) for case, code in cases.all_cases().items()
            }
            for name in cases.LIMITED
        },
        "promote_types": cases.promotions(torch),
        "limits": cases.limits(torch),
        "conversions": cases.conversions(torch),
        "saved": saved_files(),
    }
    path = CORE_TESTS / "golden" / "limited_dtypes.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
