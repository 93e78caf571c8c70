"""The 0.4-migration expressions of variable_cases.py give what PyTorch 2.13 gave
(golden/variable.json, recorded by tools/golden/record_legacy_api.py): the same value or
error (type and first line) and the same warnings."""

import pytest
import variable_cases as cases

import torch


def test_every_case_is_recorded(golden):
    assert set(golden("variable")) == set(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name, golden):
    expected = golden("variable")[name]
    assert expected.pop("code") == cases.CASES[name], "re-record the golden file"
    assert cases.outcome(torch, cases.CASES[name]) == expected
