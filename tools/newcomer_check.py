"""What a newcomer does with a fresh clone, from nothing, checked end to end.

    python3 tools/newcomer_check.py            # release check: the README's commands in full
    python3 tools/newcomer_check.py --quick    # one package's tests instead of all of CI

In a temporary folder it clones the repository (its committed HEAD) and then:

1. runs the README's set-up line and its two commands (``nox -s demo`` in full; the test
   command in full, or with --quick one package's tests, ``nox -s tests-optim``);
2. the three user scenarios, each in a fresh venv holding only the packages it needs,
   installed with the documented command (``python tools/install.py ...``): torch-core
   alone for array math, torch-autograd for gradients without nn, and an application
   that pins torch-nn;
3. the newest core with an older released torch-nn, built from ``git archive`` of the
   commit releases.toml records for it, and that release's own tests.

The full form takes as long as CI (the README's test command is the whole CI), so it is a
release check (``nox -s newcomer``); --quick is for trying it out. Exits non-zero on the
first failure, after printing the step and its output.
"""

from __future__ import annotations

import argparse
import io
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

CORE_ALONE = """
import warnings
warnings.filterwarnings("error", message=".* requires torch-")  # a sibling-version mix
import torch
from importlib import metadata
x = torch.arange(12.0).reshape(3, 4)
assert torch.allclose((x @ x.T).diagonal(), (x * x).sum(1))
assert sorted(d.metadata["Name"] for d in metadata.distributions()
              if d.metadata["Name"].startswith("torch-")) == ["torch-core"]
try:
    import torch.autograd
except ModuleNotFoundError as error:
    assert "pip install torch-autograd" in str(error), error
    assert "tools/install.py torch-autograd" in str(error), error
else:
    raise AssertionError("torch.autograd imported without torch-autograd")
print("core alone: array math works, torch.autograd names its wheel")
"""

GRADIENTS = """
import warnings
warnings.filterwarnings("error", message=".* requires torch-")
import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
loss = ((torch.tensor([[1.0, 2.0], [3.0, 4.0]]) @ w - 1) ** 2).sum()
loss.backward()
assert w.grad.tolist() == [-44.0, -64.0], w.grad  # 2 A^T (A w - 1)
try:
    import torch.nn
except ModuleNotFoundError as error:
    assert "pip install torch-nn" in str(error), error
else:
    raise AssertionError("torch.nn imported without torch-nn")
print("core + autograd: gradients work, torch.nn names its wheel")
"""

APPLICATION = """
import sys, warnings
warnings.filterwarnings("error", message=".* requires torch-")
from importlib import metadata
import torch
from torch import nn
pin = sys.argv[1]
assert metadata.version("torch-nn") == pin, (metadata.version("torch-nn"), pin)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
x, y = torch.randn(64, 4), torch.randn(64, 1)
first = None
for _ in range(50):
    model.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.05 * p.grad
    first = first if first is not None else loss.item()
assert loss.item() < first, (first, loss.item())
print(f"application pinning torch-nn=={pin}: trains, loss {first:.3f} -> {loss.item():.3f}")
"""


class Step:
    """Runs commands, timing each, and stops the check at the first failure."""

    def __init__(self) -> None:
        self.times: list[tuple[str, float]] = []

    def run(self, title: str, command, cwd: pathlib.Path, timeout: float = 3600, **kw):
        print(f"\n=== {title}\n$ {command if isinstance(command, str) else ' '.join(command)}")
        sys.stdout.flush()
        start = time.monotonic()
        result = subprocess.run(
            command,
            cwd=cwd,
            shell=isinstance(command, str),
            executable="/bin/bash" if isinstance(command, str) else None,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
            **kw,
        )
        elapsed = time.monotonic() - start
        self.times.append((title, elapsed))
        tail = "\n".join(result.stdout.splitlines()[-15:])
        print(textwrap.indent(tail, "  | "))
        if result.returncode != 0:
            # what failed, wherever it is in a long output, then the end of the output
            failures = [
                line
                for line in result.stdout.splitlines()
                if line.startswith(("FAILED ", "ERROR ", "E   ", "nox > Session"))
            ]
            print(f"FAILED ({elapsed:.0f} s): {title}\n" + "\n".join(failures[-200:]))
            print(result.stdout[-20000:])
            raise SystemExit(1)
        print(f"ok ({elapsed:.0f} s)")
        return result.stdout


def readme_commands(readme: str) -> tuple[str, str, str]:
    """(set-up line, main job, test command) as the README shows them: the indented
    command lines of its "On a fresh machine" section."""
    section = readme.split("## On a fresh machine", 1)[1].split("\n## ", 1)[0]
    lines = [line.strip() for line in section.splitlines() if line.startswith("    ")]
    lines = [line.split("  #", 1)[0].strip() for line in lines if line.strip()]
    demo = next(line for line in lines if "nox -s demo" in line)
    tests = next(line for line in lines if "nox -t ci" in line)
    setup = [line for line in lines if line not in (demo, tests)]
    return " && ".join(setup), demo, tests


def fresh_venv(step: Step, where: pathlib.Path, name: str) -> pathlib.Path:
    venv = where / name
    step.run(f"{name}: fresh venv", [sys.executable, "-m", "venv", str(venv)], where)
    return venv / "bin" / "python"


def releases(clone: pathlib.Path) -> dict[str, dict[str, str]]:
    """releases.toml: distribution -> {version: commit} (read by hand on Python 3.10)."""
    table: dict[str, dict[str, str]] = {}
    current = None
    for line in (clone / "releases.toml").read_text().splitlines():
        header = re.match(r'\s*\["([^"]+)"\]', line)
        entry = re.match(r'\s*"([^"]+)"\s*=\s*"([0-9a-f]+)"', line)
        if header:
            current = table.setdefault(header.group(1), {})
        elif entry and current is not None:
            current[entry.group(1)] = entry.group(2)
    return table


def release_commit(clone: pathlib.Path, dist: str, version: str) -> str:
    return releases(clone)[dist][version]


def head_version(clone: pathlib.Path, version_file: str) -> str:
    text = (clone / version_file).read_text()
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


def older_release(clone: pathlib.Path, dist: str) -> str:
    """The newest release of torch-nn older than the version at HEAD."""
    released = releases(clone)[dist]
    head = head_version(clone, "packages/nn/src/torch/nn/_version.py")

    def key(v: str) -> tuple[int, ...]:
        return tuple(int(p) for p in v.split("."))

    older = [v for v in released if key(v) < key(head)]
    return max(older, key=key)


def export(clone: pathlib.Path, commit: str, target: pathlib.Path) -> pathlib.Path:
    archive = subprocess.run(
        ["git", "-C", str(clone), "archive", "--format=tar", commit],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    return target


def readme(step: Step, clone: pathlib.Path, quick: bool) -> None:
    """The README's set-up line and two commands, as a newcomer types them."""
    setup, demo, tests = readme_commands((clone / "README.md").read_text())
    if quick:
        tests = tests.replace("nox -t ci", "nox -s tests-optim")
    step.run("README set-up", setup, clone, timeout=900)
    activate = ". .venv-nox/bin/activate && " if ".venv-nox" in setup else ""
    out = step.run("README: the main job", activate + demo, clone)
    plot = re.search(r"curve: (\S+\.png)", out)
    if plot is None or not pathlib.Path(plot.group(1)).is_file():
        print(f"FAILED: the demo printed no loss-curve PNG that exists ({plot})")
        raise SystemExit(1)
    print(f"  loss curve written to {plot.group(1)}")
    step.run("README: the tests" + (" (--quick)" if quick else ""), activate + tests, clone)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one package's tests, not all CI")
    parser.add_argument("--source", default=str(ROOT), help="what to clone (default: this repo)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument(
        "--scenarios-only", action="store_true", help="skip the README's commands (not a pass)"
    )
    args = parser.parse_args()
    step = Step()
    work = pathlib.Path(tempfile.mkdtemp(prefix="newcomer-"))
    # from nothing: nox's wheel cache starts empty too (the clone's own runs share it)
    os.environ["TORCH_WHEEL_CACHE"] = str(work / "wheel-cache")
    start = time.monotonic()
    try:
        clone = work / "repo"
        step.run("clone", ["git", "clone", "--quiet", args.source, str(clone)], work)
        if not args.scenarios_only:
            readme(step, clone, args.quick)
        install = [str(clone / "tools" / "install.py")]
        python = fresh_venv(step, work, "core-alone")
        step.run("core-alone: install", [str(python), *install, "torch-core"], clone)
        step.run("core-alone: array math", [str(python), "-c", CORE_ALONE], work)

        python = fresh_venv(step, work, "gradients")
        step.run("gradients: install", [str(python), *install, "torch-autograd"], clone)
        step.run("gradients: backward without nn", [str(python), "-c", GRADIENTS], work)

        python = fresh_venv(step, work, "application")
        head_nn = head_version(clone, "packages/nn/src/torch/nn/_version.py")
        pinned = [str(python), *install, "torch-nn", "--", f"torch-nn=={head_nn}"]
        step.run(f"application: install, pinning torch-nn=={head_nn}", pinned, clone)
        step.run("application: trains", [str(python), "-c", APPLICATION, head_nn], work)

        pin = older_release(clone, "torch-nn")
        commit = release_commit(clone, "torch-nn", pin)
        old = export(clone, commit, work / f"torch-nn-{pin}")
        python = fresh_venv(step, work, "old-nn")
        step.run("old-nn: newest core and autograd", [str(python), *install, "autograd"], clone)
        wheels = work / "old-nn-wheel"
        step.run(
            f"old-nn: build torch-nn {pin} from {commit[:12]}",
            [str(python), "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), "packages/nn"],
            old,
        )
        (wheel,) = wheels.glob("*.whl")
        step.run(
            f"old-nn: install torch-nn {pin} beside the newest core",
            [str(python), "-m", "pip", "install", str(wheel), "pytest>=7", "hypothesis>=6"],
            work,
        )
        step.run(
            f"old-nn: torch-nn {pin}'s own tests",
            [
                str(python),
                "-m",
                "pytest",
                "-q",
                "-x",
                "-p",
                "no:cacheprovider",
                "packages/nn/tests",
            ],
            old,
        )
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("\nnewcomer check passed in %.0f s:" % (time.monotonic() - start))
    for title, seconds in step.times:
        print(f"  {seconds:7.0f} s  {title}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
