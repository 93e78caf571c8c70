import multiprocessing

import torch.multiprocessing as mp


def test_drop_in_names():
    for name in ("Process", "Queue", "SimpleQueue", "Pool", "get_context", "set_start_method"):
        assert getattr(mp, name) is getattr(multiprocessing, name)
    assert "Process" in mp.__all__


def test_pool_runs_work_in_children():
    # a builtin: spawned children must be able to import the function by name
    with mp.get_context("spawn").Pool(2) as pool:
        assert pool.map(abs, [-1, 2, -3], chunksize=1) == [1, 2, 3]
