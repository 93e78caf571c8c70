"""Every ``Examples::`` block of torch.optim runs as a doctest, with ``torch`` in scope
without an import and the generator seeded with 0 before each docstring's examples."""

import inspect

import pytest

import torch
from torch.testing._doctest import check_docstring_examples, module_names

SEEDED_RUNNER = "seed" in inspect.signature(check_docstring_examples).parameters


@pytest.mark.skipif(not SEEDED_RUNNER, reason="needs torch-core >= 0.6.1 for seeded doctests")
@pytest.mark.parametrize("name", module_names("torch.optim"))
def test_docstring_examples(name):
    if name.endswith("sparse_adam") and not hasattr(torch, "sparse_coo_tensor"):
        pytest.skip("torch-core without sparse tensors (SparseAdam's example makes one)")
    if name.endswith("swa_utils"):
        pytest.importorskip("torch.nn", reason="swa_utils' examples average nn modules")
    check_docstring_examples(name, namespace={"torch": torch}, seed=0)
