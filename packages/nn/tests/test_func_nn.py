"""torch.func on torch.nn models (func_nn_cases.py) against what real PyTorch 2.13 gave
(golden/func_nn.json, written by tools/golden/record_func.py): per-example gradients with
vmap(grad(...)) and functional_call, ensembles with stack_module_state, Jacobians and
Hessians through nn.functional."""

import json
import pathlib
import sys
import warnings

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import func_nn_cases  # noqa: E402
from snippet_lines import close  # noqa: E402

import torch  # noqa: E402
from torch.func import grad, vmap  # noqa: E402

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "func_nn.json").read_text())


@pytest.mark.parametrize("name", sorted(func_nn_cases.CASES))
def test_matches_pytorch(name):
    expected = dict(GOLDEN[name])
    assert expected.pop("code") == func_nn_cases.CASES[name], "re-record the golden file"
    got = func_nn_cases.outcome(func_nn_cases.CASES[name])
    if not name.endswith("!"):  # only the "!" cases word their errors as PyTorch does
        got.pop("message", None), expected.pop("message", None)
    assert close(got, expected, rtol=1e-7, atol=1e-9), (got, expected)


def test_per_sample_grads_match_a_loop_without_fallbacks():
    """The key use case: vmap(grad(loss)) of a small model equals a loop of backward
    passes, with every op batched (no loop fallback warning)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(5, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3)
    ).double()
    params = {k: v.detach() for k, v in model.named_parameters()}
    x, y = torch.randn(7, 5, dtype=torch.float64), torch.randint(0, 3, (7,))

    def loss(p, xi, yi):
        out = torch.func.functional_call(model, p, (xi.unsqueeze(0),))
        return torch.nn.functional.cross_entropy(out, yi.unsqueeze(0))

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fallback would warn
        per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)
    for i in range(7):
        model.zero_grad()
        torch.nn.functional.cross_entropy(model(x[i : i + 1]), y[i : i + 1]).backward()
        for name, p in model.named_parameters():
            torch.testing.assert_close(per_sample[name][i], p.grad)


def test_cnn_per_sample_grads_and_jacfwd_without_fallbacks():
    """Convolution and LayerNorm with per-example weights are batched (no loop
    fallback); jacfwd through the CNN matches jacrev."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 2, 3),
        torch.nn.ReLU(),
        torch.nn.Flatten(),
        torch.nn.LayerNorm(8),
        torch.nn.GELU(),
        torch.nn.Linear(8, 3),
    ).double()
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = torch.randn(4, 1, 4, 4, dtype=torch.float64)
    y = torch.tensor([0, 2, 1, 1])

    def loss(p, xi, yi):
        out = torch.func.functional_call(model, p, (xi[None],))
        return torch.nn.functional.cross_entropy(out, yi[None])

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)
        forward = torch.func.jacfwd(lambda a: model(a[None]))(x[0])
    for i in range(4):
        expected = grad(loss)(params, x[i], y[i])
        for name in params:
            torch.testing.assert_close(per_sample[name][i], expected[name])
    torch.testing.assert_close(forward, torch.func.jacrev(lambda a: model(a[None]))(x[0]))
