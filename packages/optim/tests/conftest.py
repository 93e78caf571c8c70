import json
import pathlib

import pytest

GOLDEN = pathlib.Path(__file__).parent / "golden"


@pytest.fixture(scope="session")
def golden():
    return lambda name: json.loads((GOLDEN / f"{name}.json").read_text())
