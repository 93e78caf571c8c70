"""torch.func and torch.autograd.forward_ad snippets (func_cases.py) against what real
PyTorch 2.13 gave (golden/func_api.json, written by tools/golden/record_func.py)."""

import func_cases
import pytest
from conftest import check_golden_outcome, close


@pytest.mark.parametrize("name", sorted(func_cases.CASES))
def test_matches_pytorch(name, golden):
    expected = golden("func_api")[name]
    assert expected["code"] == func_cases.CASES[name], "re-record the golden file"
    got = func_cases.outcome(func_cases.CASES[name])
    check_golden_outcome(name, got, expected, _close)


def _close(a, b) -> bool:
    return close(a, b, rel_tol=1e-7)  # float64 cases
