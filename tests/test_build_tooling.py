"""The build tooling's own checks: the wheel cache key of the noxfile (an edit must give a
new key, or a session would run stale code) and the tag rules of tools/check_wheels.py."""

import importlib.util
import pathlib
import shutil
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _load(name: str, path: pathlib.Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


check_wheels = _load("check_wheels_under_test", ROOT / "tools" / "check_wheels.py")


@pytest.mark.parametrize(
    ("name", "files", "ok"),
    [
        ("torch_nn-0.3.2-py3-none-any.whl", ["torch/nn/__init__.py"], True),
        ("torch_nn-0.3.2-py311-none-any.whl", ["torch/nn/__init__.py"], False),
        ("torch_core-0.4.3-cp311-cp311-linux_x86_64.whl", ["torch/_C.cpython-311.so"], False),
        ("torch_core-0.4.3-cp311-cp311-manylinux_2_35_x86_64.whl", ["torch/_C.so"], True),
        (
            "torch_core-0.4.3-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
            ["torch/_C.so"],
            True,
        ),
        ("torch_core-0.4.3-cp311-cp311-manylinux2014_x86_64.whl", ["torch/_C.so"], False),
        ("torch_core-0.4.3-py3-none-any.whl", ["torch/_C.cpython-311.so"], False),
    ],
)
def test_wheel_tags(name, files, ok):
    assert (check_wheels.tag_problems(name, files) == []) is ok


@pytest.fixture(scope="module")
def noxfile_module():
    pytest.importorskip("nox")  # the noxfile needs nox (not in the dev venv)
    # loaded once: nox warns (and will refuse) when its sessions are registered twice
    return _load("noxfile_under_test", ROOT / "noxfile.py")


@pytest.fixture
def noxfile(noxfile_module, tmp_path, monkeypatch):
    module = noxfile_module
    shutil.copytree(ROOT / "packages" / "legacy", tmp_path / "packages" / "legacy")
    monkeypatch.setattr(module, "ROOT", tmp_path)
    return module


def test_cache_key_follows_every_packaged_file(noxfile, tmp_path):
    package = tmp_path / "packages" / "legacy"
    source = package / "src" / "torch" / "legacy" / "__init__.py"
    before = noxfile.tree_digest("legacy")
    (package / "tests" / "test_extra.py").write_text("x = 1\n")
    (source.parent / "__pycache__").mkdir(exist_ok=True)
    (source.parent / "__pycache__" / "extra.pyc").write_bytes(b"\0")
    assert noxfile.tree_digest("legacy") == before  # tests and bytecode are never shipped
    source.write_text(source.read_text() + "\n# an uncommitted edit\n")
    edited = noxfile.tree_digest("legacy")
    assert edited != before
    (source.parent / "untracked.py").write_text("")
    assert noxfile.tree_digest("legacy") != edited


def test_cache_key_names_the_kind_of_build(noxfile):
    keys = {noxfile._cache_key("tensor-core", kind, "tree", True) for kind in ("wheel", "dist")}
    assert len(keys) == 2


# ------------------------------------------------------------- layering (tools/layering.py)

layering = _load("layering_under_test", ROOT / "tools" / "layering.py")


def _contract(text: str, name: str) -> dict[str, list[str]]:
    """The options of one contract of an importlinter.ini, values split into lines."""
    import configparser

    config = configparser.ConfigParser()
    config.read_string(text)
    section = config[f"importlinter:contract:{name}"]
    return {key: value.split() for key, value in section.items()}


def test_siblings_may_import_only_the_interface_of_core():
    contract = _contract(layering.render(), "private-core")
    assert contract["type"] == ["forbidden"]
    assert contract["allow_indirect_imports"] == ["True"]  # core's own modules may
    assert set(contract["source_modules"]) == {
        "torch.autograd",
        "torch.distributed",
        "torch.distributions",
        "torch.func",
        "torch.jit",
        "torch.legacy",
        "torch.multiprocessing",
        "torch.nn",
        "torch.onnx",
        "torch.optim",
        "torch.profiler",
        "torch.utils.checkpoint",
        "torch.utils.data",
        "torch.utils.serialization",
        "torch.utils.tensorboard",
        "torch.utils.trainer",
    }
    forbidden = contract["forbidden_modules"]
    for private in ("torch._tensor", "torch._shared_memory", "torch._serialization"):
        assert private in forbidden
    assert "torch.testing._opinfo" in forbidden
    assert not [m for m in forbidden if m.startswith("torch._interface")]
    assert not [m for m in forbidden if not layering.is_private(m)]  # public modules stay open


def test_private_names_beyond_import_linter_are_found():
    import ast

    code = """
import torch
import torch._C
from torch import _tensor, nn
from torch._native import kernels
from torch._interface import sharing
import importlib
native = importlib.import_module("torch._native")
grad_mode = getattr(torch, "_grad_mode")
torch._C.adam_step()
torch._interface.ops
torch.nn.Linear
"""
    found = sorted(set(layering._uses_in(ast.parse(code))))
    assert found == [
        (3, "torch._C"),
        (4, "torch._tensor"),
        (5, "torch._native"),
        (8, "torch._native"),
        (9, "torch._grad_mode"),
        (10, "torch._C"),
    ]


# ------------------------------------------------- extension API against version bounds


def _required_core_api(package: pathlib.Path):
    """``(major, minor)`` of the ``require_core_api`` call in a sibling's sources."""
    import re

    for path in sorted((package / "src").rglob("*.py")):
        found = re.search(r"require_core_api\((\d+), (\d+),", path.read_text())
        if found:
            return int(found.group(1)), int(found.group(2))
    return None


def _core_lower_bound(package: pathlib.Path) -> str | None:
    import re

    import tomllib

    project = tomllib.loads((package / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"]:
        found = re.match(r"torch-core\s*>=\s*([0-9.]+)", requirement)
        if found:
            return found.group(1)
    return None


def _core_api_at(version: str):
    """CORE_API of torch-core's release ``version`` (read at its commit in releases.toml),
    or None where that release is not recorded or the history is not at hand."""
    import re
    import subprocess

    import tomllib

    releases = tomllib.loads((ROOT / "releases.toml").read_text())["torch-core"]
    commit = releases.get(version) or releases.get(version + ".0")  # ">=0.3" is 0.3.0
    if commit is None:
        return None
    base = "packages/tensor-core/src/torch/"
    for path in ("_interface/__init__.py", "_interface.py"):
        shown = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:{base}{path}"],
            capture_output=True,
            text=True,
        )
        found = re.search(r"CORE_API[^=]*= \((\d+), (\d+)\)", shown.stdout)
        if shown.returncode == 0 and found:
            return int(found.group(1)), int(found.group(2))
    return None


SIBLINGS = sorted(p.parent for p in (ROOT / "packages").glob("*/pyproject.toml"))


@pytest.mark.parametrize("package", SIBLINGS, ids=lambda p: p.name)
def test_core_lower_bound_provides_the_api_a_sibling_asks_for(package):
    # a sibling's torch-core lower bound must be a release whose extension API serves
    # its require_core_api call: else the bound admits a core it refuses to run on
    required, bound = _required_core_api(package), _core_lower_bound(package)
    if required is None or bound is None:
        pytest.skip(f"{package.name} does not depend on torch-core's extension API")
    provided = _core_api_at(bound)
    if provided is None:
        pytest.skip(f"torch-core {bound} is not recorded in releases.toml (or no git history)")
    assert provided[0] == required[0] and provided[1] >= required[1], (
        f"{package.name} asks for extension API {required} but admits torch-core {bound}, "
        f"which provides {provided}"
    )
