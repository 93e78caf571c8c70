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
