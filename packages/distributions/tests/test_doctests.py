"""Every ``Examples::`` block of torch.distributions runs as a doctest."""

import pytest

from torch.testing._doctest import check_docstring_examples, module_names


@pytest.mark.parametrize("name", module_names("torch.distributions"))
def test_docstring_examples(name):
    check_docstring_examples(name)
