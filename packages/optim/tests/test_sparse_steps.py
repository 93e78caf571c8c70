"""Sparse gradients give what PyTorch 2.13 gave (the golden file recorded by
tools/golden/record_sparse_grad.py from sparse_step_cases.py). Floats compare to float32
rounding; everything else (entries' order, coalescing, errors) exactly. That every case is
recorded, test_optim_snippets.py checks."""

import pytest
import sparse_step_cases as cases
from optim_snippets import close
from optim_testing import needs_autograd

import torch

pytestmark = needs_autograd  # the cases compute gradients


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name, golden):
    expected = {k: v for k, v in golden("sparse_steps")[name].items() if k != "code"}
    got = cases.outcome(torch, cases.CASES[name])
    assert close(got, expected, rel_tol=1e-5, abs_tol=1e-6), (got, expected)
