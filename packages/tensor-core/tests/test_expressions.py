"""Hundreds of small expressions (tools/golden/cases_core.py) against real PyTorch's
results: values, reprs, shapes, strides, storage offsets, dtypes, and for bad input the
exception type and message."""

import json
import pathlib
import re

import golden_groups
import pytest
from golden_describe import outcome

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "expressions.json").read_text())
# functions that only torch.nn.functional has (without torch-nn, F is core's namespace of
# the nn functions PyTorch also has as torch.<name>)
_NN_ONLY = re.compile(
    r"\bF\.(nll_loss|cross_entropy|mse_loss|l1_loss|smooth_l1_loss|binary_cross_entropy|gelu|"
    r"silu|mish|elu|leaky_relu|softplus|logsigmoid|hardtanh|relu6|hardsigmoid|hardswish|"
    r"softsign|tanhshrink|softshrink|glu|softmin|pad|unfold|fold|max_unpool2d|lp_pool2d|"
    r"grid_sample|affine_grid|embedding_bag)\("
)


CASES = golden_groups.cases(GOLDEN, needs_nn=lambda code: _NN_ONLY.search(code) is not None)


@pytest.mark.parametrize("group,code", CASES)
def test_matches_pytorch(group, code):
    expected = GOLDEN["groups"][group][code]
    assert outcome(torch, code, GOLDEN["setup"]) == expected
