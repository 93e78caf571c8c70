"""torch.distributed.nn.functional.all_reduce and torch-nn's SyncBatchNorm on 2
processes, against BatchNorm2d on the whole batch."""

import dist_cases
import pytest


@pytest.mark.parametrize("world", [2])
def test_sync_batch_norm_matches_batch_norm_on_the_whole_batch(world, tmp_path, needs_mpi):
    ranks = dist_cases.run_job("sync_batch_norm", world, tmp_path)
    for rank in ranks:
        assert rank["rc"] == 0, rank["stderr"]
        for name, difference in rank["result"].items():
            assert difference < 1e-12, name
