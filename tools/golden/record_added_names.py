"""Record what real PyTorch gives for the expressions of the names added for the
public-names check (run under real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_added_names.py

Writes each package's golden file: case name -> code and outcome (value or error).
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: package -> (cases module, golden file) under its tests/
CASES = {
    "tensor-core": ("added_names_cases.py", "golden/added_names.json"),
    "nn": ("added_nn_cases.py", "golden/added_nn_names.json"),
}


def load_cases(package: str):
    path = ROOT / "packages" / package / "tests" / CASES[package][0]
    sys.path.insert(0, str(path.parent))  # the cases import their folder's helpers
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    print("recording under torch", torch.__version__)
    for package, (_, golden) in CASES.items():
        cases = load_cases(package)
        data = {
            name: {"code": code, **cases.outcome(torch, code)} for name, code in cases.CASES.items()
        }
        path = ROOT / "packages" / package / "tests" / golden
        path.write_text(json.dumps(data, indent=1) + "\n")
        print("wrote", path.relative_to(ROOT), f"({len(data)} cases)")


if __name__ == "__main__":
    main()
