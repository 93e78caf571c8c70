"""DistributedDataParallel on 2 processes trains the digits CNN of examples/digits (on
scikit-learn's digits) to the same weights as one process on the concatenated batches."""

import dist_cases
import pytest

import torch
import torch.distributed as dist
from torch import nn

VARIANTS = ["default", "small_buckets", "grad_as_bucket_view", "find_unused", "static_graph",
            "no_sync"]  # fmt: skip


# one test for the whole 2-process run: under pytest-xdist, a module fixture shared by
# several tests would run the job once per worker
def test_same_weights_as_one_process(tmp_path, needs_mpi, digits_file):
    ranks = dist_cases.run_job("ddp", 2, tmp_path, timeout=240, env={"DIGITS_FILE": digits_file})
    for rank in ranks:
        assert rank["rc"] == 0, rank["stderr"]
    results = [r["result"] for r in ranks]
    for result in results:
        for variant in VARIANTS:
            assert result[variant] < 1e-5, variant
        # the compression hooks average in half precision
        assert result["fp16_hook"] < 1e-3 and result["bf16_hook"] < 1e-2
        # construction broadcasts rank 0's weights
        assert result["same_initial_weights"]
    # join (uneven inputs): rank 0 ran every step, so its weights are those of the data
    assert results[0]["join"] < 1e-5


def _check_training(ranks):
    for rank in ranks:
        assert rank["rc"] == 0, rank["stderr"]
        result = rank["result"]
        for variant in ("default", "small_buckets", "no_sync", "find_unused"):
            assert result[variant] < 1e-5, variant
        assert result["fp16_hook"] < 1e-3
    assert ranks[0]["result"]["join"] < 1e-5


_CHECKED = "default,small_buckets,no_sync,find_unused,fp16_hook,join"


def test_ddp_under_mpiexec_with_the_mpi_backend(tmp_path, needs_mpi, digits_file):
    env = {"DDP_VARIANTS": _CHECKED, "DIGITS_FILE": digits_file}
    _check_training(dist_cases.run_mpiexec("ddp", 2, tmp_path, env=env))


@pytest.mark.slow
def test_ddp_on_4_processes(tmp_path, needs_mpi, digits_file):
    env = {"DIGITS_FILE": digits_file}
    _check_training(dist_cases.run_job("ddp", 4, tmp_path, timeout=600, env=env))


@pytest.mark.slow
def test_ddp_on_4_processes_under_mpiexec(tmp_path, needs_mpi, digits_file):
    env = {"DDP_VARIANTS": _CHECKED, "DIGITS_FILE": digits_file}
    _check_training(dist_cases.run_mpiexec("ddp", 4, tmp_path, timeout=600, env=env))


@pytest.fixture
def single_group():
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    yield
    dist.destroy_process_group()


def test_nn_parallel_reexport(single_group):
    assert nn.parallel.DistributedDataParallel is dist.DistributedDataParallel


def test_bad_arguments(single_group):
    frozen = nn.Linear(2, 2).requires_grad_(False)
    try:
        nn.parallel.DistributedDataParallel(frozen)
    except RuntimeError as error:
        assert "doesn't have any parameter that requires a gradient" in str(error)
    else:
        raise AssertionError("expected RuntimeError")
    with pytest.raises(ValueError, match="device_ids"):
        nn.parallel.DistributedDataParallel(nn.Linear(2, 2), device_ids=[0])
    model = nn.parallel.DistributedDataParallel(nn.Linear(2, 2))
    model.register_comm_hook(None, lambda state, bucket: None)
    with pytest.raises(RuntimeError, match="only be called once"):
        model.register_comm_hook(None, lambda state, bucket: None)


def test_unused_parameter_error(single_group):
    class TwoHeads(nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b = nn.Linear(2, 1), nn.Linear(2, 1)

        def forward(self, x):
            return self.a(x)

    model = nn.parallel.DistributedDataParallel(TwoHeads())
    model(torch.ones(1, 2)).sum().backward()
    with pytest.raises(RuntimeError, match="find_unused_parameters=True"):
        model(torch.ones(1, 2))
