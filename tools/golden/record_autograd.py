"""Record what real PyTorch gives for the autograd API snippets of
packages/autograd/tests/autograd_cases.py (run under real PyTorch only).

    /work/ptref/bin/python tools/golden/record_autograd.py

Writes packages/autograd/tests/golden/autograd_api.json: case name -> code and outcome.
``--only PREFIX`` re-records only the cases whose names start with PREFIX (e.g.
``complex_``) and keeps the other recorded cases as they are.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "autograd" / "tests"
sys.path.insert(0, str(TESTS))

import autograd_cases  # noqa: E402


def main() -> None:
    print("recording under torch", torch.__version__)
    prefix = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    path = TESTS / "golden" / "autograd_api.json"
    data = json.loads(path.read_text()) if prefix and path.exists() else {}
    data.update(
        (name, {"code": code, **autograd_cases.outcome(code)})
        for name, code in autograd_cases.CASES.items()
        if name.startswith(prefix)
    )
    data = {name: data[name] for name in autograd_cases.CASES if name in data}
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
