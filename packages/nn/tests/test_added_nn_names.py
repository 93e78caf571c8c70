"""The names torch-nn added for the public-names check (added_nn_cases.py) give what
PyTorch 2.13 gave (golden/added_nn_names.json, recorded by
tools/golden/record_added_names.py)."""

import json
import pathlib

import added_nn_cases as cases
import pytest
from snippet_lines import close

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "added_nn_names.json").read_text())


def test_every_case_is_recorded():
    assert set(GOLDEN) == set(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name):
    expected = dict(GOLDEN[name])
    assert expected.pop("code") == cases.CASES[name], "re-record: the case changed"
    got = cases.outcome(torch, cases.CASES[name])
    assert close(got, expected, rtol=1e-5, atol=1e-6), (got, expected)
