import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long multi-process runs (nox -s distributed-slow)")


@pytest.fixture(scope="session")
def needs_mpi():
    """Multi-process tests run on MPI: skip them clearly where the mpi extra is absent."""
    import torch.distributed as dist

    if not dist.is_mpi_available():
        pytest.skip("mpi4py is not installed (pip install 'torch-distributed[mpi]')")


def pytest_collection_modifyitems(config, items):
    """``slow`` tests run only when asked for (``-m slow``: nox -s distributed-slow)."""
    if config.getoption("-m"):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow (nox -s distributed-slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
