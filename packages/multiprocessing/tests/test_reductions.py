"""Tensors and storages crossing processes through shared memory (reductions.py): the
early release notes' Queue and Pool examples, views, autograd flags, both strategies."""

import builtins
import multiprocessing
import pickle
from multiprocessing.reduction import ForkingPickler

import pytest
from mp_helpers import GOLDEN

import torch
import torch.multiprocessing as mp

FORK = mp.get_context("fork")


def fill_from_queue(queue, done):
    tensor = queue.get()
    tensor.fill_(10)
    done.put(tensor.is_shared())


def fill_pool(tensor):
    tensor.fill_(10)
    return tensor.sum().item()


def test_queue_example_workers_fill_buffers_the_parent_sees(strategy, no_leaks):
    # the early release notes: processes fill_(10) tensors received through a Queue
    queue, done = FORK.Queue(), FORK.Queue()
    buffers = [torch.zeros(2, 3) for _ in range(4)]
    workers = [FORK.Process(target=fill_from_queue, args=(queue, done)) for _ in buffers]
    for worker in workers:
        worker.start()
    for buffer in buffers:
        queue.put(buffer)
    assert [done.get(timeout=30) for _ in buffers] == [True] * 4
    for worker in workers:
        worker.join(30)
        assert worker.exitcode == 0
    assert all(buffer.is_shared() for buffer in buffers)
    assert [buffer.sum().item() for buffer in buffers] == [60.0] * 4
    for q in (queue, done):
        q.close()
        q.join_thread()


def test_pool_map_example(strategy, no_leaks):
    tensors = [torch.zeros(3) for _ in range(4)]
    with FORK.Pool(2) as pool:
        assert pool.map(fill_pool, tensors) == [30.0] * 4
    assert all(t.tolist() == [10.0] * 3 for t in tensors)


def write_views(pipe):
    whole, part = pipe.recv()
    again = pipe.recv()
    part.fill_(1)
    again[0, 0] = 5
    pipe.send(
        (
            whole.untyped_storage() is part.untyped_storage(),
            again.untyped_storage() is whole.untyped_storage(),
        )
    )
    pipe.send(whole)  # back to the parent: there it is the parent's own storage again
    pipe.recv()


def test_views_keep_sharing_across_processes(strategy, no_leaks):
    parent, child = FORK.Pipe()
    process = FORK.Process(target=write_views, args=(child,))
    process.start()
    base = torch.zeros(6)
    parent.send((base, base[2:4]))
    parent.send(base.view(2, 3))
    assert parent.recv() == (True, True)
    back = parent.recv()
    assert back.untyped_storage() is base.untyped_storage()
    parent.send("done")
    process.join(30)
    assert base.tolist() == [5.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    parent.close()
    child.close()


def test_sending_a_non_leaf_that_requires_grad_raises_in_the_sender():
    pytest.importorskip("torch.autograd")
    from torch._interface import get_grad_engine

    if not get_grad_engine().available:
        pytest.skip("needs torch-autograd")
    non_leaf = torch.ones(2, requires_grad=True) * 2
    expected = GOLDEN["non_leaf"]
    with pytest.raises(getattr(builtins, expected["type"])) as info:
        ForkingPickler.dumps(non_leaf)
    assert str(info.value) == expected["message"]
    # a leaf keeps requires_grad and stays a leaf; detach() makes the non-leaf sendable
    leaf = ForkingPickler.loads(ForkingPickler.dumps(torch.ones(2, requires_grad=True)))
    assert {"requires_grad": leaf.requires_grad, "is_leaf": leaf.is_leaf} == GOLDEN["leaf_rebuilt"]
    assert ForkingPickler.loads(ForkingPickler.dumps(non_leaf.detach())).tolist() == [2.0, 2.0]


def test_storages_cross_as_themselves(strategy):
    storage = torch.UntypedStorage(8)
    typed = torch.arange(3, dtype=torch.int32).storage()
    again, typed_again = ForkingPickler.loads(ForkingPickler.dumps((storage, typed)))
    # within one process the rebuilt storage is the cached original
    assert again is storage and storage.is_shared()
    assert typed_again.dtype is torch.int32 and typed_again.tolist() == [0, 1, 2]
    # empty storages are not shared (as in PyTorch): a new empty one arrives
    empty = torch.UntypedStorage(0)
    again = ForkingPickler.loads(ForkingPickler.dumps(empty))
    assert again is not empty and not again.is_shared() and not empty.is_shared()
    empty_tensor = torch.empty(0)
    assert ForkingPickler.loads(ForkingPickler.dumps(empty_tensor)).shape == (0,)
    assert not empty_tensor.is_shared()
    made_shared = torch.UntypedStorage._new_shared(4)
    assert ForkingPickler.loads(ForkingPickler.dumps(made_shared)) is made_shared


def test_plain_pickle_still_copies():
    # only ForkingPickler (processes) shares; pickle.dumps (files, torch.save) copies
    t = torch.ones(3)
    assert not pickle.loads(pickle.dumps(t)).is_shared()
    assert not t.is_shared()


def parameter_twice(queue):
    weight = queue.get()
    weight.data.mul_(2)
    queue.put(type(weight).__name__)


def test_parameters_share_through_their_data():
    nn = pytest.importorskip("torch.nn")
    weight = nn.Parameter(torch.ones(2, 2))
    queue = FORK.SimpleQueue()
    process = FORK.Process(target=parameter_twice, args=(queue,))
    process.start()
    queue.put(weight)
    process.join(30)
    assert queue.get() == "Parameter"
    assert weight.tolist() == [[2.0, 2.0], [2.0, 2.0]]


def test_drop_in_exports_the_standard_names():
    for name in ("Process", "Queue", "SimpleQueue", "Pool", "get_context", "set_start_method"):
        assert getattr(mp, name) is getattr(multiprocessing, name)
    assert set(GOLDEN["exported"]) <= set(mp.__all__)
    for name in mp.__all__:
        assert hasattr(mp, name), name


TRANSFER_DTYPES = (
    "bool",
    "uint8",
    "int16",
    "int64",
    "float16",
    "bfloat16",
    "float64",
    "complex64",
)


def describe_received(conn):
    tensors = conn.recv()
    conn.send(
        [
            [str(t.dtype), repr(t.tolist()), t.is_shared(), list(t.stride()), t.storage_offset()]
            for t in tensors
        ]
    )


def test_what_a_child_receives_as_pytorch(no_leaks):
    # the same tensors as tools/golden/record_multiprocessing.py sends under PyTorch
    tensors = [torch.ones(2, 3, dtype=getattr(torch, name)).t()[1:] for name in TRANSFER_DTYPES]
    tensors += [torch.empty(0), torch.tensor(3.5)]
    parent, child = FORK.Pipe()
    process = FORK.Process(target=describe_received, args=(child,))
    process.start()
    parent.send(tensors)
    assert parent.recv() == GOLDEN["transfer"]
    process.join(30)
    parent.close()
    child.close()
