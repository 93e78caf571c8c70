"""The nccl backend on simulated CUDA devices (``TORCH_CUDA_SIMULATE``): each process
uses the device of its LOCAL_RANK, and the collectives stage through host memory over
MPI where real GPUs call NCCL (see ``torch.distributed._nccl``). Everything but the
library calls runs: argument checks, NCCL's dtype and reduction rules, the agreement on
each call, results written on the device, DistributedDataParallel with device_ids."""

import json
import pathlib

import dist_cases
import pytest

import torch
import torch.distributed as dist
from torch import nn

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "collectives.json").read_text())
NCCL_ENV = {"CASE_BACKEND": "nccl", "TORCH_CUDA_SIMULATE": "2"}
_RUNS = {}


def _results(case, tmp_path_factory, **env):
    key = (case, tuple(sorted(env.items())))
    if key not in _RUNS:
        ranks = dist_cases.run_job(case, 2, tmp_path_factory.mktemp(case), timeout=180,
                                   env={**NCCL_ENV, **env})  # fmt: skip
        for rank in ranks:
            assert rank["rc"] == 0, rank["stderr"]
        _RUNS[key] = [rank["result"] for rank in ranks]
    return _RUNS[key]


COLLECTIVES = [k for k in GOLDEN["2/collectives"][0] if k not in ("rank", "world", "backend")]


# one test per 2-process run: under pytest-xdist, a run shared by several tests would
# be repeated by each worker
def test_collectives_on_cuda_tensors_match_pytorch(tmp_path_factory, needs_mpi):
    # the same inputs as the gloo goldens, on each rank's CUDA device
    ours = _results("collectives", tmp_path_factory)
    for name in COLLECTIVES:
        for rank in range(2):
            assert ours[rank][name] == GOLDEN["2/collectives"][rank][name], (name, rank)
    assert {r["backend"] for r in ours} == {"nccl"}


@pytest.mark.slow
def test_collectives_on_4_processes(tmp_path, needs_mpi):
    env = {"CASE_BACKEND": "nccl", "TORCH_CUDA_SIMULATE": "4"}
    ranks = dist_cases.run_job("collectives", 4, tmp_path, timeout=300, env=env)
    for rank, done in enumerate(ranks):
        assert done["rc"] == 0, done["stderr"]
        for name in COLLECTIVES:
            assert done["result"][name] == GOLDEN["4/collectives"][rank][name], (name, rank)


def test_reductions_follow_nccl_rules(tmp_path_factory, needs_mpi):
    ours = _results("reduce_ops", tmp_path_factory)
    golden = GOLDEN["2/reduce_ops"]
    for rank in range(2):
        for key, got in ours[rank].items():
            op, dtype = key.split("/")
            if op in ("BAND", "BOR", "BXOR"):
                assert got == "error: ValueError", key  # NCCL has no bitwise reductions
            elif op == "AVG" and dtype == "bool":
                assert got == "error: TypeError", key
            elif op == "AVG" and dtype in ("int32", "int64", "uint8"):
                assert got == [1, 4, 6, 5], key  # ncclAvg of integers truncates
            elif dtype in ("float16", "bfloat16"):
                assert got == pytest.approx(golden[rank][key], rel=1 / 128), key
            else:
                assert got == golden[rank][key], key


def test_ddp_with_device_ids_matches_one_process(tmp_path_factory, needs_mpi, digits_file):
    ours = _results("ddp", tmp_path_factory, DDP_VARIANTS="default,no_sync,join",
                    DIGITS_FILE=digits_file)  # fmt: skip
    for rank, result in enumerate(ours):
        assert result["device"] == f"cuda:{rank}"
        assert result["same_initial_weights"]
        assert result["default"] < 1e-5 and result["no_sync"] < 1e-5
    assert ours[0]["join"] < 1e-5


def test_mismatch_raises_on_every_rank(tmp_path_factory, needs_mpi):
    for rank, result in enumerate(_results("mismatch", tmp_path_factory)):
        assert "rank 0: float32 of shape [2]" in result["shape"]
        assert "float64" in result["dtype"] and "float32" in result["dtype"]
        assert result["after"] == [2.0, 2.0] and result["device"] == f"cuda:{rank}"


def test_killed_rank_is_named(tmp_path, needs_mpi):
    env = {**NCCL_ENV, "FAILURE": "die", "CASE_TIMEOUT": "10"}
    ranks = dist_cases.run_job("failure", 2, tmp_path, env=env)
    assert ranks[1]["rc"] == 7
    survivor = ranks[0]["result"]
    assert survivor["error"] == "DistBackendError"
    assert "rank 1 stopped responding" in survivor["message"]
    assert "backend nccl" in survivor["message"]


# ------------------------------------------------------------------- in one process
@pytest.fixture
def nccl_group(needs_mpi):
    from torch.cuda import _runtime

    with _runtime.simulated(2):
        torch.cuda.set_device(0)
        dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
        yield
        if dist.is_initialized():
            dist.destroy_process_group()


def test_world_of_one(nccl_group):
    assert dist.is_nccl_available() and dist.get_backend() == "nccl"
    t = torch.arange(3.0, device="cuda")
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    assert t.device == torch.device("cuda", 0) and t.tolist() == [0.0, 1.0, 2.0]
    objects = [None]
    dist.all_gather_object(objects, {"a": 1})  # travels in CUDA tensors
    assert objects == [{"a": 1}]
    dist.barrier()


def test_nccl_errors(nccl_group):
    with pytest.raises(RuntimeError, match="No backend type associated with device type cpu"):
        dist.all_reduce(torch.ones(2))
    with pytest.raises(TypeError, match="not supported for NCCL process group: torch.int16"):
        dist.all_reduce(torch.ones(2, dtype=torch.int16, device="cuda"))
    with pytest.raises(ValueError, match="Cannot use ReduceOp.BAND with NCCL"):
        dist.all_reduce(torch.ones(2, dtype=torch.int32, device="cuda"), op=dist.ReduceOp.BAND)
    with pytest.raises(TypeError, match="Cannot use ReduceOp.AVG with boolean inputs"):
        dist.all_reduce(torch.ones(2, dtype=torch.bool, device="cuda"), op=dist.ReduceOp.AVG)
    dist.all_reduce(torch.ones(2, device="cuda:0"))  # binds the group to cuda:0
    with pytest.raises(RuntimeError, match="runs on cuda:0; got a tensor on cuda:1"):
        dist.all_reduce(torch.ones(2, device="cuda:1"))


def test_ddp_device_ids_errors(nccl_group):
    model = nn.Linear(2, 2).to("cuda:0")
    with pytest.raises(ValueError, match="single element"):
        nn.parallel.DistributedDataParallel(model, device_ids=[0, 1])
    with pytest.raises(ValueError, match="move the module there first"):
        nn.parallel.DistributedDataParallel(model, device_ids=[1])
    ddp = nn.parallel.DistributedDataParallel(model, device_ids=[0])
    out = ddp(torch.ones(3, 2))  # the CPU batch is moved to the module's device
    assert out.device == torch.device("cuda", 0)
    out.sum().backward()
    assert model.bias.grad.device == torch.device("cuda", 0)
    assert model.bias.grad.tolist() == [3.0, 3.0]


def test_cpu_and_cuda_backends_together(needs_mpi):
    from torch.cuda import _runtime

    with _runtime.simulated(2):
        dist.init_process_group("cpu:gloo,cuda:nccl", store=dist.HashStore(), rank=0,
                                world_size=1)  # fmt: skip
        try:
            assert dist.get_backend() == "cpu:gloo,cuda:nccl"
            for device in ("cpu", "cuda:1"):
                t = torch.ones(2, device=device)
                dist.all_reduce(t)
                assert t.device == torch.device(device)
        finally:
            dist.destroy_process_group()
