"""Every ``Examples::`` block of torch.multiprocessing runs as a doctest, with ``torch``
and ``mp`` (torch.multiprocessing) in scope without an import and the generator seeded
with 0 before each docstring's examples."""

import inspect

import pytest

import torch
import torch.multiprocessing as mp
from torch.testing._doctest import check_docstring_examples, module_names

SEEDED_RUNNER = "seed" in inspect.signature(check_docstring_examples).parameters


@pytest.mark.skipif(not SEEDED_RUNNER, reason="needs torch-core >= 0.6.1 for seeded doctests")
@pytest.mark.parametrize("name", module_names("torch.multiprocessing"))
def test_docstring_examples(name):
    check_docstring_examples(name, namespace={"torch": torch, "mp": mp}, seed=0)
