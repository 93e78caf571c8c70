import pytest

import torch
from torch.utils.data import Dataset, TensorDataset


def test_tensor_dataset_indexing():
    ds = TensorDataset(torch.arange(4), torch.arange(4) * 10)
    assert len(ds) == 4
    x, y = ds[2]
    assert x.item() == 2 and y.item() == 20


def test_tensor_dataset_errors():
    with pytest.raises(AssertionError, match="Size mismatch"):
        TensorDataset(torch.zeros(2), torch.zeros(3))
    with pytest.raises(IndexError, match="at least one tensor"):
        TensorDataset()


def test_dataset_base_needs_getitem():
    with pytest.raises(NotImplementedError, match="should implement __getitem__"):
        Dataset()[0]


def test_reachable_as_attribute():
    import torch.utils

    assert torch.utils.data.TensorDataset is TensorDataset


def test_concat_and_add():
    from torch.utils.data import ConcatDataset

    ds = ConcatDataset([[1, 2], [3], [4, 5, 6]])
    assert len(ds) == 6 and [ds[i] for i in range(6)] == [1, 2, 3, 4, 5, 6]
    assert ds[-1] == 6 and ds.cumulative_sizes == [2, 3, 6]
    both = TensorDataset(torch.arange(2)) + TensorDataset(torch.arange(3))
    assert isinstance(both, ConcatDataset) and len(both) == 5


def test_chain_of_iterables_and_add():
    from torch.utils.data import ChainDataset, IterableDataset

    class Stream(IterableDataset):
        def __init__(self, items):
            self.items = items

        def __iter__(self):
            return iter(self.items)

    chained = Stream([1, 2]) + Stream([3])
    assert isinstance(chained, ChainDataset) and list(chained) == [1, 2, 3]


def test_subset_and_stack_dataset():
    from torch.utils.data import StackDataset, Subset

    sub = Subset(TensorDataset(torch.arange(5) * 10), [4, 0])
    assert len(sub) == 2 and sub[0][0].item() == 40
    assert [s[0].item() for s in sub.__getitems__([1, 0])] == [0, 40]
    stacked = StackDataset(sub, ["a", "b"])
    assert stacked[1][1] == "b" and len(stacked) == 2


def test_random_split_warns_on_empty_split_and_covers_everything():
    from torch.utils.data import random_split

    with pytest.warns(UserWarning, match="Length of split at index") as caught:
        parts = random_split(range(3), [0.9, 0.05, 0.05])
    assert [str(w.message)[:26] for w in caught] == [
        "Length of split at index 1",
        "Length of split at index 2",
    ]
    assert [len(p) for p in parts] == [3, 0, 0]
    parts = random_split(range(10), [4, 6], generator=torch.Generator().manual_seed(0))
    assert sorted(list(parts[0]) + list(parts[1])) == list(range(10))
