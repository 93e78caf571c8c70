"""Every ``Examples::`` block of torch.autograd runs as a doctest."""

import pytest

from torch.testing._doctest import check_docstring_examples, module_names


@pytest.mark.parametrize("name", module_names("torch.autograd"))
def test_docstring_examples(name):
    check_docstring_examples(name)
