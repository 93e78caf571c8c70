"""Record what real PyTorch 2.13 (gloo backend) gives for the multi-process cases of
packages/distributed/tests/dist_cases.py, on 2 and 4 local processes.

    python tools/golden/record_distributed.py ~/.cache/ptdiff/ref/bin/python

(run with any Python: it starts the ranks under the interpreter given). Writes
packages/distributed/tests/golden/collectives.json: per world size, case and rank, the
case's results.
"""

from __future__ import annotations

import json
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "distributed" / "tests"
sys.path.insert(0, str(TESTS))

import dist_cases  # noqa: E402


def main() -> None:
    python = sys.argv[1]
    golden = {}
    for world in (2, 4):
        for case in dist_cases.CASES:
            with tempfile.TemporaryDirectory() as tmp:
                ranks = dist_cases.run_job(case, world, tmp, python=python, timeout=120)
            for rank in ranks:
                if rank["rc"] != 0:
                    raise SystemExit(f"{case} on {world} ranks failed:\n{rank['stderr']}")
            golden[f"{world}/{case}"] = [rank["result"] for rank in ranks]
    path = TESTS / "golden" / "collectives.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
