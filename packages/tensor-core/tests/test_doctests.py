"""Every ``Examples::`` block of torch-core's modules runs as a doctest, with ``torch`` in
scope and the generator seeded with 0 before each docstring's examples."""

import sys
import types

import pytest

import torch
from torch._siblings import SIBLINGS
from torch.testing._doctest import check_docstring_examples, module_names


@pytest.mark.parametrize("name", module_names("torch", exclude=SIBLINGS))
def test_docstring_examples(name):
    check_docstring_examples(name, namespace={"torch": torch}, seed=0)


PROBE_SOURCE = '''
def draw():
    """
    >>> twice(torch.rand(2))
    tensor([0.9925, 1.5364])
    """


def draw_again():
    """The generator is seeded afresh for each docstring.

    >>> twice(torch.rand(2))
    tensor([0.9925, 1.5364])
    """


def twice(x):
    return 2 * x
'''


@pytest.fixture
def probe_module():
    """A module whose examples need ``torch`` from the namespace and ``twice`` from its
    own globals, and whose outputs are seed 0's draws."""
    module = types.ModuleType("_doctest_probe")
    exec(compile(PROBE_SOURCE, "_doctest_probe.py", "exec"), vars(module))
    sys.modules[module.__name__] = module
    yield module.__name__
    del sys.modules[module.__name__]


def test_seeded_examples_see_the_namespace_and_a_fresh_seed(probe_module):
    torch.manual_seed(5)
    expected_next = torch.rand(3)
    torch.manual_seed(5)
    check_docstring_examples(probe_module, namespace={"torch": torch}, seed=0)
    assert torch.equal(torch.rand(3), expected_next)  # the caller's generator state is kept


def test_a_failing_example_reports_doctests_output(probe_module):
    with pytest.raises(
        AssertionError, match=r"(?s)2 of 2 docstring examples failed.*Got:\n    tensor\(\[1.5153"
    ):
        check_docstring_examples(probe_module, namespace={"torch": torch}, seed=1)
    with pytest.raises(AssertionError, match="NameError: name 'torch' is not defined"):
        check_docstring_examples(probe_module)
