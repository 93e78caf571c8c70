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
