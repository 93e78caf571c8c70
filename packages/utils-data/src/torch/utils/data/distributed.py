"""DistributedSampler: one process's share of a dataset when several processes train
together."""

from __future__ import annotations

import math
from collections.abc import Iterator

import torch

from .sampler import Sampler

__all__ = ["DistributedSampler"]


class DistributedSampler(Sampler[int]):
    """The keys that replica ``rank`` of ``num_replicas`` visits: every
    ``num_replicas``-th key of a (shuffled) order, padded by repeating keys so that all
    replicas get the same count, or trimmed with ``drop_last``.

    The shuffled order depends only on ``seed + epoch``: call :meth:`set_epoch` at the
    start of each epoch so that the replicas agree on a new order.

    Args:
        dataset (Dataset): the dataset (only its length is used).
        num_replicas (int, optional): number of processes. Default: the world size of
            ``torch.distributed``, which must then be available.
        rank (int, optional): this process's rank in ``[0, num_replicas - 1]``.
            Default: the rank in ``torch.distributed``.
        shuffle (bool): shuffle the keys. Default: ``True``.
        seed (int): seed of the shuffle, the same in all replicas. Default: ``0``.
        drop_last (bool): drop the tail instead of padding. Default: ``False``.

    Examples::

        >>> from torch.utils.data.distributed import DistributedSampler
        >>> list(DistributedSampler(range(5), num_replicas=2, rank=1, shuffle=False))
        [1, 3, 0]
    """

    def __init__(
        self,
        dataset,
        num_replicas: int | None = None,
        rank: int | None = None,
        shuffle: bool = True,
        seed: int = 0,
        drop_last: bool = False,
    ) -> None:
        if num_replicas is None:
            num_replicas = _distributed().get_world_size()
        if rank is None:
            rank = _distributed().get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(
                f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]"
            )
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        size = len(dataset)
        if drop_last and size % num_replicas != 0:
            self.num_samples = math.ceil((size - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(size / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[int]:
        size = len(self.dataset)
        if self.shuffle:
            generator = torch.Generator().manual_seed(self.seed + self.epoch)
            keys = torch.randperm(size, generator=generator).tolist()
        else:
            keys = list(range(size))
        if self.drop_last:
            keys = keys[: self.total_size]
        else:
            missing = self.total_size - len(keys)
            keys += (keys * math.ceil(missing / len(keys)))[:missing] if missing else []
        return iter(keys[self.rank : self.total_size : self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Make the next iteration use the order of ``epoch`` (with ``shuffle=True``).

        Args:
            epoch (int): the epoch number, the same in every replica.
        """
        self.epoch = epoch


def _distributed():
    """``torch.distributed`` when installed and available, else PyTorch's error."""
    try:
        import torch.distributed as dist
    except ImportError:
        dist = None
    if dist is None or not dist.is_available():
        raise RuntimeError("Requires distributed package to be available")
    return dist
