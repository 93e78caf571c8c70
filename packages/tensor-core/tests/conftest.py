import json
import pathlib
import sys

import pytest

GOLDEN = pathlib.Path(__file__).parent / "golden"
# helpers shared with tools/golden/record.py live beside the tests
sys.path.insert(0, str(pathlib.Path(__file__).parent))


@pytest.fixture(scope="session")
def golden():
    """Outputs of real PyTorch recorded by tools/golden/record.py."""

    def load(name: str):
        return json.loads((GOLDEN / f"{name}.json").read_text())

    return load
