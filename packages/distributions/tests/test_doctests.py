"""Every ``Examples::`` block of torch.distributions runs as a doctest.

The examples are written the way PyTorch's own are: ``torch`` and every public name of
torch.distributions (its classes, functions and submodules such as ``constraints``) are
in scope without an import, and the generator is seeded with 0 before each docstring's
examples, so a recorded sample is PyTorch's draw for seed 0.
"""

import doctest
import importlib
import io

import pytest

import torch
import torch.distributions
from torch.testing._doctest import module_names

OPTIONS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
EXAMPLE_SEED = 0


def example_namespace(module):
    """What an example sees: ``torch``, the public names of torch.distributions, and
    (taking precedence) the globals of the module it is written in."""
    names = {"torch": torch}
    names.update(
        (name, value)
        for name, value in vars(torch.distributions).items()
        if not name.startswith("_")
    )
    names.update(vars(module))
    return names


def run_seeded_examples(module_name):
    """Run each docstring's examples of ``module_name`` from a freshly seeded generator;
    return (failed, attempted, the failure report)."""
    module = importlib.import_module(module_name)
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    for test in doctest.DocTestFinder().find(module, globs=example_namespace(module)):
        torch.manual_seed(EXAMPLE_SEED)
        runner.run(test, out=report.write)
    return runner.failures, runner.tries, report.getvalue()


@pytest.mark.parametrize("name", module_names("torch.distributions"))
def test_docstring_examples(name):
    failed, attempted, report = run_seeded_examples(name)
    assert not failed, f"{failed} of {attempted} docstring examples failed in {name}:\n{report}"
