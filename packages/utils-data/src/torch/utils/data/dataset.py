"""Map-style datasets."""

from __future__ import annotations

import torch

__all__ = ["Dataset", "TensorDataset"]


class Dataset:
    """A map-style dataset: subclasses implement ``__getitem__`` (and usually
    ``__len__``)."""

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must implement __getitem__")

    def __add__(self, other):
        raise NotImplementedError("ConcatDataset arrives with the next torch-utils-data release")


class TensorDataset(Dataset):
    """A dataset whose sample ``i`` is ``tuple(t[i] for t in tensors)``.

    Args:
        *tensors (Tensor): tensors with the same size in their first dim.

    Examples::

        >>> import torch
        >>> from torch.utils.data import TensorDataset
        >>> ds = TensorDataset(torch.arange(3), torch.tensor([1.0, 2.0, 3.0]))
        >>> len(ds), ds[1]
        (3, (tensor(1), tensor(2.)))
    """

    def __init__(self, *tensors: torch.Tensor) -> None:
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        first = tensors[0].size(0)
        if any(t.size(0) != first for t in tensors):
            raise ValueError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)
