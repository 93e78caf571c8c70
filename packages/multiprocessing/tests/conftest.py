import gc
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from mp_helpers import leftover_segments, open_fds, wait_until  # noqa: E402


@pytest.fixture(params=["file_descriptor", "file_system"])
def strategy(request):
    import torch.multiprocessing as mp

    previous = mp.get_sharing_strategy()
    mp.set_sharing_strategy(request.param)
    yield request.param
    mp.set_sharing_strategy(previous)


@pytest.fixture
def no_leaks():
    """Nothing project-made is left in /dev/shm and no descriptor stays open after the
    test body (checked with the test's own objects gone)."""
    # warm-up: the first fd transfer starts multiprocessing's resource sharer, whose
    # listening socket stays open for the life of the process (not a leak)
    from multiprocessing.reduction import ForkingPickler

    import torch
    import torch.multiprocessing as mp

    ForkingPickler.loads(ForkingPickler.dumps(torch.ones(1)))
    # and the first named segment connects this process to the file_system tracker
    previous = mp.get_sharing_strategy()
    mp.set_sharing_strategy("file_system")
    torch.zeros(1).share_memory_()
    mp.set_sharing_strategy(previous)
    gc.collect()
    segments, fds = leftover_segments(), open_fds()
    yield
    # no new segments (those of earlier tests may still be going: the tracker unlinks
    # asynchronously)
    assert wait_until(lambda: set(leftover_segments()) <= set(segments)), leftover_segments()
    assert wait_until(lambda: open_fds() <= fds), (fds, open_fds())
