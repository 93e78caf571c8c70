import importlib

import pytest

import torch


@pytest.mark.parametrize(
    "name", ["torch.legacy", "torch.legacy.nn", "torch.legacy.optim", "torch.utils.serialization"]
)
def test_subpackages_import(name):
    assert importlib.import_module(name).__all__


def test_legacy_imports_neither_autograd_nor_nn():
    import subprocess
    import sys

    code = (
        "import sys, torch.legacy.nn, torch.legacy.optim, torch.utils.serialization; "
        "print([m for m in ('torch.autograd', 'torch.nn', 'torch.optim') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_version():
    assert torch.legacy.__version__
