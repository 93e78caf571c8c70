"""Shared fixtures of torch-jit's tests."""

from __future__ import annotations

import json
import pathlib
import sys
import warnings

import pytest

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))

# torch.jit.trace, script, freeze, save and load warn that they are deprecated (as in
# PyTorch 2.13) on every call
warnings.filterwarnings(
    "ignore", message=r"`torch\.jit\.\w+` is deprecated", category=DeprecationWarning
)


def load_golden(name: str) -> dict:
    return json.loads((HERE / "golden" / name).read_text())


@pytest.fixture(autouse=True)
def _no_trace_deprecation():
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=r"`torch\.jit\.\w+` is deprecated", category=DeprecationWarning
        )
        yield
