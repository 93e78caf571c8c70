"""Workspace-level checks: every package of the monorepo installed together (editable
installs, where each package's src/ is its own path entry) imports every subpackage."""

import importlib
import pathlib
import pkgutil
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SUBPACKAGES = sorted(
    ".".join(p.parent.relative_to(src).parts)
    for src in ROOT.glob("packages/*/src")
    for p in src.rglob("__init__.py")
)


def test_every_package_contributes_subpackages():
    assert (
        "torch" in SUBPACKAGES and "torch.nn" in SUBPACKAGES and "torch.utils.data" in SUBPACKAGES
    )


# modules that, as in PyTorch, raise ModuleNotFoundError without a third-party package
OPTIONAL_THIRD_PARTY = {"torch.utils.tensorboard": "tensorboard"}


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_subpackage_imports(name):
    if name in OPTIONAL_THIRD_PARTY:
        pytest.importorskip(OPTIONAL_THIRD_PARTY[name])
    module = importlib.import_module(name)
    # it must come from this work tree (editable), from the package folder that owns it
    assert str(ROOT / "packages") in str(pathlib.Path(module.__file__).resolve())


def test_namespace_spans_every_src_dir():
    import torch
    import torch.utils

    srcs = {str(p / "torch") for p in ROOT.glob("packages/*/src") if (p / "torch").is_dir()}
    assert srcs <= {str(pathlib.Path(p).resolve()) for p in torch.__path__}
    assert any("utils-data" in p for p in torch.utils.__path__)


def test_every_module_imports():
    import torch

    names = [
        m.name
        for m in pkgutil.walk_packages(torch.__path__, "torch.")
        if "._" not in m.name or m.name.endswith("_version")
    ]
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:
            # a module whose optional third-party package (an extra) is not installed
            if OPTIONAL_THIRD_PARTY.get(name) != error.name:
                raise
    assert "torch.nn.parameter" in sys.modules
