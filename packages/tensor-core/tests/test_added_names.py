"""The names added for the public-names check (added_names_cases.py) give what PyTorch
2.13 gave (golden/added_names.json, recorded by tools/golden/record_added_names.py)."""

import json
import pathlib

import added_names_cases as cases
import pytest
from conftest import has_autograd, has_nn

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "added_names.json").read_text())


def test_every_case_is_recorded():
    assert set(GOLDEN) == set(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name):
    if name in cases.NEEDS_AUTOGRAD and not has_autograd():
        pytest.skip("needs torch-autograd, which is not installed")
    if name in cases.NEEDS_NN and not has_nn():
        pytest.skip("needs torch-nn, which is not installed")
    expected = dict(GOLDEN[name])
    assert expected.pop("code") == cases.CASES[name], "re-record: the case changed"
    got = cases.outcome(torch, cases.CASES[name])
    if name in cases.TYPE_ONLY:
        got.pop("message", None), expected.pop("message", None)
    rtol = 1e-10 if '"torch.float64"' in json.dumps(expected) else 1e-5
    rtol = cases.LOOSE.get(name, rtol)
    assert cases.close(got, expected, rtol), (got, expected)
