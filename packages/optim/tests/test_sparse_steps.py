"""Sparse gradients give what PyTorch 2.13 gave (the golden file recorded by
tools/golden/record_sparse_grad.py from sparse_step_cases.py). Floats compare to float32
rounding; everything else (entries' order, coalescing, errors) exactly."""

import json
import pathlib

import numpy as np
import pytest
import sparse_step_cases as cases

import torch
from torch._interface import get_grad_engine

if not get_grad_engine().available:  # the cases compute gradients
    pytest.skip("needs torch-autograd, which is not installed", allow_module_level=True)

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sparse_steps.json").read_text())


def _same(got, expected) -> bool:
    if isinstance(expected, dict) and isinstance(got, dict):
        return got.keys() == expected.keys() and all(_same(got[k], expected[k]) for k in got)
    if isinstance(expected, list) and isinstance(got, list):
        if np.asarray(expected, dtype=object).dtype == object and not _numeric(expected):
            return len(got) == len(expected) and all(map(_same, got, expected))
        return np.shape(got) == np.shape(expected) and np.allclose(
            got, expected, rtol=1e-5, atol=1e-6
        )
    return got == expected


def _numeric(value) -> bool:
    try:
        np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return False
    return True


def test_every_case_is_recorded():
    assert set(GOLDEN) == set(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name):
    expected = dict(GOLDEN[name])
    expected.pop("code")
    got = cases.outcome(torch, cases.CASES[name])
    assert _same(got, expected), (got, expected)
