import json
import pathlib
import sys

import pytest

GOLDEN = pathlib.Path(__file__).parent / "golden"
# the snippet modules shared with tools/golden/record_autograd.py
sys.path.insert(0, str(pathlib.Path(__file__).parent))


@pytest.fixture(scope="session")
def golden():
    return lambda name: json.loads((GOLDEN / f"{name}.json").read_text())
