"""Record what real PyTorch gives for the torch.func / forward_ad snippets (run under
real PyTorch only):

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_func.py

Writes packages/autograd/tests/golden/func_api.json (packages/autograd/tests/func_cases.py:
core and autograd only) and packages/nn/tests/golden/func_nn.json
(packages/nn/tests/func_nn_cases.py: models of torch.nn): case name -> code and outcome.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGETS = (
    ("autograd", "func_cases", "func_api"),
    ("nn", "func_nn_cases", "func_nn"),
)


def main() -> None:
    print("recording under torch", torch.__version__)
    for package, module_name, golden in TARGETS:
        tests = ROOT / "packages" / package / "tests"
        sys.path.insert(0, str(tests))
        cases = importlib.import_module(module_name)
        data = {name: {"code": code, **cases.outcome(code)} for name, code in cases.CASES.items()}
        path = tests / "golden" / f"{golden}.json"
        path.write_text(json.dumps(data, indent=1) + "\n")
        print("wrote", path.relative_to(ROOT), len(data), "cases")


if __name__ == "__main__":
    main()
