import json
import math
import pathlib
import sys

import pytest

GOLDEN = pathlib.Path(__file__).parent / "golden"
# the snippet modules shared with tools/golden/record_autograd.py
sys.path.insert(0, str(pathlib.Path(__file__).parent))


def has_nn() -> bool:
    """Whether torch-nn is installed (the package's own session has core and autograd only)."""
    try:
        import torch.nn  # noqa: F401
    except ModuleNotFoundError:
        return False
    return True


def close(a, b, rel_tol: float) -> bool:
    """Equal in nested lists and dicts, numbers with a float among them to ``rel_tol``
    relative (1e-9 absolute), NaN equal to NaN; bools compare exactly."""
    numbers = (int, float)
    if isinstance(a, float) and isinstance(b, numbers) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, numbers):
            return a == b
        return (math.isnan(a) and math.isnan(b)) or math.isclose(
            a, b, rel_tol=rel_tol, abs_tol=1e-9
        )
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, rel_tol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], rel_tol) for k in a)
    return a == b


def check_golden_outcome(name: str, got: dict, expected: dict, is_close) -> None:
    """``got`` (an outcome of the snippet ``name``) matches what PyTorch recorded: the same
    error type (and message for names ending in ``!``), or a value ``is_close`` to it."""
    if "error" in expected:
        assert got.get("error") == expected["error"], got
        if name.endswith("!"):
            assert got["message"] == expected["message"]
        return
    assert "error" not in got, got
    assert is_close(got["value"], expected["value"]), (got["value"], expected["value"])


@pytest.fixture(scope="session")
def golden():
    return lambda name: json.loads((GOLDEN / f"{name}.json").read_text())
