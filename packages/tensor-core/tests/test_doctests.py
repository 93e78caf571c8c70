"""Every ``Examples::`` block of torch-core's modules runs as a doctest."""

import pytest

from torch._siblings import SIBLINGS
from torch.testing._doctest import check_docstring_examples, module_names


@pytest.mark.parametrize("name", module_names("torch", exclude=SIBLINGS))
def test_docstring_examples(name):
    check_docstring_examples(name)
