"""``torch.nn.utils.prune`` behaves as PyTorch 2.13's (goldens recorded by
tools/golden/record_nn_prune.py)."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from prune_cases import CASES, outcome  # noqa: E402

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "prune.json").read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch(name):
    expected = {k: v for k, v in GOLDEN[name].items() if k != "code"}
    assert outcome(CASES[name]) == expected
