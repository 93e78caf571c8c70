"""torch.nn.utils.clip_grad."""

import math

import pytest

import torch
from torch import nn


def _params(*grads):
    params = []
    for g in grads:
        p = nn.Parameter(torch.zeros(len(g)))
        p.grad = torch.tensor(g)
        params.append(p)
    return params


def test_clip_grad_norm_scales_all_gradients_together():
    params = _params([3.0, 0.0], [0.0, 4.0])
    total = nn.utils.clip_grad_norm_(params, 1.0)
    assert total.item() == pytest.approx(5.0)
    assert params[0].grad.tolist() == pytest.approx([0.6, 0.0], rel=1e-5)
    assert params[1].grad.tolist() == pytest.approx([0.0, 0.8], rel=1e-5)


def test_clip_grad_norm_leaves_small_gradients_and_supports_inf_norm():
    params = _params([0.1, -0.2])
    assert nn.utils.clip_grad_norm_(params, 1.0).item() == pytest.approx(math.sqrt(0.05))
    assert params[0].grad.tolist() == pytest.approx([0.1, -0.2])
    params = _params([1.0, -3.0])
    assert nn.utils.clip_grad_norm_(params, 1.5, norm_type="inf").item() == 3.0
    assert params[0].grad.tolist() == pytest.approx([0.5, -1.5], rel=1e-5)


def test_clip_grad_norm_nonfinite_error():
    params = _params([float("nan"), 1.0])
    with pytest.raises(RuntimeError, match="is non-finite, so it cannot be clipped"):
        nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)


def test_clip_grad_value():
    params = _params([-3.0, 0.5, 2.0])
    nn.utils.clip_grad_value_(params, 1.0)
    assert params[0].grad.tolist() == [-1.0, 0.5, 1.0]


def test_no_gradients_gives_zero_norm():
    assert nn.utils.clip_grad_norm_([nn.Parameter(torch.zeros(1))], 1.0).item() == 0.0
