"""Write the import-linter contracts that mirror DESIGN.md's package table.

    python tools/layering.py > importlinter.ini && lint-imports --config importlinter.ini

For each package, a forbidden contract: none of its modules may import a sibling that
is not among its declared dependencies (directly or through them). The namespace roots
``torch`` and ``torch.utils`` are left out as sources because import-linter counts every
module below them as part of them; they import siblings only lazily, by name.
"""

from __future__ import annotations

import pathlib
import re

import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
NAMESPACE_ROOTS = {"torch", "torch.utils"}


def packages() -> dict[str, dict]:
    info = {}
    for pyproject in sorted(ROOT.glob("packages/*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text())["project"]
        src = pyproject.parent / "src"
        modules = sorted(
            ".".join(p.with_suffix("").relative_to(src).parts).removesuffix(".__init__")
            for p in src.rglob("*.py")
        )
        deps = [re.match(r"[A-Za-z0-9_.-]+", d).group(0) for d in project["dependencies"]]
        info[project["name"]] = {"modules": modules, "deps": deps}
    return info


def roots(modules: list[str]) -> list[str]:
    """The shortest module names that cover ``modules`` (a package's top modules)."""
    result: list[str] = []
    for m in sorted(modules, key=len):
        if m in NAMESPACE_ROOTS:
            continue
        if not any(m == r or m.startswith(r + ".") for r in result):
            result.append(m)
    return sorted(result)


def allowed(dist: str, info: dict) -> set[str]:
    seen, stack = set(), [dist]
    while stack:
        d = stack.pop()
        if d not in seen:
            seen.add(d)
            stack += [x for x in info[d]["deps"] if x in info]
    return seen


def render() -> str:
    info = packages()
    lines = ["[importlinter]", "root_package = torch", ""]
    for dist in info:
        others = sorted(d for d in info if d not in allowed(dist, info))
        forbidden = sorted({r for d in others for r in roots(info[d]["modules"])})
        if not forbidden:
            continue
        lines += [
            f"[importlinter:contract:{dist}]",
            f"name = {dist} imports only the siblings it declares",
            "type = forbidden",
            "source_modules =",
        ]
        lines += [f"    {m}" for m in roots(info[dist]["modules"])]
        lines += ["forbidden_modules ="] + [f"    {m}" for m in forbidden] + [""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(render())
