"""Record real PyTorch's outcomes for the ``torch.distributions`` cases of
packages/distributions/tests/dist_cases.py (run under real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_distributions.py

Writes packages/distributions/tests/golden/distributions.json.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packages" / "distributions" / "tests"))

import dist_cases  # noqa: E402


def main() -> None:
    data = {"torch": torch.__version__, "groups": dist_cases.record_all(torch)}
    path = ROOT / "packages" / "distributions" / "tests" / "golden" / "distributions.json"
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
