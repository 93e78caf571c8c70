"""The math API's later families and issue 4's semantics fixes against real PyTorch
(expressions in tools/golden/cases_math.py, results recorded by record_math.py): values,
reprs, shapes, strides, dtypes, and for bad input the exception type and message."""

import json
import pathlib

import golden_groups
import pytest
from golden_describe import outcome

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "math_api.json").read_text())
# the package's own session has torch-core alone: cases that need a sibling skip there
# and run where every package is installed (the numpy-lowest contracts session)
CASES = golden_groups.cases(GOLDEN, needs_nn=lambda code: "torch.nn" in code)


@pytest.mark.parametrize("group,code", CASES)
def test_matches_pytorch(group, code):
    expected = GOLDEN["groups"][group][code]
    assert outcome(torch, code, GOLDEN["setup"]) == expected
