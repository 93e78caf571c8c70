"""Record golden outputs of real PyTorch's torch.utils.data for packages/utils-data/tests
(run under real PyTorch only):

    /work/ptref/bin/python tools/golden/record_utils_data.py

Writes packages/utils-data/tests/golden/utils_data.json. The cases (sampler orders,
random_split, collate outputs, worker seeds, error messages) live in
packages/utils-data/tests/cases_data.py, which the tests run too.
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "utils-data" / "tests"
sys.path.insert(0, str(TESTS))

import cases_data  # noqa: E402


def main() -> None:
    out = {name: case() for name, case in cases_data.CASES.items()}
    path = TESTS / "golden" / "utils_data.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print("wrote", len(out), "case groups to", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
