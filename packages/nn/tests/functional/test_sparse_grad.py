"""Sparse gradients give what PyTorch 2.13 gave (the golden file recorded by
tools/golden/record_sparse_grad.py from sparse_grad_cases.py). Floats compare to float32
rounding; everything else (entries' order, coalescing, errors) exactly."""

import json
import pathlib
import sys

import pytest

import torch

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import sparse_grad_cases as cases  # noqa: E402
from snippet_lines import close  # noqa: E402

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "sparse_grad.json").read_text())


def test_every_case_is_recorded():
    assert set(GOLDEN) == set(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name):
    expected = dict(GOLDEN[name])
    expected.pop("code")
    got = cases.outcome(torch, cases.CASES[name])
    assert close(got, expected, rtol=1e-5, atol=1e-6), (got, expected)
