"""Record real PyTorch's results for the math-API expressions of cases_math.py (run under
real PyTorch only).

    /work/ptref/bin/python tools/golden/record_math.py

Writes packages/tensor-core/tests/golden/math_api.json.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "packages" / "tensor-core" / "tests"), str(ROOT / "tools" / "golden")]

import cases_math  # noqa: E402
import golden_describe  # noqa: E402


def main() -> None:
    data = {
        "setup": cases_math.SETUP,
        "groups": {
            group: {code: golden_describe.outcome(torch, code, cases_math.SETUP) for code in codes}
            for group, codes in cases_math.GROUPS.items()
        },
    }
    path = ROOT / "packages" / "tensor-core" / "tests" / "golden" / "math_api.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
