"""Samplers: the order in which a :class:`~torch.utils.data.DataLoader` visits the keys
of a map-style dataset, one key (or one batch of keys) at a time.

The random samplers draw from ``torch.randperm``, ``torch.randint`` and
``torch.multinomial`` in the same amounts and order as PyTorch's, so that the same
seed gives the same order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Generic, TypeVar

import torch

__all__ = [
    "BatchSampler",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
]

T_co = TypeVar("T_co", covariant=True)

# RandomSampler with replacement draws its indices in chunks of this many (as PyTorch
# does), which fixes how the generator's stream is consumed.
_REPLACEMENT_CHUNK = 32


class Sampler(Generic[T_co]):
    """Base class of samplers: subclasses implement ``__iter__`` (and ``__len__`` when
    the length is known).

    Args:
        data_source: ignored; accepted for compatibility with older subclasses.
    """

    def __init__(self, data_source: Sized | None = None) -> None:
        del data_source  # older PyTorch stored nothing either

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """``0, 1, ..., len(data_source) - 1``.

    Args:
        data_source (Sized): the dataset (only its length is used).

    Examples::

        >>> list(SequentialSampler("abc"))
        [0, 1, 2]
    """

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """Keys in random order: a permutation (repeated when ``num_samples`` exceeds the
    length), or ``num_samples`` independent draws with ``replacement=True``.

    Without a ``generator`` each iteration seeds a fresh generator from the default one,
    as PyTorch does, so ``torch.manual_seed`` fixes the order.

    Args:
        data_source (Sized): the dataset (only its length is used).
        replacement (bool): draw with replacement. Default: ``False``.
        num_samples (int, optional): how many keys per iteration. Default: the length.
        generator (Generator, optional): source of randomness.

    Examples::

        >>> list(RandomSampler(range(5), generator=torch.Generator().manual_seed(0)))
        [4, 0, 1, 3, 2]
        >>> g = torch.Generator().manual_seed(0)
        >>> list(RandomSampler(range(5), replacement=True, num_samples=3, generator=g))
        [4, 4, 3]
    """

    def __init__(
        self,
        data_source: Sized,
        replacement: bool = False,
        num_samples: int | None = None,
        generator=None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                "num_samples should be a positive integer value, "
                f"but got num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        """Keys drawn per iteration."""
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator if self.generator is not None else _fresh_generator()
        if self.replacement:
            yield from _draws_with_replacement(n, self.num_samples, generator)
        else:
            for _ in range(self.num_samples // n):
                yield from torch.randperm(n, generator=generator).tolist()
            yield from torch.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


def _fresh_generator() -> torch.Generator:
    """A generator seeded by one int64 draw from the default generator (PyTorch's way of
    making an unseeded sampler follow ``torch.manual_seed``)."""
    seed = int(torch.empty((), dtype=torch.int64).random_().item())
    return torch.Generator().manual_seed(seed)


def _draws_with_replacement(n: int, count: int, generator) -> Iterator[int]:
    for _ in range(count // _REPLACEMENT_CHUNK):
        chunk = torch.randint(
            high=n, size=(_REPLACEMENT_CHUNK,), dtype=torch.int64, generator=generator
        )
        yield from chunk.tolist()
    rest = torch.randint(
        high=n, size=(count % _REPLACEMENT_CHUNK,), dtype=torch.int64, generator=generator
    )
    yield from rest.tolist()


class SubsetRandomSampler(Sampler[int]):
    """The given ``indices`` in random order (a new permutation per iteration).

    Args:
        indices (sequence): the keys to sample from.
        generator (Generator, optional): source of randomness.

    Examples::

        >>> g = torch.Generator().manual_seed(0)
        >>> list(SubsetRandomSampler([10, 20, 30], generator=g))
        [30, 10, 20]
    """

    def __init__(self, indices: Sequence[int], generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in torch.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """``num_samples`` keys in ``0 .. len(weights) - 1`` drawn with probabilities
    proportional to ``weights`` (through ``torch.multinomial``).

    Args:
        weights (sequence): non-negative weights, one per key (need not sum to one).
        num_samples (int): how many keys per iteration.
        replacement (bool): draw with replacement. Default: ``True``.
        generator (Generator, optional): source of randomness.

    Examples::

        >>> g = torch.Generator().manual_seed(0)
        >>> list(WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 5, generator=g))
        [3, 3, 3, 3, 3]
    """

    def __init__(
        self, weights: Sequence[float], num_samples: int, replacement: bool = True, generator=None
    ) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer value, but got num_samples={num_samples}"
            )
        if not isinstance(replacement, bool):
            raise ValueError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        weights = torch.as_tensor(weights, dtype=torch.double)
        if weights.dim() != 1:
            raise ValueError(
                "weights should be a 1d sequence but given "
                f"weights have shape {tuple(weights.shape)}"
            )
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        drawn = torch.multinomial(
            self.weights, self.num_samples, self.replacement, generator=self.generator
        )
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list]):
    """Groups the keys of ``sampler`` into lists of ``batch_size``.

    Args:
        sampler (Sampler or Iterable): the keys to group.
        batch_size (int): keys per batch.
        drop_last (bool): drop a last batch shorter than ``batch_size``.

    Examples::

        >>> list(BatchSampler(range(7), batch_size=3, drop_last=False))
        [[0, 1, 2], [3, 4, 5], [6]]
        >>> list(BatchSampler(range(7), batch_size=3, drop_last=True))
        [[0, 1, 2], [3, 4, 5]]
    """

    def __init__(self, sampler: Sampler[int] | Iterable[int], batch_size: int, drop_last: bool):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        keys = iter(self.sampler)
        while batch := list(itertools.islice(keys, self.batch_size)):
            if self.drop_last and len(batch) < self.batch_size:
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
