"""Internals of the DataLoader: collation, fetching, worker processes.

The module paths mirror PyTorch's (``torch.utils.data._utils.collate`` and friends),
which user code sometimes imports, e.g. to extend ``default_collate_fn_map``.
"""

from . import collate, fetch, worker  # noqa: F401

# How often (seconds) a waiting process checks that its peer is still alive: a worker
# checks its parent, the main process its workers (besides the immediate notice from
# their exit sentinels).
MP_STATUS_CHECK_INTERVAL = 0.5
