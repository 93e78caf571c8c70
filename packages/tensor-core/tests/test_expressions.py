"""Hundreds of small expressions (tools/golden/cases_core.py) against real PyTorch's
results: values, reprs, shapes, strides, storage offsets, dtypes, and for bad input the
exception type and message."""

import json
import pathlib

import pytest
from golden_describe import outcome

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "expressions.json").read_text())
CASES = [(group, code) for group, cases in GOLDEN["groups"].items() for code in cases]


@pytest.mark.parametrize("group,code", CASES, ids=[f"{g}:{c}" for g, c in CASES])
def test_matches_pytorch(group, code):
    expected = GOLDEN["groups"][group][code]
    assert outcome(torch, code, GOLDEN["setup"]) == expected
