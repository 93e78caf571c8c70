"""torch.utils.checkpoint over nn modules: dropout draws the same mask when the part is
recomputed, parameter gradients equal the plain run's, nn.Sequential for
checkpoint_sequential."""

from __future__ import annotations

import pytest

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


def _model():
    torch.manual_seed(0)
    return nn.Sequential(
        nn.Linear(6, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2)
    )


def _run(model, forward):
    model.zero_grad()
    torch.manual_seed(3)
    x = torch.rand(5, 6, requires_grad=True)
    out = forward(model, x)
    out.pow(2).sum().backward()
    return out.detach(), [p.grad.clone() for p in model.parameters()] + [x.grad.clone()]


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpointed_module_matches_the_plain_run(use_reentrant):
    model = _model()
    plain_out, plain = _run(model, lambda m, x: m(x))
    out, grads = _run(model, lambda m, x: checkpoint(m, x, use_reentrant=use_reentrant))
    assert torch.equal(out, plain_out)
    for ours, theirs in zip(grads, plain):
        assert torch.allclose(ours, theirs)


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_sequential_over_a_sequential(use_reentrant):
    model = _model()
    plain_out, plain = _run(model, lambda m, x: m(x))
    out, grads = _run(
        model, lambda m, x: checkpoint_sequential(m, 3, x, use_reentrant=use_reentrant)
    )
    assert torch.equal(out, plain_out)
    for ours, theirs in zip(grads, plain):
        assert torch.allclose(ours, theirs)


def test_without_preserved_random_state_the_masks_differ():
    model = _model()
    plain_out, plain = _run(model, lambda m, x: m(x))
    _, grads = _run(
        model,
        lambda m, x: checkpoint(m, x, use_reentrant=False, preserve_rng_state=False),
    )
    assert not all(torch.allclose(a, b) for a, b in zip(grads, plain))
