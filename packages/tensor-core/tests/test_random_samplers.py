"""The random family's rejection samplers (``torch._standard_gamma``, ``poisson``,
``binomial``, ``_sample_dirichlet``) and reparameterisation gradients against PyTorch
2.13's outcomes (golden/random_samplers.json, recorded by
tools/golden/record_distributions.py): the same seed gives the same draws, bit for bit,
and the generator is left where PyTorch leaves it."""

from __future__ import annotations

import json
import math
import pathlib

import pytest
from conftest import has_autograd
from random_sampler_cases import CASES

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "random_samplers.json").read_text())


def _finite_or_repr(x):
    return repr(x) if isinstance(x, float) and not math.isfinite(x) else x


def _describe(value):
    if isinstance(value, torch.Tensor):
        flat = value.detach().double().reshape(-1).tolist()
        return {
            "tensor": [
                repr(x) if isinstance(x, float) and not math.isfinite(x) else x for x in flat
            ],
            "shape": list(value.shape),
            "dtype": str(value.dtype),
        }
    if isinstance(value, (tuple, list)):
        return [_describe(v) for v in value]
    return value


# approximations evaluated in a different order than PyTorch's: equal to ~1e-13
_APPROXIMATE = {"gamma_grad", "dirichlet_grad", "gamma_backward"}


def _outcome(code: str, dtype):
    torch.manual_seed(0)
    try:
        return {"value": _describe(eval(code, {"torch": torch, "dtype": dtype}))}
    except Exception as error:  # noqa: BLE001 (the exception is the outcome)
        return {"error": type(error).__name__, "message": str(error)}


def _close(ours, theirs, rtol):
    if isinstance(theirs, dict):
        keys = theirs.keys() - {"grad_fn"}  # node names are not described here
        return ours.keys() - {"grad_fn"} == keys and all(
            _close(ours[k], theirs[k], rtol) for k in theirs if k != "grad_fn"
        )
    if isinstance(theirs, list):
        return len(ours) == len(theirs) and all(_close(a, b, rtol) for a, b in zip(ours, theirs))
    if isinstance(theirs, float) and isinstance(ours, float):
        return math.isclose(ours, theirs, rel_tol=rtol, abs_tol=rtol)
    return ours == theirs


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch(name, dtype):
    if name.endswith("_backward") and not has_autograd():  # gradients through the engine
        pytest.skip("needs torch-autograd, which is not installed")
    theirs = GOLDEN[str(dtype)][name]
    ours = _outcome(CASES[name], dtype)
    rtol = 1e-12 if name in _APPROXIMATE else 0.0
    if dtype is torch.float32 and name in _APPROXIMATE:
        rtol = 1e-6
    assert _close(ours, theirs, rtol), (ours, theirs)


def test_large_draws_are_statistically_right():
    torch.manual_seed(1)
    alpha = torch.full((4000,), 2.5, dtype=torch.float64)
    draws = torch._standard_gamma(alpha)
    assert abs(draws.mean().item() - 2.5) < 0.1 and abs(draws.var().item() - 2.5) < 0.3
    counts = torch.poisson(torch.full((4000,), 30.0))
    assert abs(counts.mean().item() - 30.0) < 0.5
    successes = torch.binomial(torch.full((4000,), 40.0), torch.full((4000,), 0.35))
    assert abs(successes.mean().item() - 14.0) < 0.3
