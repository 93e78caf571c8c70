import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from optim_testing import load_golden  # noqa: E402


@pytest.fixture(scope="session")
def golden():
    return load_golden
