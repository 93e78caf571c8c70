"""Every ``Examples::`` block of torch.legacy and torch.utils.serialization runs as a
doctest."""

import pytest

from torch.testing._doctest import check_docstring_examples, module_names


@pytest.mark.parametrize(
    "name", module_names("torch.legacy") + module_names("torch.utils.serialization")
)
def test_docstring_examples(name):
    check_docstring_examples(name)
