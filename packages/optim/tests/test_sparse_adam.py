"""SparseAdam: options and the refusal of dense gradients (core has no sparse tensors)."""

import pytest

import torch


def test_dense_gradients_are_refused():
    w = torch.zeros(3)
    w.grad = torch.ones(3)
    with pytest.raises(RuntimeError, match="does not support dense gradients"):
        torch.optim.SparseAdam([w]).step()


def test_bad_options():
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        torch.optim.SparseAdam([torch.zeros(1)], lr=-1)
    with pytest.raises(ValueError, match="Invalid beta parameter at index 0"):
        torch.optim.SparseAdam([torch.zeros(1)], betas=(1.0, 0.9))
