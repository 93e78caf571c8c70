"""torch.nn.init: every initialiser draws what PyTorch draws from the same seed."""

import pytest

import torch
from torch import nn

KEYS = [
    "uniform_", "normal_", "trunc_normal_", "trunc_normal_tail", "xavier_uniform_",
    "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "orthogonal_tall",
    "sparse_", "eye_", "dirac_", "constant_", "linear_default", "conv_default", "embedding_default",
    "lstm_default", "bilinear_default",
]  # fmt: skip


@pytest.mark.parametrize("key", KEYS)
def test_values_match_pytorch_seed_for_seed(golden, key, tensor_of):
    case = golden("init")[key]
    torch.manual_seed(7)
    t = torch.empty(case["shape"]) if case["shape"] else None  # noqa: F841
    result = eval(case["source"])
    expected = tensor_of(case["result"])
    assert list(result.shape) == case["result"]["shape"]
    assert bool(((result.detach() - expected).abs() <= 1e-5).all()), key


def test_calculate_gain_matches_pytorch(golden):
    for name, value in golden("init")["gains"].items():
        if name == "leaky_relu_0.2":
            assert nn.init.calculate_gain("leaky_relu", 0.2) == pytest.approx(value)
        else:
            assert nn.init.calculate_gain(name) == pytest.approx(value)


def test_initialisers_return_their_argument_and_record_no_graph():
    w = nn.Parameter(torch.empty(3, 4))
    assert nn.init.xavier_uniform_(w) is w
    assert w.grad_fn is None and w.requires_grad


def test_errors():
    with pytest.raises(ValueError, match="negative_slope"):
        nn.init.calculate_gain("leaky_relu", "x")
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions"):
        nn.init.eye_(torch.empty(2, 2, 2))
    with pytest.raises(ValueError, match="Only tensors with 3, 4, or 5 dimensions"):
        nn.init.dirac_(torch.empty(2, 2))


def test_deprecated_aliases_warn():
    with pytest.warns(FutureWarning, match="nn.init.xavier_uniform_"):
        nn.init.xavier_uniform(torch.empty(2, 2))
