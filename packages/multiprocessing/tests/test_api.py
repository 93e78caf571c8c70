import multiprocessing

import torch.multiprocessing as mp


def _square(x):
    return x * x


def test_drop_in_names():
    for name in ("Process", "Queue", "SimpleQueue", "Pool", "get_context", "set_start_method"):
        assert getattr(mp, name) is getattr(multiprocessing, name)
    assert "Process" in mp.__all__


def test_pool_runs_work_in_children():
    with mp.get_context("spawn").Pool(2) as pool:
        assert pool.map(_square, [1, 2, 3]) == [1, 4, 9]
