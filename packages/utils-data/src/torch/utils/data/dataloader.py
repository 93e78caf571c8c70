"""DataLoader: batches from a dataset, loaded in the main process or in worker
processes."""

from __future__ import annotations

import math
import multiprocessing
import os
import warnings

from . import _utils  # noqa: F401  (makes torch.utils.data._utils.* importable)

# the iterator classes at PyTorch's module path too (lightning imports them from here)
from ._iterators import (
    _BaseDataLoaderIter,  # noqa: F401
    _MultiProcessingDataLoaderIter,
    _SingleProcessDataLoaderIter,
)
from ._utils.collate import default_collate, default_convert
from ._utils.worker import get_worker_info
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

# Attributes that define the batches; changing them after construction would make
# ``len(loader)`` and the iterators disagree, so PyTorch forbids it.
_FROZEN_ATTRIBUTES = frozenset(
    ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")
)


class _InfiniteConstantSampler:
    """The keys of an iterable-style dataset: ``None`` forever (the dataset decides
    when the stream ends)."""

    def __iter__(self):
        while True:
            yield None


class DataLoader:
    """Iterates over a dataset in batches, optionally loading them in worker processes.

    Map-style datasets are visited in the order of ``sampler`` (sequential, or random
    with ``shuffle=True``), grouped by ``batch_size`` (or by a ``batch_sampler``) and
    merged by ``collate_fn``. Iterable-style datasets are streamed; with workers each
    worker streams its own copy (shard it with
    :func:`~torch.utils.data.get_worker_info`).

    With ``num_workers > 0`` the batches are produced by that many processes, handed out
    round-robin, and yielded in sampler order (or as they arrive with
    ``in_order=False``). An exception in a worker is raised again in the main process
    with its type, message and the worker's traceback; a worker that dies makes the
    iteration raise RuntimeError naming its pid and exit code or signal; workers exit
    when the main process dies. Worker ``i`` seeds ``random``, ``torch`` and NumPy
    from ``base_seed + i``, where ``base_seed`` is drawn from ``generator`` (or the
    default generator) when the iteration starts, as in PyTorch.

    Args:
        dataset (Dataset): the data.
        batch_size (int, optional): samples per batch; ``None`` yields single samples
            (converted by ``collate_fn``). Default: ``1``.
        shuffle (bool, optional): visit a map-style dataset in a new random order each
            epoch. Default: ``False``.
        sampler (Sampler or Iterable, optional): the order of the keys (excludes
            ``shuffle``).
        batch_sampler (Sampler or Iterable, optional): yields whole lists of keys
            (excludes ``batch_size``, ``shuffle``, ``sampler`` and ``drop_last``).
        num_workers (int): worker processes; ``0`` loads in the main process.
            Default: ``0``.
        collate_fn (Callable, optional): merges a list of samples into a batch.
            Default: :func:`~torch.utils.data.default_collate` (or
            :func:`~torch.utils.data.default_convert` without batching).
        pin_memory (bool): copy batches into page-locked memory for faster transfer to
            an accelerator; a no-op (with a warning) on a CPU-only build.
            Default: ``False``.
        drop_last (bool): drop the last batch when it is short. Default: ``False``.
        timeout (float): seconds to wait for a batch from the workers before raising
            RuntimeError (raised at once; the workers are then stopped, terminated if
            they do not stop within a moment); ``0`` waits forever. Default: ``0``.
        worker_init_fn (Callable, optional): called with the worker id in each worker,
            after seeding and before loading.
        multiprocessing_context (str or multiprocessing context, optional): start
            method (``"fork"``, ``"spawn"``, ``"forkserver"``) or context of the workers.
        generator (Generator, optional): source of ``base_seed`` and of the default
            random sampler's order.
        prefetch_factor (int, optional): batches requested in advance per worker.
            Default: ``2`` with workers (and must stay ``None`` without).
        persistent_workers (bool): keep the workers alive between epochs.
            Default: ``False``.
        pin_memory_device (str): deprecated; ignored. Default: ``""``.
        in_order (bool): yield batches in sampler order; ``False`` yields them as they
            arrive. Default: ``True``.

    Examples::

        >>> ds = TensorDataset(torch.arange(5.0), torch.arange(5))
        >>> for x, y in DataLoader(ds, batch_size=2):
        ...     print(x, y)
        tensor([0., 1.]) tensor([0, 1])
        tensor([2., 3.]) tensor([2, 3])
        tensor([4.]) tensor([4])
        >>> len(DataLoader(ds, batch_size=2, drop_last=True))
        2
    """

    _initialized = False

    def __init__(
        self,
        dataset,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler=None,
        batch_sampler=None,
        num_workers: int = 0,
        collate_fn=None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn=None,
        multiprocessing_context=None,
        generator=None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        prefetch_factor = _check_worker_options(
            num_workers, timeout, prefetch_factor, persistent_workers
        )
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        iterable = isinstance(dataset, IterableDataset)
        if iterable:
            _check_iterable_options(shuffle, sampler, batch_sampler)
        else:
            shuffle = bool(shuffle)
        self._iterable = iterable
        batch_size, drop_last = _check_batching_options(
            batch_size, shuffle, sampler, batch_sampler, drop_last
        )
        if sampler is None:
            if iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._IterableDataset_len_called = None
        self._iterator = None
        self._initialized = True
        self.check_worker_number_rationality()

    # -- attributes ---------------------------------------------------------------

    @property
    def multiprocessing_context(self):
        """The multiprocessing context of the workers (``None``: torch.multiprocessing)."""
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context) -> None:
        self._multiprocessing_context = _resolve_context(context, self.num_workers)

    def __setattr__(self, name: str, value) -> None:
        if self._initialized and name in _FROZEN_ATTRIBUTES:
            raise ValueError(
                f"{name} attribute should not be set after {type(self).__name__} is initialized"
            )
        super().__setattr__(name, value)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        """What the iterators draw keys from: the batch sampler when batching."""
        return self.batch_sampler if self._auto_collation else self.sampler

    # -- iteration -------------------------------------------------------------------

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            # the workers are reused, unless a failure shut them down
            if self._iterator is None or self._iterator._workers.closed:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    def __len__(self) -> int:
        if not self._iterable:
            return len(self._index_sampler)
        # an iterable dataset's own length, in batches; remembered to warn when the
        # iteration then yields more (e.g. workers that were not given shards)
        length = self._IterableDataset_len_called = len(self.dataset)
        if self.batch_size is not None:
            if self.drop_last:
                return length // self.batch_size
            return math.ceil(length / self.batch_size)
        return length

    def check_worker_number_rationality(self) -> None:
        """Warn when more workers are requested than CPUs are available to this
        process."""
        if not self.num_workers:
            return
        available = _usable_cpus()
        if self.num_workers > available:
            warnings.warn(
                f"This DataLoader will create {self.num_workers} worker processes in total. "
                f"Our suggested max number of worker in current system is {available}, which "
                "is smaller than what this DataLoader is going to create. Please be aware "
                "that excessive worker creation might get DataLoader running slow or even "
                "freeze, lower the worker number to avoid potential slowness/freeze if "
                "necessary.",
                stacklevel=2,
            )


def _usable_cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers):
    """PyTorch's checks of the worker options; returns the effective prefetch factor."""
    if num_workers < 0:
        raise ValueError(
            "num_workers option should be non-negative; "
            "use num_workers=0 to disable multiprocessing."
        )
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError(
            "prefetch_factor option could only be specified in multiprocessing."
            "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor "
            "to None."
        )
    if num_workers > 0 and prefetch_factor is None:
        prefetch_factor = 2
    elif prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")
    return prefetch_factor


def _check_iterable_options(shuffle, sampler, batch_sampler) -> None:
    # Keys mean nothing to a stream, so custom samplers are refused.
    if shuffle not in {False, None}:
        raise ValueError(
            "DataLoader with IterableDataset: expected unspecified shuffle option, "
            f"but got shuffle={shuffle}"
        )
    if sampler is not None:
        raise ValueError(
            "DataLoader with IterableDataset: expected unspecified sampler option, "
            f"but got sampler={sampler}"
        )
    if batch_sampler is not None:
        raise ValueError(
            "DataLoader with IterableDataset: expected unspecified batch_sampler option, "
            f"but got batch_sampler={batch_sampler}"
        )


def _check_batching_options(batch_size, shuffle, sampler, batch_sampler, drop_last):
    """PyTorch's exclusions between the batching options; returns the effective
    ``(batch_size, drop_last)``."""
    if sampler is not None and shuffle:
        raise ValueError("sampler option is mutually exclusive with shuffle")
    if batch_sampler is not None:
        if batch_size != 1 or shuffle or sampler is not None or drop_last:
            raise ValueError(
                "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                "sampler, and drop_last"
            )
        return None, False
    if batch_size is None and drop_last:
        raise ValueError(
            "batch_size=None option disables auto-batching and is mutually exclusive with drop_last"
        )
    return batch_size, drop_last


def _resolve_context(context, num_workers: int):
    """A start-method name becomes its context; anything else must be a context."""
    if context is None:
        return None
    if num_workers <= 0:
        raise ValueError(
            "multiprocessing_context can only be used with multi-process loading "
            f"(num_workers > 0), but got num_workers={num_workers}"
        )
    if isinstance(context, str):
        methods = multiprocessing.get_all_start_methods()
        if context not in methods:
            raise ValueError(
                "multiprocessing_context option should specify a valid start method in "
                f"{methods!r}, but got multiprocessing_context={context!r}"
            )
        context = multiprocessing.get_context(context)
    if not isinstance(context, multiprocessing.context.BaseContext):
        raise TypeError(
            "multiprocessing_context option should be a valid context object or a string "
            f"specifying the start method, but got multiprocessing_context={context}"
        )
    return context
