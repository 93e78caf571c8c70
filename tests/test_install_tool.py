"""tools/install.py: which packages a request installs, and when a wheel is rebuilt."""

import importlib.util
import pathlib
import sys

import pytest

DATA = "torch-utils-data"
ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("install_tool", ROOT / "tools" / "install.py")
install = importlib.util.module_from_spec(spec)
spec.loader.exec_module(install)


@pytest.fixture(scope="module")
def table():
    return install.package_table()


@pytest.mark.parametrize(
    "request_,expected",
    [
        (["torch-nn"], ["torch-core", "torch-autograd", "torch-nn"]),
        (["nn"], ["torch-core", "torch-autograd", "torch-nn"]),
        (["core"], ["torch-core"]),
        (["tensor-core", "utils_data"], ["torch-core", "torch-multiprocessing", DATA]),
        (["optim", "legacy"], ["torch-core", "torch-optim", "torch-legacy"]),
    ],
)
def test_resolve_brings_siblings_dependencies_first(table, request_, expected):
    assert install.resolve(request_, table) == expected


def test_all_is_every_package(table):
    assert sorted(install.resolve(["all"], table)) == sorted(table)
    assert len(table) == len(list((ROOT / "packages").glob("*/pyproject.toml")))


def test_unknown_package_names_the_known_ones(table):
    with pytest.raises(SystemExit, match="unknown package 'torch-vision'.*torch-nn"):
        install.resolve(["torch-vision"], table)


def test_python310_reader_agrees_with_tomllib(table, monkeypatch):
    monkeypatch.setitem(sys.modules, "tomllib", None)  # import tomllib now fails
    for name, (folder, siblings) in table.items():
        read_name, deps = install._project(folder)
        assert read_name == name
        assert [d for d in deps if d in table] == siblings


def test_source_hash_follows_sources_not_caches(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x = 1\n")
    first = install.source_hash(tmp_path)
    (tmp_path / "src" / "__pycache__").mkdir()
    (tmp_path / "src" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "junk.o").write_bytes(b"\0")
    assert install.source_hash(tmp_path) == first
    (tmp_path / "src" / "a.py").write_text("x = 2\n")
    assert install.source_hash(tmp_path) != first


def test_dry_run_prints_build_and_install_commands(capsys):
    assert install.main(["--dry-run", "torch-autograd", "--", "--force-reinstall"]) == 0
    out = capsys.readouterr().out
    assert "torch-core: " in out and "torch-autograd: " in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("+ ") and "install" in last and last.endswith("--force-reinstall")
    assert "torch-nn" not in out
