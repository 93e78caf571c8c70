"""The 0.4-migration expressions of variable_cases.py give what PyTorch 2.13 gave
(golden/variable.json, recorded by tools/golden/record_legacy_api.py)."""

import json
import pathlib

import pytest
import variable_cases as cases

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "variable.json").read_text())


def test_every_case_is_recorded():
    assert set(GOLDEN) == set(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name):
    expected = GOLDEN[name]
    got = cases.outcome(torch, cases.CASES[name])
    if name in cases.TYPE_ONLY:
        assert got.get("error") == expected.get("error"), got
        got.pop("message", None), expected.pop("message", None)
    if name in cases.ANY_WARNINGS:
        got.pop("warnings"), expected.pop("warnings")
    expected.pop("code")
    assert got == expected
