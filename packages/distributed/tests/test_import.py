import importlib

import pytest

from torch.testing._doctest import check_docstring_examples, module_names


@pytest.mark.parametrize(
    "name",
    [
        "torch.distributed",
        "torch.distributed.run",
        "torch.distributed.algorithms.ddp_comm_hooks.default_hooks",
    ],
)
def test_public_modules_import(name):
    assert importlib.import_module(name).__all__


@pytest.mark.parametrize("name", module_names("torch.distributed"))
def test_docstring_examples(name):
    check_docstring_examples(name)
