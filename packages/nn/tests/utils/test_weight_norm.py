"""torch.nn.utils.weight_norm (and spectral_norm, tested in test_spectral_norm.py):
forward, gradients and state against real PyTorch."""

import pytest

import torch
from torch import nn


def test_parameters_and_removal():
    m = nn.utils.weight_norm(nn.Linear(3, 2))
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight_g", "weight_v"]
    before = m(torch.ones(1, 3))
    nn.utils.remove_weight_norm(m)
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight"]
    assert bool(((m(torch.ones(1, 3)) - before).abs() < 1e-6).all())
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found"):
        nn.utils.remove_weight_norm(m)


def test_twice_is_an_error():
    m = nn.utils.weight_norm(nn.Linear(3, 2))
    with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks"):
        nn.utils.weight_norm(m)


def test_the_old_function_warns_that_it_is_deprecated():
    with pytest.warns(FutureWarning, match="torch.nn.utils.parametrizations.weight_norm"):
        nn.utils.weight_norm(nn.Linear(3, 2))
