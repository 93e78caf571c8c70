"""Fail if two wheels ship the same file, or if the namespace roots are shipped by anything
but torch-core.

    python tools/check_wheels.py dist/*.whl
"""

from __future__ import annotations

import sys
import zipfile

CORE_ONLY = {"torch/__init__.py", "torch/utils/__init__.py"}


def main(paths: list[str]) -> int:
    owner: dict[str, str] = {}
    problems = []
    for path in paths:
        name = path.rsplit("/", 1)[-1]
        with zipfile.ZipFile(path) as wheel:
            files = [f for f in wheel.namelist() if ".dist-info/" not in f]
        if not any(f.endswith("py.typed") for f in files):
            problems.append(f"{name} has no py.typed marker")
        for f in files:
            if f in owner:
                problems.append(f"{f} is shipped by both {owner[f]} and {name}")
            owner[f] = name
            if f in CORE_ONLY and not name.startswith("torch_core-"):
                problems.append(f"{name} ships {f}, which belongs to torch-core")
    for f in CORE_ONLY:
        if f not in owner:
            problems.append(f"no wheel ships {f}")
    for problem in problems:
        print("error:", problem)
    print(f"{len(paths)} wheels, {len(owner)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
