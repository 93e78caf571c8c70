"""Record how real PyTorch 2.13 answers ``torch.optim.swa_utils`` (SWALR learning rates,
AveragedModel averages with each averaging function, update_bn statistics, errors); run
under real PyTorch only:

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_optim_swa.py

Writes packages/optim/tests/golden/swa_utils.json: case name -> code and outcome. The
cases live in packages/optim/tests/swa_cases.py, shared with the replaying test.
"""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "optim" / "tests"
sys.path.insert(0, str(TESTS))

import swa_cases  # noqa: E402


def main() -> None:
    print("recording under torch", torch.__version__)
    data = {
        name: {"code": code, **swa_cases.outcome(code)} for name, code in swa_cases.CASES.items()
    }
    path = TESTS / "golden" / "swa_utils.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
