"""``torch.nn.utils.stateless.functional_call``: deprecated, calls torch.func's (PyTorch
2.13 warns with this FutureWarning and gives this value)."""

import pytest

import torch
from torch import nn
from torch.nn.utils import stateless


def test_functional_call_warns_and_calls_torch_func():
    lin = nn.Linear(2, 1)
    values = {"weight": torch.ones(1, 2), "bias": torch.zeros(1)}
    with pytest.warns(FutureWarning, match=r"^`torch.nn.utils.stateless.functional_call` is dep"):
        out = stateless.functional_call(lin, values, (torch.ones(1, 2),))
    assert torch.equal(out, torch.tensor([[2.0]]))
    assert not torch.equal(lin.weight.detach(), torch.ones(1, 2))  # the module is unchanged
