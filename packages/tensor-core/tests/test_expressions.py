"""Hundreds of small expressions (tools/golden/cases_core.py) against real PyTorch's
results: values, reprs, shapes, strides, storage offsets, dtypes, and for bad input the
exception type and message."""

import json
import pathlib
import re

import pytest
from golden_describe import outcome

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "expressions.json").read_text())
# expressions that record gradients need torch-autograd (absent from core's own tests)
_GRADIENT_WORDS = ("requires_grad=True", "requires_grad_(", "backward(", ".grad")
# functions that only torch.nn.functional has (without torch-nn, F is core's namespace of
# the nn functions PyTorch also has as torch.<name>)
_NN_ONLY = re.compile(
    r"\bF\.(nll_loss|cross_entropy|mse_loss|l1_loss|smooth_l1_loss|binary_cross_entropy|gelu|"
    r"silu|mish|elu|leaky_relu|softplus|logsigmoid|hardtanh|relu6|hardsigmoid|hardswish|"
    r"softsign|tanhshrink|softshrink|glu|softmin|pad|unfold|fold|max_unpool2d|lp_pool2d|"
    r"grid_sample|affine_grid|embedding_bag)\("
)


def _marks(code: str) -> list:
    marks = [pytest.mark.autograd] if any(w in code for w in _GRADIENT_WORDS) else []
    return marks + ([pytest.mark.nn] if _NN_ONLY.search(code) else [])


CASES = [
    pytest.param(group, code, id=f"{group}:{code}", marks=_marks(code))
    for group, cases in GOLDEN["groups"].items()
    for code in cases
]


@pytest.mark.parametrize("group,code", CASES)
def test_matches_pytorch(group, code):
    expected = GOLDEN["groups"][group][code]
    assert outcome(torch, code, GOLDEN["setup"]) == expected
