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


#: what runs without MPI (the stores, the imports); everything else forms process groups
WITHOUT_MPI = ("test_store.py", "test_constants.py", "test_import.py::test_public_modules_import")


def _mpi_available() -> bool:
    import torch.distributed as dist

    return dist.is_mpi_available()


def pytest_collection_modifyitems(config, items):
    """Without the mpi extra (the contract sessions install no extras), only the tests that
    form no process group run; ``slow`` tests run only when asked for (``-m slow``: nox -s
    distributed-slow)."""
    if not _mpi_available():
        no_mpi = pytest.mark.skip(reason="needs MPI: pip install 'torch-distributed[mpi]'")
        for item in items:
            if not any(part in item.nodeid for part in WITHOUT_MPI):
                item.add_marker(no_mpi)
    if config.getoption("-m"):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow (nox -s distributed-slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def digits_file(tmp_path_factory):
    """scikit-learn's digits saved as .npz, for the ranks of the DDP runs (DIGITS_FILE):
    importing scikit-learn takes seconds, once here instead of once per rank."""
    datasets = pytest.importorskip("sklearn.datasets", reason="the digits come from scikit-learn")
    import numpy as np

    digits = datasets.load_digits()
    path = tmp_path_factory.mktemp("digits") / "digits.npz"
    np.savez(path, images=digits.images, target=digits.target)
    return str(path)
