"""torch.nn.utils.convert_parameters."""

import pytest

import torch
from torch import nn


def test_round_trip_through_a_vector():
    net = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
    vec = nn.utils.parameters_to_vector(net.parameters())
    assert vec.shape == (13,)
    nn.utils.vector_to_parameters(torch.arange(13.0), net.parameters())
    assert net[0].weight.tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert net[1].bias.tolist() == [12.0]
    assert isinstance(net[0].weight, nn.Parameter)


def test_vector_must_be_a_tensor():
    with pytest.raises(TypeError, match="expected torch.Tensor"):
        nn.utils.vector_to_parameters([1.0], [nn.Parameter(torch.zeros(1))])
