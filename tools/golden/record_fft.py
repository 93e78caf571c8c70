"""Record real PyTorch's results for the ``torch.fft`` expressions of cases_fft.py (run
under real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_fft.py

Writes packages/tensor-core/tests/golden/fft.json.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "packages" / "tensor-core" / "tests"), str(ROOT / "tools" / "golden")]

import cases_fft  # noqa: E402
import fft_describe  # noqa: E402


def main() -> None:
    data = {
        "torch": torch.__version__,
        "setup": cases_fft.SETUP,
        "groups": {
            group: {code: fft_describe.outcome(torch, code, cases_fft.SETUP) for code in codes}
            for group, codes in cases_fft.GROUPS.items()
        },
    }
    path = ROOT / "packages" / "tensor-core" / "tests" / "golden" / "fft.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
