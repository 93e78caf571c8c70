"""torch.utils.checkpoint with core ops only (the nn cases are in torch-nn's tests):
gradients equal to the plain run both ways, the random state of the forward restored,
the warnings and errors of PyTorch 2.13."""

from __future__ import annotations

import warnings

import pytest

import torch
from torch.utils.checkpoint import CheckpointError, checkpoint, checkpoint_sequential


def _noisy(t, w):
    # a random mask (like dropout): the recomputation must draw the same one
    mask = (torch.rand(t.shape) > 0.5).to(t.dtype)
    return ((t @ w).tanh() * mask[:, :1]).exp() * t.sum()


def _grads(run, *inputs):
    for x in inputs:
        x.grad = None
    out = run(*inputs)
    out.sum().backward()
    return out.detach(), [x.grad.clone() for x in inputs]


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_gradients_and_random_state_match_the_plain_run(use_reentrant):
    x = torch.rand(4, 3, requires_grad=True)
    w = torch.rand(3, 2, requires_grad=True)
    torch.manual_seed(5)
    plain_out, plain = _grads(_noisy, x, w)
    torch.manual_seed(5)
    out, grads = _grads(lambda a, b: checkpoint(_noisy, a, b, use_reentrant=use_reentrant), x, w)
    assert torch.equal(out, plain_out)
    for ours, theirs in zip(grads, plain):
        assert torch.allclose(ours, theirs)
    # the caller's random stream goes on as after the plain run
    torch.manual_seed(5)
    _noisy(x, w)
    expected_next = torch.rand(3)
    torch.manual_seed(5)
    checkpoint(_noisy, x, w, use_reentrant=use_reentrant).sum().backward()
    assert torch.equal(torch.rand(3), expected_next)


def test_non_reentrant_keeps_the_ordinary_graph():
    x = torch.rand(3, requires_grad=True)
    y = checkpoint(lambda t, scale=1.0: (t * scale).sin(), x, scale=2.0, use_reentrant=False)
    assert type(y.grad_fn).__name__ == "SinBackward0"
    (grad,) = torch.autograd.grad(y.sum(), x)
    assert torch.allclose(grad, 2 * (2 * x).cos())
    y = checkpoint(lambda t: t.exp(), x, use_reentrant=False)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert torch.allclose(x.grad, 2 * x.exp())


def test_reentrant_records_one_node():
    x = torch.rand(3, requires_grad=True)
    y = checkpoint(lambda t: t.exp().sin(), x, use_reentrant=True)
    assert type(y.grad_fn).__name__ == "CheckpointFunctionBackward"


def test_warnings():
    x = torch.rand(3, requires_grad=True)
    with pytest.warns(UserWarning, match="use_reentrant parameter should be passed explicitly"):
        checkpoint(lambda t: t * 2, x)
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        y = checkpoint(lambda t: t * 2, torch.ones(2), use_reentrant=True)
    assert not y.requires_grad
    with pytest.warns(UserWarning, match="checkpoint_sequential: the use_reentrant"):
        checkpoint_sequential([torch.exp, torch.sin], 2, x)


def test_errors():
    x = torch.rand(3, requires_grad=True)
    with pytest.raises(ValueError, match="Unexpected keyword arguments: foo"):
        checkpoint(lambda t, foo: t, x, foo=1, use_reentrant=True)
    calls = []

    def changes_shape(t):
        calls.append(1)
        return t.exp() if len(calls) == 1 else t[:2].exp()

    y = checkpoint(changes_shape, x, use_reentrant=False)
    with pytest.raises(CheckpointError, match="different metadata than during the forward"):
        y.sum().backward()


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_sequential_matches_the_plain_run(use_reentrant):
    layers = [torch.exp, torch.sin, torch.tanh, torch.cos, torch.sigmoid]
    x = torch.rand(4, requires_grad=True)
    plain = x
    for layer in layers:
        plain = layer(plain)
    (expected,) = torch.autograd.grad(plain.sum(), x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = checkpoint_sequential(layers, 2, x, use_reentrant=use_reentrant)
    out.sum().backward()
    assert torch.allclose(out, plain) and torch.allclose(x.grad, expected)
