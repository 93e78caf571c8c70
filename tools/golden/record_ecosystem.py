"""Record what the ecosystem cases (ecosystem/cases/) give under real PyTorch 2.13, with
the library versions pinned in ecosystem/requirements.txt; run under real PyTorch:

    uv pip install --python ~/.cache/ptdiff/ref/bin/python --target /tmp/ecolibs \\
        --no-deps -r ecosystem/requirements.txt
    PYTHONPATH=/tmp/ecolibs ~/.cache/ptdiff/ref/bin/python tools/golden/record_ecosystem.py

Writes ecosystem/golden/<case>.json (the last line a case prints).
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = ROOT / "ecosystem" / "cases"
GOLDEN = ROOT / "ecosystem" / "golden"


def main() -> None:
    print("recording under torch", torch.__version__)
    GOLDEN.mkdir(exist_ok=True)
    for path in sorted(CASES.glob("*_case.py")):
        done = subprocess.run(
            [sys.executable, "-W", "ignore", str(path)], capture_output=True, text=True, check=True
        )
        result = json.loads(done.stdout.strip().splitlines()[-1])
        name = path.stem.removesuffix("_case")
        (GOLDEN / f"{name}.json").write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
        print("wrote", name)


if __name__ == "__main__":
    main()
