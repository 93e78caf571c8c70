"""A dead rank, a hung rank and calls that disagree: errors that name the rank, on
every rank, within the group's timeout."""

import dist_cases


def test_killed_rank_is_named(tmp_path, needs_mpi):
    ranks = dist_cases.run_job("failure", 2, tmp_path, env={"FAILURE": "die", "CASE_TIMEOUT": "10"})
    assert ranks[1]["rc"] == 7
    survivor = ranks[0]["result"]
    assert survivor["error"] == "DistBackendError"
    assert "rank 1 stopped responding" in survivor["message"]
    # found by the heartbeat, well before the 10 s timeout
    assert survivor["seconds"] < 8


def test_hung_rank_is_named_after_timeout(tmp_path, needs_mpi):
    env = {"FAILURE": "hang", "CASE_TIMEOUT": "2", "HANG_SECONDS": "4"}
    ranks = dist_cases.run_job("failure", 2, tmp_path, env=env)
    survivor = ranks[0]["result"]
    assert survivor["error"] == "DistBackendError"
    assert "timed out after 2 s" in survivor["message"]
    assert "rank 1 has not called it" in survivor["message"]
    assert 1.9 < survivor["seconds"] < 4


def test_mismatched_shapes_and_dtypes_raise_on_every_rank(tmp_path, needs_mpi):
    ranks = dist_cases.run_job("mismatch", 2, tmp_path)
    for rank in ranks:
        assert rank["rc"] == 0, rank["stderr"]
        result = rank["result"]
        assert "rank 0: float32 of shape [2]" in result["shape"]
        assert "rank 1: float32 of shape [3]" in result["shape"]
        assert "float64" in result["dtype"] and "float32" in result["dtype"]
        assert result["after"] == [2.0, 2.0]
