"""Sessions for the whole monorepo, generated from one table of packages.

    nox -t ci                      # everything CI runs (the README's test command)
    nox -s "tests(nn)"             # one package's tests against HEAD siblings
    nox -s demo                    # the main job
    nox -s bench                   # side by side with real PyTorch

Every session installs built wheels (never the working tree) into its own fresh venv.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
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
nox.options.reuse_existing_virtualenvs = False
nox.options.sessions = ["tests", "lint"]


# ----------------------------------------------------------------------- package metadata


def _pyproject(folder: str, root: pathlib.Path = ROOT) -> dict:
    return tomllib.loads((root / "packages" / folder / "pyproject.toml").read_text())


def dist_name(folder: str) -> str:
    return _pyproject(folder)["project"]["name"]


FOLDER_OF_DIST = {dist_name(folder): folder for folder in PACKAGES}


def sibling_requirements(folder: str, root: pathlib.Path = ROOT) -> dict[str, str]:
    """Sibling folder -> version specifier, from the package's declared dependencies (in
    the work tree, or in the exported tree of a release)."""
    result = {}
    for requirement in _pyproject(folder, root)["project"]["dependencies"]:
        match = re.match(r"([A-Za-z0-9_.-]+)\s*(.*)", requirement)
        name, spec = match.group(1), match.group(2)
        if name in FOLDER_OF_DIST:
            result[FOLDER_OF_DIST[name]] = spec
    return result


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


# -------------------------------------------------------------------------- wheel builds

_built: dict[tuple[str, str], pathlib.Path] = {}


def build_wheel(
    session: nox.Session, folder: str, source: pathlib.Path = ROOT, label: str = "head"
) -> pathlib.Path:
    """Build one package's wheel from ``source`` (the work tree or an exported release),
    once per nox run."""
    key = (folder, label)
    if key not in _built:
        out = BUILD / label / folder
        shutil.rmtree(out, ignore_errors=True)
        session.run(
            "uv",
            "build",
            "--wheel",
            "--quiet",
            "--out-dir",
            str(out),
            str(source / "packages" / folder),
            external=True,
        )
        (wheel,) = out.glob("*.whl")
        _built[key] = wheel
    return _built[key]


def install_wheels(
    session: nox.Session, folders, label: str = "head", source=ROOT, extra=(), constraints=None
) -> None:
    wheels = [str(build_wheel(session, f, source, label)) for f in folders]
    args = ["-c", str(constraints)] if constraints else []
    session.install(*args, *wheels, *extra)


def run_tests(session: nox.Session, folders) -> None:
    paths = [str(ROOT / "packages" / f / "tests") for f in folders]
    session.run("pytest", "-q", "-n", "2", "-p", "no:cacheprovider", *paths, *session.posargs)


# ------------------------------------------------------------------------------ sessions


@nox.session(tags=["ci"])
@nox.parametrize("package", list(PACKAGES))
def tests(session: nox.Session, package: str) -> None:
    """One package's test suite, with its siblings built from HEAD."""
    extra = TEST_REQUIREMENTS + (MKL if package == "tensor-core" else [])
    install_wheels(session, closure(package), extra=extra)
    run_tests(session, [package])


@nox.session(tags=["ci"])
def editable(session: nox.Session) -> None:
    """Editable installs of every package side by side: every subpackage imports."""
    args = []
    for folder in PACKAGES:
        args += ["-e", str(ROOT / "packages" / folder)]
    session.install(*args, *TEST_REQUIREMENTS)
    session.run(
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        str(ROOT / "tests" / "test_workspace.py"),
        env={"TORCH_WORKSPACE_MODE": "editable"},
    )


MODULAR_SCENARIOS = {
    "core-alone": ["tensor-core"],
    "core-autograd": ["autograd"],
    "core-optim": ["optim"],
    "everything": list(PACKAGES),
}


@nox.session(tags=["ci"])
@nox.parametrize("scenario", list(MODULAR_SCENARIOS))
def modular(session: nox.Session, scenario: str) -> None:
    """Fresh venvs holding only some packages: what is there works, what is missing fails
    with a message naming the distribution to install."""
    folders = []
    for folder in MODULAR_SCENARIOS[scenario]:
        folders += [f for f in closure(folder) if f not in folders]
    install_wheels(session, folders)
    session.run("python", str(ROOT / "tools" / "modular_check.py"), scenario)


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
    """The tree of ``commit`` as files (built the same way a release was)."""
    target = BUILD / "exports" / commit
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "packages"],
            check=True,
            capture_output=True,
        ).stdout
        tmp = pathlib.Path(tempfile.mkdtemp(dir=target.parent))
        with tarfile.open(fileobj=__import__("io").BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        tmp.rename(target)
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


CONTRACT_CASES = (
    [f"{p}-lowest" for p in PACKAGES if sibling_requirements(p)]
    + [f"{p}-head" for p in PACKAGES if sibling_requirements(p)]
    + ["numpy-lowest"]
)


@nox.session(tags=["ci"])
@nox.parametrize("case", CONTRACT_CASES)
def contracts(session: nox.Session, case: str) -> None:
    """A package's tests against the lowest release of each sibling its ranges admit
    (built from the commit in releases.toml) and against HEAD; or every package's tests
    with numpy and ml_dtypes at their lowest admitted versions."""
    if case == "numpy-lowest":
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
        run_tests(session, list(PACKAGES))
        return
    package, bound = case.rsplit("-", 1)
    siblings = [f for f in closure(package) if f != package]
    if bound == "head":
        install_wheels(session, siblings + [package], extra=TEST_REQUIREMENTS)
    else:
        for sibling, (version, commit) in lowest_releases(package).items():
            session.log(f"{dist_name(sibling)} {version} from {commit[:12]}")
            install_wheels(session, [sibling], label=f"release-{commit}", source=_export(commit))
        install_wheels(session, [package], extra=TEST_REQUIREMENTS)
    run_tests(session, [package])


@nox.session(tags=["ci"])
def package(session: nox.Session) -> None:
    """Build every wheel and sdist, check their metadata, and fail if two wheels ship the
    same file."""
    session.install("twine>=5")
    out = BUILD / "dist"
    shutil.rmtree(out, ignore_errors=True)
    for folder in PACKAGES:
        session.run(
            "uv",
            "build",
            "--quiet",
            "--out-dir",
            str(out),
            str(ROOT / "packages" / folder),
            external=True,
        )
    wheels = sorted(out.glob("*.whl"))
    sdists = sorted(out.glob("*.tar.gz"))
    if len(wheels) != len(PACKAGES) or len(sdists) != len(PACKAGES):
        session.error(f"expected {len(PACKAGES)} wheels and sdists, got {wheels + sdists}")
    session.run("twine", "check", "--strict", *map(str, wheels + sdists))
    session.run("python", str(ROOT / "tools" / "check_wheels.py"), *map(str, wheels))


@nox.session(tags=["ci"])
def lint(session: nox.Session) -> None:
    """ruff (lint and format) and the import-linter layering contracts."""
    session.install("ruff>=0.6", "import-linter>=2.1")
    session.run("ruff", "check", str(ROOT))
    session.run("ruff", "format", "--check", str(ROOT))
    install_wheels(session, list(PACKAGES))
    config = BUILD / "importlinter.ini"
    config.parent.mkdir(parents=True, exist_ok=True)
    contracts_ini = session.run("python", str(ROOT / "tools" / "layering.py"), silent=True)
    config.write_text(contracts_ini)
    session.run("lint-imports", "--config", str(config))


@nox.session(tags=["ci"])
def docs(session: nox.Session) -> None:
    """The documentation site, built strictly (any warning fails)."""
    session.install("mkdocs>=1.6", "mkdocs-material>=9.5", "mkdocstrings[python]>=0.26")
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


DEMO_REQUIREMENTS = ["scikit-learn>=1.3", "tqdm>=4.60", "matplotlib>=3.7"]


@nox.session
def demo(session: nox.Session) -> None:
    """The main job: a small CNN trained on scikit-learn's bundled digits (at least 95%
    held-out accuracy), after the array-math/SGD smoke demo."""
    install_wheels(session, list(PACKAGES), extra=DEMO_REQUIREMENTS)
    session.run("python", str(ROOT / "examples" / "demo.py"))
    plot = BUILD / "digits_curve.png"
    plot.parent.mkdir(parents=True, exist_ok=True)
    session.run("python", str(ROOT / "examples" / "digits" / "main.py"), "--plot", str(plot))


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
    """The same public-API code timed under this project and under real PyTorch.

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


# The packages whose tests run on the sanitized torch._C, and how many examples the
# native fuzz test tries per entry point there (15 in the default run).
SANITIZE_PACKAGES = ["tensor-core", "autograd", "nn"]
SANITIZE_FUZZ_EXAMPLES = "400"


@nox.session
def sanitize(session: nox.Session) -> None:
    """torch._C built with AddressSanitizer and UndefinedBehaviorSanitizer (every report
    fatal), then the core, autograd and nn tests and a long run of the native fuzz test.
    Not in CI (about 12 minutes on 2 cores): run before each release (docs/packages/
    tensor-core.md)."""
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
    out = BUILD / "sanitize" / "tensor-core"
    shutil.rmtree(out, ignore_errors=True)
    session.run(
        "uv", "build", "--wheel", "--quiet", "--out-dir", str(out),
        "--config-setting", "cmake.define.TORCH_SANITIZE=ON",
        "--config-setting", "cmake.build-type=RelWithDebInfo",
        str(ROOT / "packages" / "tensor-core"),
        external=True,
    )  # fmt: skip
    (core_wheel,) = out.glob("*.whl")
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
    """torch.load on mutated and truncated checkpoints (saved here and by PyTorch): each
    case in a worker capped at 2 s and 1 GiB must load or raise RuntimeError /
    UnpicklingError. FUZZ_LOAD_CASES sets the count (5,000 by default: ~6 s on 2 cores
    once the wheels are built); the default test run tries a sample of the same cases."""
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
    """Live comparisons with real PyTorch (not part of CI: it needs the reference venv):
    checkpoints written here load there and the other way round."""
    # an existing reference interpreter (e.g. /work/ptref/bin/python) saves making the venv
    given = os.environ.get("TORCH_REFERENCE_PYTHON")
    reference_python = pathlib.Path(given) if given else _reference_python(session)
    if reference_python is None:
        session.skip("no reference PyTorch: the conformance tests need one")
    install_wheels(session, list(PACKAGES), extra=TEST_REQUIREMENTS)
    env = {"TORCH_REFERENCE_PYTHON": str(reference_python)}
    tests = [str(ROOT / path) for path in CONFORMANCE_TESTS]
    session.run("pytest", "-q", "-p", "no:cacheprovider", *tests, *session.posargs, env=env)
