"""The math API's later families and issue 4's semantics fixes against real PyTorch
(expressions in tools/golden/cases_math.py, results recorded by record_math.py): values,
reprs, shapes, strides, dtypes, and for bad input the exception type and message."""

import json
import pathlib

import pytest
from golden_describe import outcome

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "math_api.json").read_text())
_GRADIENT_WORDS = ("requires_grad=True", "requires_grad_(", "backward(", ".grad")


def _marks(code: str) -> list:
    # the package's own session has torch-core alone: cases that need a sibling skip there
    # and run where every package is installed (the numpy-lowest contracts session)
    marks = [pytest.mark.autograd] if any(w in code for w in _GRADIENT_WORDS) else []
    return marks + ([pytest.mark.nn] if "torch.nn" in code else [])


CASES = [
    pytest.param(
        group,
        code,
        id=f"{group}:{code}",
        marks=_marks(code),
    )
    for group, cases in GOLDEN["groups"].items()
    for code in cases
]


@pytest.mark.parametrize("group,code", CASES)
def test_matches_pytorch(group, code):
    expected = GOLDEN["groups"][group][code]
    assert outcome(torch, code, GOLDEN["setup"]) == expected
