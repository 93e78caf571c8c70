"""Every ``Examples::`` block of torch.jit and torch.onnx runs as a doctest, with ``torch``
and ``nn`` in scope without an import and the generator seeded with 0 before each
docstring's examples (the onnx examples need the ``onnx`` extra, which the tests install)."""

import inspect

import pytest

import torch
from torch import nn
from torch.testing._doctest import check_docstring_examples, module_names

SEEDED_RUNNER = "seed" in inspect.signature(check_docstring_examples).parameters


@pytest.mark.skipif(not SEEDED_RUNNER, reason="needs torch-core >= 0.6.1 for seeded doctests")
@pytest.mark.parametrize("name", module_names("torch.jit") + module_names("torch.onnx"))
def test_docstring_examples(name):
    check_docstring_examples(name, namespace={"torch": torch, "nn": nn}, seed=0)
