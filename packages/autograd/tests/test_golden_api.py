"""The autograd API snippets of autograd_cases.py against what real PyTorch gave
(golden/autograd_api.json, written by tools/golden/record_autograd.py)."""

import autograd_cases
import pytest
from conftest import check_golden_outcome, close, has_nn


def _cases(golden):
    return golden("autograd_api")


def _params():
    # cases written against torch.nn run where torch-nn is installed (numpy-lowest)
    skip_nn = pytest.mark.skipif(not has_nn(), reason="needs torch-nn, which is not installed")
    return [
        pytest.param(name, marks=[skip_nn] if "torch.nn" in autograd_cases.CASES[name] else [])
        for name in sorted(autograd_cases.CASES)
    ]


@pytest.mark.parametrize("name", _params())
def test_matches_pytorch(name, golden):
    expected = _cases(golden)[name]
    assert expected["code"] == autograd_cases.CASES[name], "re-record the golden file"
    got = autograd_cases.outcome(autograd_cases.CASES[name])
    check_golden_outcome(name, got, expected, _close)


def _close(a, b) -> bool:
    # floats to 1e-6 relative: NumPy's and PyTorch's float32 exp can differ in the last bit
    return close(a, b, rel_tol=1e-6)
