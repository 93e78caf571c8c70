"""Every ``Examples::`` block of torch.nn runs as a doctest, written as PyTorch's are:
``torch``, ``nn`` and ``F`` (torch.nn.functional) in scope without an import, and the
generator seeded with 0 before each docstring's examples."""

import inspect

import pytest

import torch
import torch.nn.functional as F  # noqa: N812 (the name the examples use)
from torch import nn
from torch.testing._doctest import check_docstring_examples, module_names

SEEDED_RUNNER = "seed" in inspect.signature(check_docstring_examples).parameters


@pytest.mark.skipif(not SEEDED_RUNNER, reason="needs torch-core >= 0.6.1 for seeded doctests")
@pytest.mark.parametrize("name", module_names("torch.nn"))
def test_docstring_examples(name):
    check_docstring_examples(name, namespace={"torch": torch, "nn": nn, "F": F}, seed=0)
