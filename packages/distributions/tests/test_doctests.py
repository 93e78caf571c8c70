"""Every ``Examples::`` block of torch.distributions runs as a doctest.

The examples are written the way PyTorch's own are: ``torch`` and every public name of
torch.distributions (its classes, functions and submodules such as ``constraints``) are
in scope without an import, and the generator is seeded with 0 before each docstring's
examples, so a recorded sample is PyTorch's draw for seed 0.
"""

import inspect

import pytest

import torch
import torch.distributions
from torch.testing._doctest import check_docstring_examples, module_names

SEEDED_RUNNER = "seed" in inspect.signature(check_docstring_examples).parameters
PUBLIC = {k: v for k, v in vars(torch.distributions).items() if not k.startswith("_")}


@pytest.mark.skipif(not SEEDED_RUNNER, reason="needs torch-core >= 0.6.1 for seeded doctests")
@pytest.mark.parametrize("name", module_names("torch.distributions"))
def test_docstring_examples(name):
    check_docstring_examples(name, namespace={"torch": torch, **PUBLIC}, seed=0)
