"""torch.multiprocessing: a drop-in for Python's :mod:`multiprocessing`.

This release re-exports the standard API unchanged (tensors are pickled by value);
sharing tensor storages through shared memory arrives with the storage-sharing hooks
of ``torch._interface``.
"""

import multiprocessing as _mp
from multiprocessing import (  # noqa: F401
    Array,
    Barrier,
    Condition,
    Event,
    JoinableQueue,
    Lock,
    Manager,
    Pipe,
    Pool,
    Process,
    Queue,
    RLock,
    Semaphore,
    SimpleQueue,
    Value,
    active_children,
    cpu_count,
    current_process,
    get_all_start_methods,
    get_context,
    get_start_method,
    set_start_method,
)

from torch._interface import require_core_api

from ._version import __version__

require_core_api(0, 1, "torch-multiprocessing")

__all__ = [name for name in dir(_mp) if not name.startswith("_") and name in globals()] + [
    "__version__"
]
