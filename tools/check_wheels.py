"""Fail if two wheels ship the same file, if the namespace roots are shipped by anything
but torch-core, or if a wheel's tags would keep it off PyPI: a wheel with compiled code
needs a manylinux_* tag (as auditwheel repair gives), a pure one must be py3-none-any.

    python tools/check_wheels.py dist/*.whl
"""

from __future__ import annotations

import sys
import zipfile

CORE_ONLY = {"torch/__init__.py", "torch/utils/__init__.py"}
COMPILED = (".so", ".pyd", ".dylib")


def tag_problems(name: str, files: list[str]) -> list[str]:
    """What is wrong with the wheel file name's tags, given the files it ships."""
    # name-version(-build)?-python-abi-platform.whl; a tag may be a dotted set
    python, abi, platform = name[: -len(".whl")].split("-")[-3:]
    if not any(f.endswith(COMPILED) or ".so." in f for f in files):
        if (python, abi, platform) != ("py3", "none", "any"):
            return [f"{name} is pure Python but not tagged py3-none-any"]
        return []
    platforms = platform.split(".")
    # PyPI takes manylinux tags (PEP 600, and the older aliases next to them), not linux_*
    if not any(p.startswith("manylinux_") for p in platforms) or not all(
        p.startswith("manylinux") for p in platforms
    ):
        return [f"{name} has compiled code but no manylinux_* platform tag (run auditwheel)"]
    return []


def main(paths: list[str]) -> int:
    owner: dict[str, str] = {}
    problems = []
    for path in paths:
        name = path.rsplit("/", 1)[-1]
        with zipfile.ZipFile(path) as wheel:
            files = [f for f in wheel.namelist() if ".dist-info/" not in f]
        problems += tag_problems(name, files)
        if any(f.split("/")[0] == "tests" for f in files):
            # the noxfile's wheel cache leaves tests/ out of the key: no wheel may ship them
            problems.append(f"{name} ships a top-level tests/ folder")
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
