"""torch.is_complex / is_nonzero / is_same_size / typename: argument errors and the
names of non-tensor objects (tensor cases are compared with PyTorch in test_expressions)."""

import collections

import pytest

import torch


def test_typename_of_instances_classes_and_builtins():
    assert torch.typename(collections.OrderedDict()) == "collections.OrderedDict"
    assert torch.typename(torch.zeros(1, dtype=torch.float64)) == "torch.DoubleTensor"
    assert torch.typename("a") == "str" and torch.typename(torch.device("cpu")) == "torch.device"


def test_predicates_reject_non_tensors():
    for function in (torch.is_complex, torch.is_nonzero):
        with pytest.raises(TypeError, match="must be Tensor"):
            function(0)
    with pytest.raises(TypeError, match="'other'"):
        torch.is_same_size(torch.zeros(1), [0])
