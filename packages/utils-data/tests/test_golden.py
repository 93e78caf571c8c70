"""torch.utils.data against outputs recorded from real PyTorch
(tools/golden/record_utils_data.py runs the same cases in cases_data.py)."""

import json
import pathlib
import warnings

import cases_data
import pytest

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "utils_data.json").read_text())

# PyTorch builds this message with a stray argument (it prints as a tuple); we keep
# the exception type and write the sentence it meant.
TYPE_ONLY = {"loader_errors": {"iterator_pickle"}}


@pytest.mark.parametrize("group", sorted(cases_data.CASES))
def test_matches_pytorch(group):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. more workers than CPUs
        ours = json.loads(json.dumps(cases_data.CASES[group]()))
    expected = GOLDEN[group]
    assert sorted(ours) == sorted(expected)
    for key, want in expected.items():
        got = ours[key]
        if key in TYPE_ONLY.get(group, ()):
            got, want = got["type"], want["type"]
        assert got == want, f"{group}/{key}"
