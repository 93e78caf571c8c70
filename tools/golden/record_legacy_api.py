"""Record what real PyTorch gives for the 0.4-migration expressions of the cases files
below (run under real PyTorch only).

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_legacy_api.py

Writes each package's golden file: case name -> code and outcome (value or error, and the
warnings raised).
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
    "tensor-core": ("legacy_api_cases.py", "golden/legacy_api.json"),
    "autograd": ("variable_cases.py", "golden/variable.json"),
    "optim": ("legacy_names_cases.py", "golden/legacy_names.json"),
}


def load_cases(package: str):
    path = ROOT / "packages" / package / "tests" / CASES[package][0]
    sys.path.insert(0, str(path.parent))  # the cases import their package's helpers from tests/
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
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
