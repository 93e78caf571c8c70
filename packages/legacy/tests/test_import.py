import importlib

import pytest


@pytest.mark.parametrize("name", ["torch.legacy", "torch.legacy.nn", "torch.legacy.optim"])
def test_subpackages_import(name):
    assert importlib.import_module(name).__all__ is not None
