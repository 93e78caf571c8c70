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
