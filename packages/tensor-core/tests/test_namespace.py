"""The torch namespace: extend_path, lazy siblings and their install hints."""

import importlib
import subprocess
import sys

import pytest

import torch
from torch import _siblings


def test_namespace_roots_extend_their_path():
    import torch.utils

    assert isinstance(torch.__path__, list) and torch.__path__
    assert isinstance(torch.utils.__path__, list) and torch.utils.__path__


def test_import_torch_imports_no_optional_package():
    code = (
        "import sys, torch; optional = ['torch.' + m for m in "
        "('autograd', 'nn', 'optim', 'multiprocessing', 'legacy', 'utils.data', 'cuda', "
        "'testing')]; print([m for m in optional if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("module,dist", sorted(_siblings.SIBLINGS.items()))
def test_missing_sibling_names_its_distribution(module, dist):
    finder = _siblings.MissingSiblingFinder()
    with pytest.raises(ModuleNotFoundError, match=f"pip install {dist}") as info:
        finder.find_spec(module)
    assert info.value.name == module


def test_finder_ignores_modules_it_does_not_own():
    finder = _siblings.MissingSiblingFinder()
    assert finder.find_spec("torch.something_else") is None
    assert finder.find_spec("numpy") is None


def test_finder_is_last_on_meta_path():
    assert isinstance(sys.meta_path[-1], _siblings.MissingSiblingFinder)


@pytest.mark.parametrize("name", ["autograd", "nn", "optim", "multiprocessing", "legacy"])
def test_sibling_attribute_is_import_or_clear_error(name):
    try:
        importlib.import_module(f"torch.{name}")
    except ModuleNotFoundError as error:
        assert "pip install torch-" in str(error)
        with pytest.raises(ModuleNotFoundError, match="pip install torch-"):
            getattr(torch, name)
    else:
        assert getattr(torch, name) is sys.modules[f"torch.{name}"]


def test_unknown_attribute_raises_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'not_a_thing'"):
        torch.not_a_thing  # noqa: B018


def test_core_submodules_are_lazy_attributes():
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    with pytest.raises(AssertionError, match="not compiled with CUDA"):  # as PyTorch's CPU build
        torch.cuda.current_device()


def test_version():
    from torch.version import __version__, core_version, pytorch_version

    assert torch.__version__ is __version__
    assert torch.__version__ == f"{pytorch_version}+core.{core_version}"


@pytest.mark.parametrize(
    "other,relation",
    [
        ("1.1.0", ">"),
        ((2, 0), ">"),
        ((2, 13), ">"),  # its local label sorts after the bare release, as in PEP 440
        ("2.13.0", ">"),
        ("2.13.0rc1", ">"),
        ("2.13.0.post1", "<"),
        ("2.14.0.dev20260101", "<"),
        ("2.13.0+core.0.5.0", "=="),
        ("10.0", "<"),
    ],
)
def test_version_compares_as_a_version(other, relation):
    from torch.torch_version import TorchVersion

    version = TorchVersion("2.13.0+core.0.5.0")
    assert (version > other, version == other, version < other) == (
        relation == ">",
        relation == "==",
        relation == "<",
    )
    assert TorchVersion("2.13") == "2.13.0"
    assert TorchVersion("2.13.0.dev0") < "2.13.0a1" < TorchVersion("2.13.0")
    assert TorchVersion("not a version") == "not a version"
    with pytest.raises(ValueError, match="Invalid version"):
        version < "not a version"  # noqa: B015
