"""Every ``Examples::`` block of torch.nn runs as a doctest."""

import doctest
import importlib
import pkgutil

import pytest

import torch.nn as package

MODULES = [package.__name__] + [
    info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    assert (
        doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS).failed
        == 0
    )
