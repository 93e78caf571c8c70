import copy
import pickle

import pytest

import torch
from torch import nn


def test_parameter_requires_grad_and_shares_memory():
    data = torch.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    assert isinstance(p, torch.Tensor) and isinstance(p, nn.Parameter)
    assert p.requires_grad and p.is_leaf and p.data_ptr() == data.data_ptr()
    assert not nn.Parameter(data, requires_grad=False).requires_grad


def test_parameter_gets_gradients():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    (p * p).sum().backward()
    assert p.grad.tolist() == [2.0, 4.0]


def test_parameter_survives_pickle_and_deepcopy():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    for clone in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p)):
        assert isinstance(clone, nn.Parameter) and clone.requires_grad
        assert clone.tolist() == [1.0, 2.0]


def test_parameter_rejects_non_tensors():
    with pytest.raises(TypeError, match="must be a Tensor"):
        nn.Parameter([1.0])


def test_repr():
    assert repr(nn.Parameter(torch.tensor([1.0]))).startswith("Parameter containing:\ntensor(")
