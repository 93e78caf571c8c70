"""``torch.cuda.comm`` and ``torch.cuda.nccl`` on two simulated devices, and what they do
without CUDA."""

from __future__ import annotations

import warnings

import pytest

import torch
import torch.cuda.comm as comm
import torch.cuda.nccl as nccl
from torch.cuda import _runtime


@pytest.fixture
def rt():
    with _runtime.simulated(2) as runtime:
        yield runtime


def test_broadcast(rt):
    x = torch.arange(6.0).reshape(2, 3).cuda(0)
    copies = comm.broadcast(x, [0, 1])
    assert copies[0] is x and copies[1].device.index == 1
    assert torch.equal(copies[1].cpu(), x.cpu())
    out = [torch.empty(2, 3, device="cuda:0"), torch.empty(2, 3, device="cuda:1")]
    assert comm.broadcast(x, out=out)[1] is out[1] and torch.equal(out[1].cpu(), x.cpu())
    with pytest.raises(RuntimeError, match="Exactly one of 'devices' and 'out'"):
        comm.broadcast(x)
    with pytest.raises(RuntimeError, match="output tensor at index 0 has device 'cpu'"):
        comm.broadcast(x, out=[torch.empty(2, 3)])
    assert [t.device.index for t in comm.broadcast(torch.ones(2), [1, 0])] == [1, 0]


def test_broadcast_coalesced(rt):
    tensors = [torch.ones(2, device="cuda:0"), torch.arange(3, device="cuda:0")]
    result = comm.broadcast_coalesced(tensors, [0, 1])
    assert result[0][0] is tensors[0] and [t.device.index for t in result[1]] == [1, 1]
    assert result[1][1].dtype == torch.int64
    with pytest.raises(RuntimeError, match="All tensors must be on devices\\[0\\]"):
        comm.broadcast_coalesced(tensors, [1, 0])


def test_reduce_add(rt):
    xs = [torch.ones(2, 2, device="cuda:0"), torch.full((2, 2), 2.0, device="cuda:1")]
    total = comm.reduce_add(xs, destination=1)
    assert total.device.index == 1 and total.cpu().tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert comm.reduce_add(xs).device.index == 0  # the current device
    with pytest.raises(ValueError, match="input 1 has invalid size: got 3, but expected 2x2"):
        comm.reduce_add([xs[0], torch.ones(3, device="cuda:1")])
    with pytest.raises(AssertionError, match="but input 0 is on CPU"):
        comm.reduce_add([torch.ones(2), xs[1]])
    sums = comm.reduce_add_coalesced([[xs[0], xs[0] * 2], [xs[1], xs[1]]], destination=0)
    assert [s.cpu()[0, 0].item() for s in sums] == [3.0, 4.0]


def test_scatter_and_gather(rt):
    x = torch.arange(10.0).reshape(5, 2)
    pieces = comm.scatter(x, [0, 1])
    assert [p.shape[0] for p in pieces] == [3, 2] and [p.get_device() for p in pieces] == [0, 1]
    sized = comm.scatter(x, [0, 1], chunk_sizes=[1, 4])
    assert [p.shape[0] for p in sized] == [1, 4]
    columns = comm.scatter(x, [0, 1], dim=1)
    assert columns[1].shape == (5, 1) and columns[1].is_contiguous()
    with pytest.raises(RuntimeError, match="Expected chunk sizes to sum to 5"):
        comm.scatter(x, [0, 1], chunk_sizes=[1, 1])
    assert torch.equal(comm.gather(pieces, destination="cpu"), x)
    assert comm.gather(pieces, destination=1).device.index == 1
    assert comm.gather(pieces).device.index == 0
    with pytest.warns(FutureWarning, match="Using -1 to represent CPU tensor is deprecated"):
        assert comm.gather(pieces, destination=-1).device.type == "cpu"
    with pytest.raises(RuntimeError, match="tensor at index 1 has device 'cpu'"):
        comm.gather([pieces[0], x])
    out = torch.empty(5, 2, device="cuda:1")
    assert comm.gather(pieces, out=out) is out and torch.equal(out.cpu(), x)


@pytest.mark.autograd
def test_comm_is_differentiable(rt):
    x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    pieces = comm.scatter(x, [0, 1])
    (comm.gather([p * 2 for p in pieces], destination="cpu").sum()).backward()
    assert torch.equal(x.grad, torch.full((4, 3), 2.0, dtype=torch.float64))


def _per_device(values):
    return [torch.tensor(v, device=f"cuda:{i}") for i, v in enumerate(values)]


def test_nccl_collectives(rt):
    xs = _per_device([[1.0, 2.0], [3.0, 4.0]])
    assert nccl.is_available(xs) and not nccl.is_available([xs[0], xs[0]])
    nccl.all_reduce(xs)
    assert [x.cpu().tolist() for x in xs] == [[4.0, 6.0], [4.0, 6.0]]
    xs = _per_device([[1.0, 5.0], [3.0, 4.0]])
    nccl.all_reduce(xs, op=2)  # ncclMax
    assert xs[1].cpu().tolist() == [3.0, 5.0]
    xs = _per_device([[1.0, 2.0], [3.0, 4.0]])
    nccl.reduce(xs, root=1)
    assert xs[1].cpu().tolist() == [4.0, 6.0] and xs[0].cpu().tolist() == [1.0, 2.0]
    xs = _per_device([[1.0, 2.0], [3.0, 4.0]])
    nccl.broadcast(xs, root=1)
    assert xs[0].cpu().tolist() == [3.0, 4.0]
    xs = _per_device([[1.0, 2.0], [3.0, 4.0]])
    outs = [torch.empty(4, device=f"cuda:{i}") for i in range(2)]
    nccl.all_gather(xs, outs)
    assert outs[0].cpu().tolist() == [1.0, 2.0, 3.0, 4.0] == outs[1].cpu().tolist()
    outs = [torch.empty(1, device=f"cuda:{i}") for i in range(2)]
    nccl.reduce_scatter(xs, outs)
    assert [o.item() for o in outs] == [4.0, 6.0]
    assert nccl.version() == (0, 0, 0) and len(nccl.unique_id()) == 128


def test_nccl_checks_its_inputs(rt):
    with pytest.raises(TypeError, match="Inputs should be a collection of tensors"):
        nccl.all_reduce(torch.ones(2, device="cuda:0"))
    with pytest.raises(RuntimeError, match="inputs must be on unique devices"):
        nccl.all_reduce([torch.ones(2, device="cuda:0"), torch.ones(2, device="cuda:0")])
    with pytest.raises(TypeError, match="input must be a CUDA tensor"):
        nccl.all_reduce([torch.ones(2)])
    with pytest.raises(ValueError, match="output must be of size input_size \\* num_devices"):
        nccl.all_gather(_per_device([[1.0], [2.0]]), [torch.empty(1, device="cuda:0")])
    xs = _per_device([[1.0], [2.0]])
    with pytest.warns(FutureWarning, match="deprecated"):
        nccl.reduce(xs, outputs=xs)
    with pytest.raises(RuntimeError, match="simulated CUDA devices have no multi-process"):
        nccl.init_rank(2, nccl.unique_id(), 0)


def test_without_cuda():
    if _runtime.get() is not None:
        pytest.skip("a CUDA runtime is active")
    x = torch.ones(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert nccl.is_available([x]) is False
    assert "PyTorch is not compiled with NCCL support" in str(caught[0].message)
    with pytest.raises(AssertionError, match="reduce_add expects all inputs to be on GPUs"):
        comm.reduce_add([x, x])
    for call in (lambda: comm.broadcast(x, [0]), lambda: nccl.all_reduce([x])):
        with pytest.raises(RuntimeError, match="Torch not compiled with CUDA enabled"):
            call()
    assert sorted(comm.__all__) == [
        "broadcast", "broadcast_coalesced", "gather", "reduce_add", "reduce_add_coalesced",
        "scatter",
    ]  # fmt: skip
    assert sorted(nccl.__all__) == [
        "all_gather", "all_reduce", "broadcast", "reduce", "reduce_scatter",
    ]  # fmt: skip
