"""Install any subset of this repository's packages from a clone, siblings included.

    python3 tools/install.py torch-nn              # torch-nn + torch-autograd + torch-core
    python3 tools/install.py core optim            # folder or distribution names
    python3 tools/install.py --dry-run torch-nn    # show what it would build and install

Why a script: the siblings are not published, so ``pip install packages/nn`` fails
(pip looks for torch-core and torch-autograd on the package index). This builds a wheel
of each package needed (the ones asked for and every sibling they depend on, read from
the packages' pyproject.toml files) into build/wheelhouse/, then installs those wheel
files together with pip, which takes each sibling from its file and everything else
(numpy, ...) from the index. Wheels are kept by a hash of their package's source, so a
second venv or another subset does not compile torch-core again; a change to a package's
files builds it anew.

It installs into the environment of the Python that runs it: activate a venv first, or
run it with the venv's python. Standard library only; uses ``python -m pip``, or uv when
that Python has no pip (venvs made by ``uv venv``). Once the wheels are published, plain
``pip install torch-nn`` does the same from the index.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ROOT / "packages"
WHEELHOUSE = ROOT / "build" / "wheelhouse"
# not part of a package's source: build outputs and caches
SKIP_DIRS = {"__pycache__", "build", "dist", ".pytest_cache", ".hypothesis", ".ruff_cache"}
SKIP_SUFFIXES = (".pyc", ".so", ".egg-info")


def _project(folder: pathlib.Path) -> tuple[str, list[str]]:
    """(distribution name, dependency names) from a package's pyproject.toml."""
    text = (folder / "pyproject.toml").read_text()
    try:
        import tomllib

        project = tomllib.loads(text)["project"]
        return project["name"], [_name(r) for r in project.get("dependencies", [])]
    except ModuleNotFoundError:  # Python 3.10: the [project] table's two simple keys
        section = text.split("[project]", 1)[1].split("\n[", 1)[0]
        name = re.search(r'^name\s*=\s*"([^"]+)"', section, re.M).group(1)
        deps = re.search(r"^dependencies\s*=\s*\[(.*?)\]", section, re.M | re.S)
        return name, [_name(r) for r in re.findall(r'"([^"]+)"', deps.group(1) if deps else "")]


def _name(requirement: str) -> str:
    return re.match(r"\s*([A-Za-z0-9._-]+)", requirement).group(1).lower().replace("_", "-")


def package_table() -> dict[str, tuple[pathlib.Path, list[str]]]:
    """Distribution name -> (its folder, the sibling distributions it depends on)."""
    found = {}
    for pyproject in sorted(PACKAGES.glob("*/pyproject.toml")):
        name, deps = _project(pyproject.parent)
        found[name] = (pyproject.parent, deps)
    return {name: (path, [d for d in deps if d in found]) for name, (path, deps) in found.items()}


def resolve(requested: list[str], table) -> list[str]:
    """The distributions to install, dependencies first. Accepts distribution names
    (torch-nn), folder names (nn, tensor-core), ``core`` and ``all``."""
    aliases = {"core": "torch-core"}
    for name, (folder, _) in table.items():
        aliases[folder.name] = name
        aliases[name] = name
    wanted = list(table) if "all" in requested else []
    for item in requested:
        if item == "all":
            continue
        key = item.lower().replace("_", "-")
        if key not in aliases:
            known = ", ".join(sorted(table))
            raise SystemExit(f"install.py: unknown package {item!r} (known: {known}, or all)")
        wanted.append(aliases[key])
    order: list[str] = []

    def visit(name: str) -> None:
        for dep in table[name][1]:
            visit(dep)
        if name not in order:
            order.append(name)

    for name in wanted:
        visit(name)
    return order


def source_hash(folder: pathlib.Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in rel.parts):
            continue
        if path.is_file() and not path.name.endswith(SKIP_SUFFIXES):
            digest.update(str(rel).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _has_pip(python: str) -> bool:
    probe = [python, "-m", "pip", "--version"]
    return subprocess.run(probe, capture_output=True).returncode == 0


def _run(command: list[str], dry_run: bool) -> None:
    print("+", " ".join(command), flush=True)
    if not dry_run:
        subprocess.run(command, check=True)


def build(name: str, folder: pathlib.Path, use_pip: bool, dry_run: bool) -> pathlib.Path:
    """The wheel of ``folder``, built once per source hash."""
    out = WHEELHOUSE / f"{folder.name}-{source_hash(folder)}"
    wheels = sorted(out.glob("*.whl"))
    if wheels:
        print(f"{name}: reusing {wheels[0].relative_to(ROOT)}", flush=True)
        return wheels[0]
    print(f"{name}: building a wheel from {folder.relative_to(ROOT)}", flush=True)
    tmp = out.with_name(out.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    if use_pip:
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp), str(folder)]
    else:
        command = ["uv", "build", "--wheel", "--out-dir", str(tmp), str(folder)]
    _run(command, dry_run)
    if dry_run:
        return out / f"{name}.whl"
    (wheel,) = tmp.glob("*.whl")
    for stray in tmp.iterdir():  # uv build may leave a .gitignore next to the wheel
        if stray != wheel:
            stray.unlink()
    tmp.rename(out)
    return out / wheel.name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="+", help="torch-nn, nn, core, ..., or all")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    parser.epilog = "Arguments after -- go to the install command (e.g. -- --force-reinstall)."
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    args.pip_args = argv[cut + 1 :]
    table = package_table()
    order = resolve(args.packages, table)
    use_pip = _has_pip(sys.executable)
    if not use_pip and shutil.which("uv") is None:
        raise SystemExit(f"install.py: {sys.executable} has no pip, and uv is not on PATH")
    if sys.prefix == sys.base_prefix and not os.environ.get("VIRTUAL_ENV"):
        print(f"note: installing into {sys.prefix}, which is not a venv", flush=True)
    wheels = [str(build(name, table[name][0], use_pip, args.dry_run)) for name in order]
    if use_pip:
        install = [sys.executable, "-m", "pip", "install", *wheels]
    else:
        install = ["uv", "pip", "install", "--python", sys.executable, *wheels]
    _run(install + list(args.pip_args), args.dry_run)
    if not args.dry_run:
        print("installed:", ", ".join(order), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
