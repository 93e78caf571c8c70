"""Run each case of ecosystem/cases/ (a small real use of one library) in its own
interpreter and compare its JSON output with what real PyTorch 2.13 gave
(ecosystem/golden/<case>.json, written by tools/golden/record_ecosystem.py).

    python ecosystem/run.py            # every case; exit 1 on any unexpected outcome
    python ecosystem/run.py kornia     # the cases whose name contains "kornia"

A case listed in KNOWN_FAILURES must fail with exactly that last line of error: the
list is the honest state of things, and a case that starts passing fails the run until
it is taken off the list.
"""

from __future__ import annotations

import json
import math
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).parent
CASES = HERE / "cases"
GOLDEN = HERE / "golden"
REL_TOL = 1e-4  # float results: NumPy kernels and PyTorch's differ in the last bits

# case -> the last line of its error here, and why
KNOWN_FAILURES: dict[str, tuple[str, str]] = {}


def close(ours, expected) -> bool:
    if isinstance(expected, float) or isinstance(ours, float):
        return isinstance(ours, (int, float)) and math.isclose(ours, expected, rel_tol=REL_TOL)
    if isinstance(expected, dict):
        return (
            isinstance(ours, dict)
            and sorted(ours) == sorted(expected)
            and all(close(ours[k], expected[k]) for k in expected)
        )
    if isinstance(expected, list):
        return (
            isinstance(ours, list)
            and len(ours) == len(expected)
            and all(close(a, b) for a, b in zip(ours, expected))
        )
    return ours == expected


def run_case(path: pathlib.Path) -> tuple[bool, str]:
    name = path.stem.removesuffix("_case")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-W", "ignore", str(path)], capture_output=True, text=True, timeout=900
    )
    seconds = time.perf_counter() - started
    known = KNOWN_FAILURES.get(name)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        if known and last == known[0]:
            return True, f"{name}: known failure ({seconds:.1f} s): {last}"
        return False, f"{name}: FAILED ({seconds:.1f} s):\n{done.stderr[-3000:]}"
    if known:
        return False, f"{name}: passes now: take it off KNOWN_FAILURES"
    ours = json.loads(done.stdout.strip().splitlines()[-1])
    expected = json.loads((GOLDEN / f"{name}.json").read_text())
    if not close(ours, expected):
        return False, f"{name}: DIFFERS from PyTorch 2.13\n ours:     {ours}\n pytorch:  {expected}"
    return True, f"{name}: same as PyTorch 2.13 ({seconds:.1f} s)"


def main(argv: list[str]) -> int:
    wanted = argv[1:]
    ok = True
    for path in sorted(CASES.glob("*_case.py")):
        if wanted and not any(w in path.stem for w in wanted):
            continue
        passed, report = run_case(path)
        ok &= passed
        print(report, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
