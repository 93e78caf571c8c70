"""Every ``Examples::`` block of torch.utils.data runs as a doctest, with ``torch`` and
torch.utils.data's public names (``DataLoader``, ``TensorDataset``, ...) in scope without
an import and the generator seeded with 0 before each docstring's examples."""

import inspect

import pytest

import torch
import torch.utils.data
from torch.testing._doctest import check_docstring_examples, module_names

SEEDED_RUNNER = "seed" in inspect.signature(check_docstring_examples).parameters
PUBLIC = {k: v for k, v in vars(torch.utils.data).items() if not k.startswith("_")}


@pytest.mark.skipif(not SEEDED_RUNNER, reason="needs torch-core >= 0.6.1 for seeded doctests")
@pytest.mark.parametrize("name", module_names("torch.utils.data"))
def test_docstring_examples(name):
    check_docstring_examples(name, namespace={"torch": torch, **PUBLIC}, seed=0)
