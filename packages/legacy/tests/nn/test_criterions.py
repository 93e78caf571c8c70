"""Criterions: gradients against finite differences, and loss and gradient against
the torch.nn losses."""

import pytest

import torch
from torch.legacy import nn as legacy


def rand(*shape):
    return torch.randn(*shape, dtype=torch.float64)


def probabilities(*shape):
    return torch.rand(*shape, dtype=torch.float64) * 0.8 + 0.1


def log_probabilities(n, c):
    return torch.log_softmax(rand(n, c), 1)


def _cases():
    weights = torch.tensor([0.5, 2.0, 1.0, 1.5], dtype=torch.float64)
    targets = torch.tensor([3, 0, 1, 3, 2])
    signs = torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0, 1.0], dtype=torch.float64).view(2, 3)
    return {
        "MSE": (lambda: legacy.MSECriterion(), rand(3, 4), rand(3, 4)),
        "MSE-sum": (lambda: legacy.MSECriterion(sizeAverage=False), rand(3, 4), rand(3, 4)),
        "Abs": (lambda: legacy.AbsCriterion(), rand(3, 4), rand(3, 4)),
        "SmoothL1": (lambda: legacy.SmoothL1Criterion(), 2 * rand(3, 4), rand(3, 4)),
        "BCE": (lambda: legacy.BCECriterion(), probabilities(3, 4), probabilities(3, 4).round()),
        "BCE-weights": (
            lambda: legacy.BCECriterion(weights),
            probabilities(3, 4),
            probabilities(3, 4),
        ),
        "ClassNLL": (lambda: legacy.ClassNLLCriterion(), log_probabilities(5, 4), targets),
        "ClassNLL-weights-sum": (
            lambda: legacy.ClassNLLCriterion(weights, sizeAverage=False),
            log_probabilities(5, 4),
            targets,
        ),
        "ClassNLL-ignore": (
            lambda: legacy.ClassNLLCriterion(weights, ignoreIndex=3),
            log_probabilities(5, 4),
            targets,
        ),
        "CrossEntropy": (lambda: legacy.CrossEntropyCriterion(weights), rand(5, 4), targets),
        "Margin": (lambda: legacy.MarginCriterion(0.7), rand(2, 3), signs),
        "DistKLDiv": (
            lambda: legacy.DistKLDivCriterion(),
            log_probabilities(3, 4),
            torch.softmax(rand(3, 4), 1),
        ),
    }


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_finite_differences(name):
    make, input, target = CASES[name]
    crit = make()
    crit.forward(input, target)
    grad = crit.backward(input, target).clone()
    numeric = torch.zeros_like(input)
    flat, out = input.clone().view(-1), numeric.view(-1)
    for i in range(flat.numel()):
        original = float(flat[i])
        flat[i] = original + 1e-6
        plus = crit.forward(flat.view(input.shape), target)
        flat[i] = original - 1e-6
        minus = crit.forward(flat.view(input.shape), target)
        flat[i] = original
        out[i] = (plus - minus) / 2e-6
    torch.testing.assert_close(grad, numeric, atol=1e-6, rtol=1e-5)


def _reference(name):
    tnn = pytest.importorskip("torch.nn", reason="the cross-checks need torch-nn (the test extra)")
    weights = torch.tensor([0.5, 2.0, 1.0, 1.5], dtype=torch.float64)
    return {
        "MSE": tnn.MSELoss(),
        "MSE-sum": tnn.MSELoss(reduction="sum"),
        "Abs": tnn.L1Loss(),
        "SmoothL1": tnn.SmoothL1Loss(),
        "BCE": tnn.BCELoss(),
        "BCE-weights": tnn.BCELoss(weight=weights),
        "ClassNLL": tnn.NLLLoss(),
        "ClassNLL-weights-sum": tnn.NLLLoss(weights, reduction="sum"),
        "ClassNLL-ignore": tnn.NLLLoss(weights, ignore_index=3),
        "CrossEntropy": tnn.CrossEntropyLoss(weights),
        # torch.nn has no plain hinge loss on {-1, 1} targets: the formula itself
        "Margin": lambda x, y: (0.7 - x * y).clamp(min=0).mean(),
        "DistKLDiv": tnn.KLDivLoss(reduction="mean"),
    }[name]


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch_nn_losses(name):
    make, input, target = CASES[name]
    reference = _reference(name)
    crit = make()
    loss = crit.forward(input, target)
    grad = crit.backward(input, target)
    x = input.clone().requires_grad_()
    ref = reference(x, target)
    ref.backward()
    assert loss == pytest.approx(float(ref), rel=1e-9, abs=1e-12)
    torch.testing.assert_close(grad, x.grad, atol=1e-9, rtol=1e-7)


def test_bad_targets_raise_as_pytorch_does():
    crit = legacy.ClassNLLCriterion()
    with pytest.raises(IndexError, match="Target 4 is out of bounds"):
        crit.forward(log_probabilities(2, 4), torch.tensor([0, 4]))
    with pytest.raises(ValueError, match=r"Expected input batch_size \(2\) to match target"):
        crit.forward(log_probabilities(2, 4), torch.tensor([0, 1, 2]))
    with pytest.raises(RuntimeError, match="same number of elements"):
        legacy.MSECriterion().forward(rand(2, 3), rand(5))
