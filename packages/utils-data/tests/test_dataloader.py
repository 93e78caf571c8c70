"""DataLoader in the main process: batching options, collate functions, lengths,
iterable datasets and warnings (worker processes: test_workers.py)."""

import collections
import pickle

import numpy as np
import pytest

import torch
from torch.utils.data import (
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    TensorDataset,
    default_collate,
)


class Squares(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": np.float32(i), "y": i * i}


class Count(IterableDataset):
    def __init__(self, n, length=None):
        self.n, self.length = n, length

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.length if self.length is not None else self.n


def test_batches_and_last_batch():
    ds = TensorDataset(torch.arange(7))
    assert [b[0].tolist() for b in DataLoader(ds, batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b[0].tolist() for b in DataLoader(ds, batch_size=3, drop_last=True)] == [
        [0, 1, 2],
        [3, 4, 5],
    ]
    assert len(DataLoader(ds, batch_size=3)) == 3


def test_dict_samples_collate_to_dict_of_batches():
    (batch,) = list(DataLoader(Squares(), batch_size=5))
    assert batch["x"].dtype == torch.float32 and batch["y"].tolist() == [0, 1, 4, 9, 16]


def test_unbatched_uses_default_convert():
    items = list(DataLoader(Squares(), batch_size=None))
    assert isinstance(items[2]["x"], torch.Tensor) and items[2]["y"] == 4


def test_custom_collate_and_batch_sampler():
    loader = DataLoader(range(6), batch_sampler=[[5, 1], [0]], collate_fn=lambda b: sum(b))
    assert list(loader) == [6, 0]
    assert len(loader) == 2 and loader.batch_size is None


def test_getitems_is_used_for_whole_batches():
    class Batched(Dataset):
        calls = []

        def __len__(self):
            return 4

        def __getitem__(self, i):
            raise AssertionError("should fetch through __getitems__")

        def __getitems__(self, keys):
            self.calls.append(keys)
            return [k * 10 for k in keys]

    assert [b.tolist() for b in DataLoader(Batched(), batch_size=3)] == [[0, 10, 20], [30]]
    assert Batched.calls == [[0, 1, 2], [3]]


def test_shuffle_follows_manual_seed_and_generator():
    ds = range(20)
    torch.manual_seed(1)
    first = [b.tolist() for b in DataLoader(ds, batch_size=5, shuffle=True)]
    torch.manual_seed(1)
    again = [b.tolist() for b in DataLoader(ds, batch_size=5, shuffle=True)]
    assert first == again and sorted(sum(first, [])) == list(range(20))
    g1, g2 = (torch.Generator().manual_seed(3) for _ in range(2))
    a = [b.tolist() for b in DataLoader(ds, batch_size=5, shuffle=True, generator=g1)]
    b = [b.tolist() for b in DataLoader(ds, batch_size=5, shuffle=True, generator=g2)]
    assert a == b


def test_iterable_dataset_batches_and_length_warning():
    loader = DataLoader(Count(5, length=2), batch_size=2)
    assert len(loader) == 1
    with pytest.warns(UserWarning, match="was reported to be 2"):
        assert [b.tolist() for b in loader] == [[0, 1], [2, 3], [4]]
    assert [b.tolist() for b in DataLoader(Count(5), batch_size=2, drop_last=True)] == [
        [0, 1],
        [2, 3],
    ]


def test_pin_memory_is_a_noop_with_a_warning():
    with pytest.warns(UserWarning, match="no accelerator is found"):
        (batch,) = list(DataLoader(TensorDataset(torch.ones(2)), batch_size=2, pin_memory=True))
    assert batch[0].tolist() == [1.0, 1.0]


def test_too_many_workers_warns():
    with pytest.warns(UserWarning, match="worker processes in total"):
        DataLoader(range(3), num_workers=10_000)


def test_iterator_cannot_be_pickled():
    with pytest.raises(NotImplementedError, match="cannot be pickled"):
        pickle.dumps(iter(DataLoader(range(3))))


def test_multiprocessing_context_attribute():
    loader = DataLoader(range(3), num_workers=1, multiprocessing_context="spawn")
    assert loader.multiprocessing_context.get_start_method() == "spawn"
    assert DataLoader(range(3)).multiprocessing_context is None


def test_collate_sequence_types_keep_their_type():
    class MyList(list):
        pass

    out = default_collate([MyList([1, 2]), MyList([3, 4])])
    assert type(out) is MyList and [t.tolist() for t in out] == [[1, 3], [2, 4]]
    Pair = collections.namedtuple("Pair", "a b")
    out = default_collate([Pair(1, "x"), Pair(2, "y")])
    assert type(out) is Pair and out.b == ("x", "y")


def test_collate_refuses_sparse_tensors():
    sparse = torch.eye(2).to_sparse()
    with pytest.raises(RuntimeError, match="sparse tensors are not currently supported"):
        default_collate([sparse, sparse])


def test_base_seed_draw_keeps_rng_in_step_without_workers():
    # Creating an iterator draws one int64 from the generator (as PyTorch does), so
    # the draws after it match PyTorch's too (values checked in test_golden).
    torch.manual_seed(0)
    iter(DataLoader(range(3)))
    after_iter = torch.rand(1).item()
    torch.manual_seed(0)
    torch.empty((), dtype=torch.int64).random_()
    assert torch.rand(1).item() == after_iter


def test_random_sampler_epochs_are_new_permutations():
    sampler = RandomSampler(range(6), generator=torch.Generator().manual_seed(0))
    first, second = list(sampler), list(sampler)
    assert sorted(first) == sorted(second) == list(range(6)) and first != second


def test_collate_of_tensors_requiring_grad_is_recorded():
    pytest.importorskip("torch.autograd")
    leaves = [torch.ones(2, requires_grad=True), torch.zeros(2, requires_grad=True)]
    batch = default_collate(leaves)
    assert batch.requires_grad and batch.grad_fn is not None
    batch.sum().backward()
    assert leaves[0].grad.tolist() == [1.0, 1.0]


def test_collate_stacks_strided_views():
    base = torch.arange(12.0).reshape(3, 4)
    batch = default_collate([base[:, 1], base.t()[2], base[1, :3]])
    assert batch.tolist() == [[1.0, 5.0, 9.0], [2.0, 6.0, 10.0], [4.0, 5.0, 6.0]]
    assert batch.is_contiguous()


def test_iterator_classes_at_pytorchs_module_path():
    # lightning imports them from torch.utils.data.dataloader
    from torch.utils.data import _iterators, dataloader

    assert dataloader._BaseDataLoaderIter is _iterators._BaseDataLoaderIter
    assert issubclass(dataloader._MultiProcessingDataLoaderIter, dataloader._BaseDataLoaderIter)
    assert issubclass(dataloader._SingleProcessDataLoaderIter, dataloader._BaseDataLoaderIter)
