import json
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


def check_golden_outcome(name: str, got: dict, expected: dict, close) -> None:
    """``got`` (an outcome of the snippet ``name``) matches what PyTorch recorded: the same
    error type (and message for names ending in ``!``), or a value ``close`` to it."""
    if "error" in expected:
        assert got.get("error") == expected["error"], got
        if name.endswith("!"):
            assert got["message"] == expected["message"]
        return
    assert "error" not in got, got
    assert close(got["value"], expected["value"]), (got["value"], expected["value"])


@pytest.fixture(scope="session")
def golden():
    return lambda name: json.loads((GOLDEN / f"{name}.json").read_text())
