"""Where the parts of the ``torch`` namespace that core does not ship come from.

Each sibling wheel installs one subpackage into the shared ``torch`` namespace. When a
sibling is missing, ``import torch.nn`` would fail with Python's bare "No module named
'torch.nn'"; the finder below turns that into a message naming the distribution to
install. It sits at the end of ``sys.meta_path``, so it is asked only after every real
finder has failed to find the module.

Siblings are versioned separately, and ``pip install --no-deps`` (or a hand-made mix of
wheels) can install a set that their metadata forbids. The first import of a sibling
compares every installed torch-* distribution's declared sibling ranges with the versions
installed next to it and warns once about each mismatch (``import torch`` alone does not
pay for it).
"""

from __future__ import annotations

import importlib
import re
import sys
import warnings
from importlib import metadata
from importlib.abc import MetaPathFinder

__all__ = [
    "SIBLINGS",
    "MissingSiblingFinder",
    "SiblingVersionWarning",
    "check_versions",
    "import_sibling",
    "install_finder",
    "install_hint",
    "version_conflicts",
]

# module name -> distribution that ships it
SIBLINGS: dict[str, str] = {
    "torch.autograd": "torch-autograd",
    "torch.nn": "torch-nn",
    "torch.optim": "torch-optim",
    "torch.multiprocessing": "torch-multiprocessing",
    "torch.utils.data": "torch-utils-data",
    "torch.utils.trainer": "torch-utils-data",
    "torch.utils.tensorboard": "torch-utils-data",
    "torch.legacy": "torch-legacy",
    "torch.utils.serialization": "torch-legacy",
    "torch.func": "torch-autograd",
    "torch.profiler": "torch-autograd",
    "torch.utils.checkpoint": "torch-autograd",
    "torch.jit": "torch-jit",
    "torch.onnx": "torch-jit",
    "torch.distributions": "torch-distributions",
    "torch.distributed": "torch-distributed",
}


def _owner(fullname: str) -> str | None:
    """The sibling distribution that ships ``fullname`` (a sibling or a module inside one)."""
    for module, dist in SIBLINGS.items():
        if fullname == module or fullname.startswith(module + "."):
            return dist
    return None


def install_hint(dist: str) -> str:
    """How to install ``dist``: from the package index once the wheels are published, or
    from a clone of the repository, where tools/install.py builds it and the siblings it
    needs from the clone (plain pip cannot find unpublished siblings)."""
    return (
        f"Install it with: pip install {dist} "
        f"(from a clone of the repository: python3 tools/install.py {dist})"
    )


def missing_message(fullname: str, dist: str) -> str:
    return (
        f"No module named '{fullname}': it is part of the '{dist}' distribution, "
        f"which is not installed. {install_hint(dist)}"
    )


class MissingSiblingFinder(MetaPathFinder):
    """Last-resort finder: explains which wheel provides a missing ``torch.*`` module."""

    def find_spec(self, fullname, path=None, target=None):
        dist = _owner(fullname)
        if dist is None:
            return None
        root = next(m for m in SIBLINGS if fullname == m or fullname.startswith(m + "."))
        if fullname != root and root in sys.modules:
            return None  # the sibling is installed; this is just a missing module inside it
        raise ModuleNotFoundError(missing_message(fullname, dist), name=fullname)


def install_finder() -> None:
    if not any(isinstance(f, MissingSiblingFinder) for f in sys.meta_path):
        sys.meta_path.append(MissingSiblingFinder())
    install_version_check()


def import_sibling(fullname: str):
    """Import a sibling subpackage on first attribute access (``torch.nn``, ...)."""
    return importlib.import_module(fullname)


# ------------------------------------------------------------------ sibling version check


class SiblingVersionWarning(UserWarning):
    """Installed torch-* distributions whose versions their own metadata does not admit."""


CORE = "torch-core"
# name, optional [extras], specifier (bare or in parentheses), optional ; marker
_REQUIREMENT = re.compile(
    r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*\(?([^;)]*)\)?\s*(;.*)?$"
)
_CLAUSE = re.compile(r"\s*(~=|==|!=|<=|>=|<|>)\s*([0-9][0-9.]*)(\.\*)?\s*$")


def _release(version: str) -> tuple[int, ...] | None:
    """The numeric release part of a version (``0.4.3`` -> (0, 4, 3)); pre-releases and
    local versions count as their release; None when it is not a plain version."""
    match = re.match(r"\d+(\.\d+)*", version)
    return tuple(int(p) for p in match.group(0).split(".")) if match else None


def _pad(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    n = max(len(a), len(b))
    return a + (0,) * (n - len(a)), b + (0,) * (n - len(b))


def _satisfies(version: str, spec: str) -> bool | None:
    """Whether ``version`` is in ``spec`` (``>=0.4.2,<0.5``); None when either is not
    something this small reader understands (then nothing is reported)."""
    have = _release(version)
    if have is None:
        return None
    for clause in filter(None, (c.strip() for c in spec.split(","))):
        match = _CLAUSE.match(clause)
        if match is None:
            return None
        op, text, star = match.groups()
        want = tuple(int(p) for p in text.strip(".").split("."))
        if star:  # ==0.4.* / !=0.4.*: compare the leading components only
            same = have[: len(want)] == want
            ok = same if op == "==" else not same
        else:
            h, w = _pad(have, want)
            ok = {
                "==": h == w,
                "!=": h != w,
                "<=": h <= w,
                ">=": h >= w,
                "<": h < w,
                ">": h > w,
                "~=": h >= w and h[: len(want) - 1] == w[: len(want) - 1],
            }[op]
        if not ok:
            return False
    return True


def version_conflicts(
    installed: dict[str, str], requires: dict[str, list[str]]
) -> list[tuple[str, str, str, str, str]]:
    """``(dist, its version, sibling, sibling's version, range)`` for every declared
    sibling requirement that the installed sibling does not meet. ``installed`` maps each
    installed torch-* distribution to its version, ``requires`` to its Requires-Dist."""
    conflicts = []
    for dist in sorted(requires):
        for requirement in requires[dist]:
            match = _REQUIREMENT.match(requirement)
            if match is None or match.group(3):  # extras and markers: optional, skip
                continue
            sibling = match.group(1).lower().replace("_", "-")
            spec = match.group(2).strip()
            if sibling not in installed or not spec:
                continue
            if _satisfies(installed[sibling], spec) is False:
                conflicts.append((dist, installed[dist], sibling, installed[sibling], spec))
    return conflicts


def _installed_siblings() -> tuple[dict[str, str], dict[str, list[str]]]:
    installed, requires = {}, {}
    for dist in (CORE, *SIBLINGS.values()):
        try:
            found = metadata.distribution(dist)
        except metadata.PackageNotFoundError:
            continue
        installed[dist] = found.version
        requires[dist] = found.requires or []
    return installed, requires


def conflict_message(dist: str, version: str, sibling: str, have: str, spec: str) -> str:
    return (
        f"{dist} {version} requires {sibling} {spec}, but {sibling} {have} is installed "
        f"(a --no-deps install or a hand-made mix of wheels?): this pair is untested and "
        f"may fail. Install a {sibling} in that range, or a {dist} whose range admits "
        f"{sibling} {have}."
    )


_checked = False


def check_versions() -> None:
    """Warn once per process about installed siblings outside each other's ranges."""
    global _checked
    if _checked:
        return
    _checked = True
    try:
        conflicts = version_conflicts(*_installed_siblings())
    except Exception:  # broken metadata must never make an import fail
        return
    for conflict in conflicts:
        warnings.warn(conflict_message(*conflict), SiblingVersionWarning, stacklevel=3)


class _VersionCheckFinder(MetaPathFinder):
    """First on ``sys.meta_path``, finds nothing: the first import of a sibling runs
    check_versions, then the finder removes itself."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in SIBLINGS:
            _remove_version_check()
            check_versions()
        return None


def _remove_version_check() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _VersionCheckFinder)]


def install_version_check() -> None:
    if not _checked and not any(isinstance(f, _VersionCheckFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _VersionCheckFinder())
