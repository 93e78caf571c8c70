"""The nccl backend on real GPUs (NVIDIA NCCL through CuPy): run by ``nox -s gpu``;
skipped without a CUDA device. One process forms a group of one on device 0 (NCCL
refuses two ranks on one GPU); with two devices, two processes run every collective
against real PyTorch's gloo results, and DistributedDataParallel with device_ids."""

import json
import pathlib

import dist_cases
import pytest

import torch
import torch.distributed as dist
from torch._interface import backends


def _real_devices() -> int:
    runtime = backends.cuda_runtime()
    if runtime is None or getattr(runtime, "simulated", False):
        return 0
    return runtime.device_count()


pytestmark = pytest.mark.skipif(_real_devices() == 0, reason="no real CUDA device")


def test_group_of_one_calls_nccl(needs_mpi):
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
    try:
        t = torch.arange(4.0, device="cuda")
        dist.all_reduce(t)
        dist.broadcast(t, src=0)
        parts = [torch.zeros(4, device="cuda")]
        dist.all_gather(parts, t)
        out = torch.zeros(2, device="cuda")
        dist.reduce_scatter_tensor(out, torch.arange(2.0, device="cuda"))
        work = dist.all_reduce(t, op=dist.ReduceOp.AVG, async_op=True)
        work.wait()
        assert t.tolist() == [0.0, 1.0, 2.0, 3.0] and parts[0].tolist() == t.tolist()
        assert out.tolist() == [0.0, 1.0]
        dist.barrier()
    finally:
        dist.destroy_process_group()


@pytest.mark.skipif(_real_devices() < 2, reason="needs two CUDA devices")
def test_two_processes_match_pytorch(tmp_path, needs_mpi):
    golden = json.loads((pathlib.Path(__file__).parent / "golden" / "collectives.json").read_text())
    ranks = dist_cases.run_job("collectives", 2, tmp_path, timeout=180,
                               env={"CASE_BACKEND": "nccl", "TORCH_CUDA_SIMULATE": ""})  # fmt: skip
    for rank in ranks:
        assert rank["rc"] == 0, rank["stderr"]
    for rank, result in enumerate(r["result"] for r in ranks):
        for name, value in result.items():
            if name != "backend":
                assert value == golden["2/collectives"][rank][name], (rank, name)
