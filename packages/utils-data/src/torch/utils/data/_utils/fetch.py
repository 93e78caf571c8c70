"""Fetchers: turn one key (or one batch of keys) from the sampler into collated data.

The same code runs in the main process (``num_workers=0``) and in the workers.
"""

from __future__ import annotations


class _MapDatasetFetcher:
    """Indexes a map-style dataset: a batch of keys through ``__getitems__`` when the
    dataset has it, else one ``dataset[key]`` per key."""

    def __init__(self, dataset, auto_collation: bool, collate_fn, drop_last: bool) -> None:
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        getitems = getattr(dataset, "__getitems__", None)
        self._getitems = getitems if callable(getitems) else None

    def fetch(self, keys):
        if not self.auto_collation:
            return self.collate_fn(self.dataset[keys])
        if self._getitems is not None:
            return self.collate_fn(self._getitems(keys))
        dataset = self.dataset
        return self.collate_fn([dataset[k] for k in keys])


class _IterableDatasetFetcher:
    """Pulls samples from an iterable-style dataset; raises StopIteration once the
    stream is exhausted (or when only a short last batch is left and ``drop_last``)."""

    def __init__(self, dataset, auto_collation: bool, collate_fn, drop_last: bool) -> None:
        self.stream = iter(dataset)
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.ended = False

    def fetch(self, keys):
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.stream))
        samples = []
        for _ in keys:
            try:
                samples.append(next(self.stream))
            except StopIteration:
                self.ended = True
                break
        if not samples or (self.drop_last and len(samples) < len(keys)):
            raise StopIteration
        return self.collate_fn(samples)


def create_fetcher(iterable: bool, dataset, auto_collation: bool, collate_fn, drop_last: bool):
    """The fetcher for ``dataset``'s kind."""
    kind = _IterableDatasetFetcher if iterable else _MapDatasetFetcher
    return kind(dataset, auto_collation, collate_fn, drop_last)
