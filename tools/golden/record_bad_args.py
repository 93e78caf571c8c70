"""Record what real PyTorch does with the bad-argument calls of tools/audit_bad_args.py
(run under real PyTorch):

    ~/.cache/ptdiff/ref/bin/python tools/golden/record_bad_args.py

Writes packages/tensor-core/tests/golden/bad_args.json (the cases that need only the
core) and packages/nn/tests/golden/bad_args.json (the ``nn.functional`` ones): per case
its expression and its outcome, the exception type's name or ``"ok ..."`` (the shape and
dtype of a tensor result, the value of a small one), plus the setup code the
expressions assume. The tests replay every case and compare the outcome.
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import audit_bad_args  # noqa: E402

OUT = {
    "core": ROOT / "packages" / "tensor-core" / "tests" / "golden" / "bad_args.json",
    "nn": ROOT / "packages" / "nn" / "tests" / "golden" / "bad_args.json",
}


def main() -> None:
    import torch

    if "tensor-core" in str(torch.__file__):
        sys.exit("run this under real PyTorch, not this project's torch")
    for group, path in OUT.items():
        cases = {}
        for case_group, name, source in audit_bad_args.CASES:
            if case_group == group:
                outcome, message = audit_bad_args.run_case(group, source)
                cases[name] = {"source": source, "outcome": outcome, "message": message}
        data = {"torch": torch.__version__, "setup": audit_bad_args.SETUP[group], "cases": cases}
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print("wrote", path.relative_to(ROOT), len(cases), "cases")


if __name__ == "__main__":
    main()
