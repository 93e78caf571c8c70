import json
import pathlib

import pytest

GOLDEN = pathlib.Path(__file__).parent / "golden"


@pytest.fixture(scope="session")
def golden():
    """Outputs of real PyTorch recorded by tools/golden/record.py."""

    def load(name: str):
        return json.loads((GOLDEN / f"{name}.json").read_text())

    return load
