"""Write the import-linter contracts that mirror DESIGN.md's package table.

    python tools/layering.py > importlinter.ini && lint-imports --config importlinter.ini

For each package, a forbidden contract: none of its modules may import a sibling that
is not among its declared dependencies (directly or through them). The namespace roots
``torch`` and ``torch.utils`` are left out as sources because import-linter counts every
module below them as part of them; they import siblings only lazily, by name.

One more contract keeps siblings off core's private modules: no module of a sibling
imports a private module of torch-core (a name with a part starting with ``_``:
``torch._tensor``, ``torch.testing._opinfo``) other than the extension API
``torch._interface`` and its submodules. Only direct imports count: ``torch._interface``
itself may use core's private modules. import-linter sees Python modules only, so the
compiled ``torch._C`` and private names reached as attributes (``torch._C.kernel``,
``torch._tensor.Tensor``) are checked by :func:`private_attribute_uses` instead
(``python tools/layering.py --private-attributes`` fails on any).
"""

from __future__ import annotations

import ast
import pathlib
import re
import sys

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


CORE = "torch-core"
#: imports made on first use (inside a function or a module ``__getattr__``) that go up
#: the dependency order on purpose; every package contract ignores them
LAZY_IMPORTS = [
    # torch-nn's nn.parallel.DistributedDataParallel is torch-distributed's class
    "torch.nn.parallel -> torch.distributed.ddp",
    # a training SyncBatchNorm in a group of several ranks shares its statistics
    "torch.nn.modules.normalization -> torch.distributed.nn.functional",
    # DistributedSampler reads the default process group's rank and size when asked
    "torch.utils.data.distributed -> torch.distributed",
    # torch-optim's swa_utils.AveragedModel is an nn.Module (torch.optim never imports it)
    "torch.optim.swa_utils -> torch.nn",
]
#: the private module of core that siblings may import (with its submodules)
INTERFACE = "torch._interface"


def is_private(module: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in module.split("."))


def private_core_modules(info: dict) -> list[str]:
    """Core's private modules that siblings may not import: the shortest names covering
    them, without ``torch._interface``."""
    private = [m for m in info[CORE]["modules"] if is_private(m)]
    interface = [m for m in private if m == INTERFACE or m.startswith(INTERFACE + ".")]
    return [m for m in roots(private) if m not in roots(interface)]


def private_core_contract(info: dict) -> list[str]:
    siblings = sorted({r for d in info if d != CORE for r in roots(info[d]["modules"])})
    lines = [
        "[importlinter:contract:private-core]",
        f"name = siblings import no private module of {CORE} but {INTERFACE}",
        "type = forbidden",
        "allow_indirect_imports = True",
        "source_modules =",
    ]
    lines += [f"    {m}" for m in siblings]
    lines += ["forbidden_modules ="] + [f"    {m}" for m in private_core_modules(info)] + [""]
    return lines


def _private_name(module: str) -> bool:
    """A private ``torch`` module other than the extension API (``torch._C``, ...)."""
    allowed = module == INTERFACE or module.startswith(INTERFACE + ".")
    return module.startswith("torch.") and is_private(module) and not allowed


def _uses_in(tree: ast.AST):
    """``(line, name)`` of each private torch name a module reaches: imported
    (``import torch._C``, ``from torch import _C``) or as an attribute (``torch._C.f``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            names = [f"{node.value.id}.{node.attr}"] if node.value.id == "torch" else []
        elif isinstance(node, ast.Call):
            names = _called_names(node)
        else:
            continue
        for name in names:
            if _private_name(name):
                yield node.lineno, name
                break


def _called_names(call: ast.Call) -> list[str]:
    """The module of ``import_module("torch._x")`` / ``__import__(...)``, or the name of
    ``getattr(torch, "_x")``."""
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    args = [a.value if isinstance(a, ast.Constant) else a for a in call.args[:2]]
    if called in ("import_module", "__import__") and args and isinstance(args[0], str):
        return [args[0]]
    if called == "getattr" and len(args) == 2 and isinstance(args[1], str):
        target = args[0]
        if isinstance(target, ast.Name) and target.id == "torch":
            return [f"torch.{args[1]}"]
    return []


def private_attribute_uses(info: dict | None = None) -> list[str]:
    """``path:line: name`` for each private name of core that a sibling's source reaches
    (what import-linter cannot see: the compiled ``torch._C``, attribute access)."""
    info = info if info is not None else packages()
    found = []
    for pyproject in sorted(ROOT.glob("packages/*/pyproject.toml")):
        if tomllib.loads(pyproject.read_text())["project"]["name"] == CORE:
            continue
        own = roots(info[tomllib.loads(pyproject.read_text())["project"]["name"]]["modules"])
        for path in sorted((pyproject.parent / "src").rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for line, name in sorted(set(_uses_in(tree))):
                # a package's own private modules are its own (torch.func reaching
                # torch.autograd._transforms, both in torch-autograd)
                if any(name.startswith(r + ".") for r in own):
                    continue
                found.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    return found


def render() -> str:
    info = packages()
    lines = ["[importlinter]", "root_package = torch", ""]
    lines += private_core_contract(info)
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
        lines += ["forbidden_modules ="] + [f"    {m}" for m in forbidden]
        lines += ["ignore_imports ="] + [f"    {i}" for i in LAZY_IMPORTS]
        # a venv without one of the two packages has no such import to ignore
        lines += ["unmatched_ignore_imports_alerting = none", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:] == ["--private-attributes"]:
        uses = private_attribute_uses()
        print("\n".join(uses) or "no sibling reaches a private name of torch-core")
        sys.exit(1 if uses else 0)
    print(render())
