"""all_reduce's fast path (a blocking call reduces in the tensor's own memory, with no
work handle) keeps PyTorch's semantics: the result lands in the tensor given, for every
ReduceOp, blocking or async; views, transposed tensors, a leaf that requires grad, work
handles and futures (golden/collectives.json, from PyTorch 2.13's gloo); tensors with
gaps between elements are reduced as their elements say."""

import json
import pathlib

import dist_cases
import pytest

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "collectives.json").read_text())


@pytest.fixture(scope="module", params=[2, pytest.param(4, marks=pytest.mark.slow)])
def world(request):
    return request.param


def _run(case, world, tmp_path):
    ranks = dist_cases.run_job(case, world, tmp_path)
    for rank in ranks:
        assert rank["rc"] == 0, rank["stderr"]
    return [rank["result"] for rank in ranks]


def test_in_place_matches_pytorch(world, tmp_path, needs_mpi):
    ours = _run("in_place", world, tmp_path)
    expected = GOLDEN[f"{world}/in_place"]
    for rank in range(world):
        for key, want in expected[rank].items():
            assert ours[rank][key] == want, f"rank {rank}: {key}"
    # the blocking call returns None and leaves the data where it was (no copy)
    for op, (_, same_memory, returned_none) in ours[0]["blocking"].items():
        assert same_memory and returned_none, op


def test_tensors_with_gaps(tmp_path, needs_mpi):
    import torch

    world = 2
    ours = _run("strided", world, tmp_path)
    wholes = [torch.arange(12.0).view(3, 4) + 10 * r for r in range(world)]
    for rank in range(world):
        mine = wholes[rank].clone()
        mine[:, ::2] = sum(w[:, ::2] for w in wholes)  # only the strided columns change
        assert ours[rank]["all_reduce"][0] == mine.tolist()
        assert ours[rank]["all_reduce"][1] == mine[:, ::2].tolist()
        mine = torch.arange(12.0).view(3, 4) + rank
        mine[:, ::2] = (torch.arange(12.0).view(3, 4) + world - 1)[:, ::2]
        assert ours[rank]["broadcast"] == mine.tolist()
    root = torch.arange(12.0).view(3, 4)
    root[:, ::2] += world - 1  # MAX over ranks of (arange + rank)
    assert ours[0]["reduce"] == root.tolist()
    assert ours[1]["reduce"] == (torch.arange(12.0).view(3, 4) + 1).tolist()
