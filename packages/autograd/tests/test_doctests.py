"""Every ``Examples::`` block of torch.autograd and torch.func runs as a doctest (those
that build a torch.nn module where torch-nn is installed)."""

import pytest
from conftest import has_nn

from torch.testing._doctest import check_docstring_examples, module_names

_NEEDS_NN = {"torch.func._functional_call"}


def _params():
    skip = pytest.mark.skipif(not has_nn(), reason="needs torch-nn")
    names = module_names("torch.autograd") + module_names("torch.func")
    return [pytest.param(n, marks=[skip] if n in _NEEDS_NN else []) for n in names]


@pytest.mark.parametrize("name", _params())
def test_docstring_examples(name):
    check_docstring_examples(name)
