"""Datasets: the map-style :class:`Dataset`, the stream-style :class:`IterableDataset`,
and the ways to combine and split them."""

from __future__ import annotations

import bisect
import itertools
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar

import torch

__all__ = [
    "ChainDataset",
    "ConcatDataset",
    "Dataset",
    "IterableDataset",
    "StackDataset",
    "Subset",
    "TensorDataset",
    "random_split",
]

T_co = TypeVar("T_co", covariant=True)


class Dataset(Generic[T_co]):
    """A map-style dataset: a collection indexed by keys (usually ``0 .. len - 1``).

    Subclasses implement ``__getitem__`` and, for the default samplers of
    :class:`~torch.utils.data.DataLoader`, ``__len__``. They may also implement
    ``__getitems__(indices)`` to fetch a whole batch in one call. ``a + b`` chains
    two datasets into a :class:`ConcatDataset`.
    """

    def __getitem__(self, index) -> T_co:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A dataset that is a stream: subclasses implement ``__iter__``.

    With several :class:`~torch.utils.data.DataLoader` workers every worker iterates
    its own copy; use :func:`~torch.utils.data.get_worker_info` inside ``__iter__``
    (or in ``worker_init_fn``) to give each worker its own share.

    Examples::

        >>> class Numbers(IterableDataset):
        ...     def __init__(self, n):
        ...         self.n = n
        ...     def __iter__(self):
        ...         return iter(range(self.n))
        >>> [b.tolist() for b in DataLoader(Numbers(5), batch_size=2)]
        [[0, 1], [2, 3], [4]]
    """

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other: Dataset) -> ChainDataset:
        return ChainDataset([self, other])


class TensorDataset(Dataset[tuple]):
    """A dataset whose sample ``i`` is ``tuple(t[i] for t in tensors)``.

    Args:
        *tensors (Tensor): tensors with the same size in their first dim.

    Examples::

        >>> ds = TensorDataset(torch.arange(3), torch.tensor([1.0, 2.0, 3.0]))
        >>> len(ds), ds[1]
        (3, (tensor(1), tensor(2.)))
    """

    def __init__(self, *tensors: torch.Tensor) -> None:
        if not tensors:
            # PyTorch fails here with an IndexError from tensors[0]: same type, clearer words
            raise IndexError("TensorDataset needs at least one tensor (tuple index out of range)")
        first = tensors[0].size(0)
        if any(t.size(0) != first for t in tensors):
            # PyTorch raises AssertionError (it used ``assert`` before 2.x)
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class StackDataset(Dataset):
    """Zips datasets of equal length: sample ``i`` is a tuple (positional datasets) or a
    dict (keyword datasets) of their samples ``i``.

    Args:
        *args (Dataset): datasets whose samples form a tuple.
        **kwargs (Dataset): datasets whose samples form a dict under these keys.

    Examples::

        >>> StackDataset([1, 2], ["a", "b"])[1]
        (2, 'b')
        >>> StackDataset(x=[1, 2], y=["a", "b"])[0]
        {'x': 1, 'y': 'a'}
    """

    def __init__(self, *args: Dataset, **kwargs: Dataset) -> None:
        if args and kwargs:
            raise ValueError(
                "Supported either ``tuple``- (via ``args``) or"
                "``dict``- (via ``kwargs``) like input/output, but both types are given."
            )
        parts = list(args) or list(kwargs.values())
        if not parts:
            raise ValueError("At least one dataset should be passed")
        self._length = len(parts[0])
        if any(len(d) != self._length for d in parts):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args if args else kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {key: d[index] for key, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __getitems__(self, indices: list) -> list:
        # One batched fetch per part when the part supports it, else item by item.
        keyed = isinstance(self.datasets, dict)
        names = list(self.datasets) if keyed else range(len(self.datasets))
        columns = [_fetch_many(self.datasets[name], indices) for name in names]
        if keyed:
            return [dict(zip(names, row)) for row in zip(*columns)]
        return [tuple(row) for row in zip(*columns)]

    def __len__(self) -> int:
        return self._length


def _fetch_many(dataset, indices: list) -> list:
    """``dataset.__getitems__(indices)`` when defined (checked for its length), else
    one ``dataset[i]`` per index."""
    getitems = getattr(dataset, "__getitems__", None)
    if not callable(getitems):
        return [dataset[i] for i in indices]
    items = getitems(indices)
    if len(items) != len(indices):
        raise ValueError(
            f"Nested dataset's output size mismatch. Expected {len(indices)}, got {len(items)}"
        )
    return items


class ConcatDataset(Dataset):
    """The samples of several map-style datasets one after the other.

    Args:
        datasets (iterable): the datasets to concatenate (not iterable-style ones).

    Examples::

        >>> ds = ConcatDataset([[1, 2, 3], [10, 20]])
        >>> len(ds), ds[3], ds[-1], ds.cumulative_sizes
        (5, 10, 20, [3, 5])
    """

    @staticmethod
    def cumsum(sequence) -> list[int]:
        """Running totals of the lengths of ``sequence``'s datasets."""
        return list(itertools.accumulate(len(d) for d in sequence))

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


class ChainDataset(IterableDataset):
    """Iterates several iterable-style datasets one after the other (lazily).

    Args:
        datasets (iterable): the iterable-style datasets to chain.

    Examples::

        >>> class Words(IterableDataset):
        ...     def __init__(self, text):
        ...         self.words = text.split()
        ...     def __iter__(self):
        ...         yield from self.words
        ...     def __len__(self):
        ...         return len(self.words)
        >>> chain = ChainDataset([Words("a b"), Words("c d e")])
        >>> list(chain), len(chain)
        (['a', 'b', 'c', 'd', 'e'], 5)
    """

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self) -> int:
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(d)
        return total


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order.

    Args:
        dataset (Dataset): the whole dataset.
        indices (sequence): positions in ``dataset`` that make up the subset.

    Examples::

        >>> sub = Subset(["a", "b", "c", "d"], [3, 1])
        >>> len(sub), sub[0], sub.__getitems__([0, 1])
        (2, 'd', ['d', 'b'])
    """

    def __init__(self, dataset: Dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices: list) -> list:
        positions = [self.indices[i] for i in indices]
        getitems = getattr(self.dataset, "__getitems__", None)
        if callable(getitems):
            return getitems(positions)
        return [self.dataset[i] for i in positions]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Dataset, lengths: Sequence[int | float], generator=None) -> list[Subset]:
    """Split ``dataset`` at random into non-overlapping :class:`Subset` s.

    ``lengths`` are either the subset sizes (summing to ``len(dataset)``) or fractions
    summing to 1: each subset then gets ``floor(fraction * len(dataset))`` items and the
    leftover items go one by one to the subsets in turn. The order comes from
    ``torch.randperm(len(dataset), generator=generator)``, so a seeded generator gives
    the same subsets as PyTorch.

    Args:
        dataset (Dataset): the dataset to split.
        lengths (sequence): sizes or fractions of the subsets.
        generator (Generator, optional): source of the permutation; the default
            generator when ``None``.

    Returns:
        list[Subset]: one subset per entry of ``lengths``.

    Examples::

        >>> a, b = random_split(range(10), [3, 7], generator=torch.Generator().manual_seed(42))
        >>> list(a), list(b)
        ([2, 6, 1], [8, 4, 5, 0, 9, 3, 7])
        >>> [len(s) for s in random_split(range(10), [0.5, 0.3, 0.2])]
        [5, 3, 2]
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_from_fractions(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    if generator is None:
        generator = torch.default_generator
    order = torch.randperm(sum(lengths), generator=generator).tolist()
    ends = itertools.accumulate(lengths)
    return [Subset(dataset, order[end - n : end]) for end, n in zip(ends, lengths)]


def _lengths_from_fractions(total: int, fractions: Sequence[float]) -> list[int]:
    """Subset sizes for ``fractions`` of ``total`` items, the remainder dealt round-robin."""
    sizes = []
    for i, fraction in enumerate(fractions):
        if not 0 <= fraction <= 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        sizes.append(math.floor(total * fraction))
    for i in range(total - sum(sizes)):
        sizes[i % len(sizes)] += 1
    for i, size in enumerate(sizes):
        if size == 0:
            warnings.warn(
                f"Length of split at index {i} is 0. This might result in an empty dataset.",
                stacklevel=3,
            )
    return sizes
