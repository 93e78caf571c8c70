"""The process-group API in one process (world size 1) and its argument errors."""

from datetime import timedelta

import pytest

import torch
import torch.distributed as dist


@pytest.fixture
def world_of_one():
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1,
                            timeout=timedelta(seconds=5))  # fmt: skip
    yield
    if dist.is_initialized():
        dist.destroy_process_group()


def test_not_initialized_errors():
    assert not dist.is_initialized() and dist.is_available()
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        dist.get_rank()
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        dist.all_reduce(torch.ones(1))


def test_backend_names():
    assert dist.Backend("GLOO") == "gloo" == dist.Backend.GLOO
    with pytest.raises(ValueError, match="Invalid backend: 'bogus'"):
        dist.Backend("bogus")
    assert str(dist.ReduceOp.SUM) == "RedOpType.SUM"


def test_nccl_without_gpus_is_a_clear_error():
    if torch.cuda.is_available():
        pytest.skip("a CUDA device is there")
    with pytest.raises(RuntimeError, match="only supported with GPUs, no GPUs found"):
        dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
    assert not dist.is_initialized()


def test_env_rendezvous_names_missing_variables(monkeypatch):
    for name in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ValueError, match="environment variable RANK expected"):
        dist.init_process_group("gloo")


def test_queries_and_twice(world_of_one):
    assert (dist.get_rank(), dist.get_world_size(), dist.get_backend()) == (0, 1, "gloo")
    with pytest.raises(ValueError, match="initialize the default process group twice"):
        dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    group = dist.new_group([0])
    assert dist.get_process_group_ranks(group) == [0]
    dist.destroy_process_group(group)
    dist.destroy_process_group()
    assert not dist.is_initialized()


def test_argument_errors(world_of_one):
    with pytest.raises(TypeError, match="Expected parameter `tensor` of type torch.Tensor"):
        dist.all_reduce([1.0])
    transposed = torch.arange(6.0).view(2, 3).t()  # reduced through a contiguous copy
    dist.all_reduce(transposed)
    assert transposed.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    assert transposed.stride() == (1, 3)
    with pytest.raises(ValueError, match="Global rank 3 is not part of group"):
        dist.broadcast(torch.ones(1), src=3)
    with pytest.raises(ValueError, match="same as the rank of the current process"):
        dist.send(torch.ones(1), dst=0)
    with pytest.raises(RuntimeError, match="ReduceOp.BAND needs an integer or bool tensor"):
        dist.all_reduce(torch.ones(1), op=dist.ReduceOp.BAND)


def test_world_of_one_collectives(world_of_one):
    t = torch.arange(3.0)
    work = dist.all_reduce(t, op=dist.ReduceOp.AVG, async_op=True)
    assert work.wait() and work.is_completed() and work.result()[0] is t
    assert t.tolist() == [0.0, 1.0, 2.0]
    objects = [None]
    dist.all_gather_object(objects, {"a": 1})
    assert objects == [{"a": 1}]
    dist.barrier()
    dist.monitored_barrier(timeout=timedelta(seconds=1))


def test_file_rendezvous(tmp_path):
    dist.init_process_group("gloo", init_method=f"file://{tmp_path}/rdzv", rank=0, world_size=1)
    assert dist.get_world_size() == 1
    dist.destroy_process_group()
