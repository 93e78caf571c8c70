"""torch.func and torch.autograd.forward_ad snippets (func_cases.py) against what real
PyTorch 2.13 gave (golden/func_api.json, written by tools/golden/record_func.py)."""

import math

import func_cases
import pytest
from conftest import check_golden_outcome


@pytest.mark.parametrize("name", sorted(func_cases.CASES))
def test_matches_pytorch(name, golden):
    expected = golden("func_api")[name]
    assert expected["code"] == func_cases.CASES[name], "re-record the golden file"
    got = func_cases.outcome(func_cases.CASES[name])
    check_golden_outcome(name, got, expected, close)


def close(a, b) -> bool:
    """Equal, floats to 1e-9 relative and absolute (float64 cases), NaN equal to NaN; a
    tensor's dtype and shape must match."""
    if isinstance(a, float) and isinstance(b, (float, int)) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool):
            return a == b
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-9)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    return a == b
