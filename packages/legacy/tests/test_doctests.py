"""Every ``Examples::`` block of torch.legacy and torch.utils.serialization runs as a
doctest, with ``torch``, ``nn`` (torch.legacy.nn) and ``optim`` (torch.legacy.optim) in
scope without an import and the generator seeded with 0 before each docstring's examples."""

import inspect

import pytest

import torch
from torch.legacy import nn, optim
from torch.testing._doctest import check_docstring_examples, module_names

SEEDED_RUNNER = "seed" in inspect.signature(check_docstring_examples).parameters
NAMESPACE = {"torch": torch, "nn": nn, "optim": optim}


@pytest.mark.skipif(not SEEDED_RUNNER, reason="needs torch-core >= 0.6.1 for seeded doctests")
@pytest.mark.parametrize(
    "name", module_names("torch.legacy") + module_names("torch.utils.serialization")
)
def test_docstring_examples(name):
    check_docstring_examples(name, namespace=NAMESPACE, seed=0)
