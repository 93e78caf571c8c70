"""torch.nn.utils.spectral_norm (goldens are in test_weight_norm.py's family)."""

import torch
from torch import nn


def test_spectral_norm_bounds_the_largest_singular_value():
    torch.manual_seed(0)
    m = nn.utils.spectral_norm(nn.Linear(6, 5), n_power_iterations=30)
    m(torch.zeros(1, 6))
    singular = torch.linalg.svdvals(m.weight.detach())
    assert abs(singular.max().item() - 1.0) < 1e-3


def test_eval_does_not_update_the_vectors_and_removal_keeps_the_weight():
    m = nn.utils.spectral_norm(nn.Linear(4, 3)).eval()
    u = m.weight_u.clone()
    m(torch.ones(1, 4))
    assert bool((m.weight_u == u).all())
    weight = m.weight.detach().clone()
    nn.utils.remove_spectral_norm(m)
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight"]
    assert bool(((m.weight - weight).abs() < 1e-6).all())
