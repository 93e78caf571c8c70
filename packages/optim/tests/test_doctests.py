"""Every ``Examples::`` block of torch.optim runs as a doctest."""

import pytest

import torch
from torch.testing._doctest import check_docstring_examples, module_names


@pytest.mark.parametrize("name", module_names("torch.optim"))
def test_docstring_examples(name):
    if name.endswith("sparse_adam") and not hasattr(torch, "sparse_coo_tensor"):
        pytest.skip("torch-core without sparse tensors (SparseAdam's example makes one)")
    if name.endswith("swa_utils"):
        pytest.importorskip("torch.nn", reason="swa_utils' examples average nn modules")
    check_docstring_examples(name)
