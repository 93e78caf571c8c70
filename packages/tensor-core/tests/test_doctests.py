"""Every ``Examples::`` block of this package's modules runs as a doctest."""

import doctest
import importlib
import pathlib

import pytest

import torch

SRC = pathlib.Path(torch.__file__).parent
MODULES = sorted(
    "torch." + ".".join(p.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
    for p in SRC.rglob("*.py")
    if p.parent == SRC or (p.parent / "__init__.py").exists()
)
MODULES = [m.removesuffix(".__init__") if m != "torch.__init__" else "torch" for m in MODULES]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0
