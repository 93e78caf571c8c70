"""torch.nn.utils.parametrizations (orthogonal, weight_norm, spectral_norm) and
parametrized modules in general: forward values, gradients, state_dict layout and buffers
after the forward, against PyTorch 2.13 goldens (tools/golden/cases_nn.py, family
"parametrize"), and reprs."""

import pytest

import torch
from torch import nn
from torch.nn.utils import parametrizations, parametrize

FAMILY = "parametrize"
REPR_PREFIXES = ("nn.utils.parametriz", "nn.Sequential(nn.utils.parametrizations")


def test_forward_gradients_and_state_match_pytorch(module_case, check_module_case):
    check_module_case(module_case)
    # the recorded state_dict layout (keys in order) is ours too
    module = eval(module_case["source"], {"nn": nn, "torch": torch})
    assert list(module.state_dict()) == list(module_case["state"])


def test_repr_matches_pytorch(repr_case):
    source, expected = repr_case
    assert repr(eval(source)) == expected


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 3)])
@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder"])
def test_orthogonal_weights_are_orthogonal(shape, orthogonal_map):
    if orthogonal_map == "householder" and shape == (2, 3, 3):
        shape = (2, 4, 3)
    module = nn.Module()
    module.weight = nn.Parameter(torch.randn(*shape, dtype=torch.float64))
    parametrizations.orthogonal(module, orthogonal_map=orthogonal_map)
    step = 0.1 * torch.randn(*shape, dtype=torch.float64).tril(-1)  # the diagonal: signs
    with torch.no_grad():  # a step away from the starting point stays orthogonal
        module.parametrizations.weight.original.add_(step)
    q = module.weight
    gram = q.mT @ q if shape[-2] >= shape[-1] else q @ q.mT
    eye = torch.eye(min(shape[-2:]), dtype=torch.float64).expand_as(gram)
    assert torch.allclose(gram, eye, atol=1e-10)
    q.sum().backward()
    assert module.parametrizations.weight.original.grad is not None


def test_weight_norm_and_removal_keep_the_values():
    torch.manual_seed(0)
    module = parametrizations.weight_norm(nn.Linear(3, 2))
    weight = module.weight.detach().clone()
    g, v = module.parametrizations.weight.original0, module.parametrizations.weight.original1
    assert torch.allclose(g.flatten(), weight.norm(dim=1)) and torch.equal(v, weight)
    parametrize.remove_parametrizations(module, "weight")
    assert type(module) is nn.Linear and torch.allclose(module.weight, weight)
    assert isinstance(module.weight, nn.Parameter)


def test_spectral_norm_eval_mode_does_not_iterate():
    torch.manual_seed(0)
    module = parametrizations.spectral_norm(nn.Linear(4, 3)).eval()
    u = module.parametrizations.weight[0]._u.clone()
    first = module.weight
    assert torch.equal(module.parametrizations.weight[0]._u, u)
    assert torch.allclose(torch.linalg.matrix_norm(first, ord=2), torch.tensor(1.0), atol=1e-4)
    module.train()
    module.weight  # noqa: B018  (a training-mode access runs one power iteration)
    assert not torch.equal(module.parametrizations.weight[0]._u, u)
