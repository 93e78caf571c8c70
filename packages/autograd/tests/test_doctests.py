"""Every ``Examples::`` block of torch.autograd and torch.func runs as a doctest (those
that build a torch.nn module where torch-nn is installed), with ``torch`` in scope without
an import and the generator seeded with 0 before each docstring's examples."""

import inspect

import pytest
from conftest import has_nn

import torch
from torch.testing._doctest import check_docstring_examples, module_names

_NEEDS_NN = {"torch.func._functional_call"}
SEEDED_RUNNER = "seed" in inspect.signature(check_docstring_examples).parameters


def _params():
    skip = pytest.mark.skipif(not has_nn(), reason="needs torch-nn")
    names = module_names("torch.autograd") + module_names("torch.func")
    return [pytest.param(n, marks=[skip] if n in _NEEDS_NN else []) for n in names]


@pytest.mark.skipif(not SEEDED_RUNNER, reason="needs torch-core >= 0.6.1 for seeded doctests")
@pytest.mark.parametrize("name", _params())
def test_docstring_examples(name):
    check_docstring_examples(name, namespace={"torch": torch}, seed=0)
