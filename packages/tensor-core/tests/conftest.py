import json
import pathlib
import sys

import pytest

GOLDEN = pathlib.Path(__file__).parent / "golden"
# helpers shared with tools/golden/record.py live beside the tests
sys.path.insert(0, str(pathlib.Path(__file__).parent))


def has_autograd() -> bool:
    """Whether torch-autograd is installed (the package's own test session has only core)."""
    from torch._interface import get_grad_engine

    return get_grad_engine().available


def has_nn() -> bool:
    """Whether torch-nn is installed (golden cases written against torch.nn.functional)."""
    import importlib.util

    try:
        return importlib.util.find_spec("torch.nn") is not None
    except ModuleNotFoundError:
        return False


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "autograd: needs torch-autograd (skipped where only torch-core is installed)"
    )
    config.addinivalue_line("markers", "nn: needs torch-nn (skipped where it is not installed)")


def pytest_collection_modifyitems(config, items):
    missing = {"autograd": not has_autograd(), "nn": not has_nn()}
    for marker, absent in missing.items():
        if not absent:
            continue
        skip = pytest.mark.skip(reason=f"needs torch-{marker}, which is not installed")
        for item in items:
            if item.get_closest_marker(marker):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def golden():
    """Outputs of real PyTorch recorded by tools/golden/record.py."""

    def load(name: str):
        return json.loads((GOLDEN / f"{name}.json").read_text())

    return load
