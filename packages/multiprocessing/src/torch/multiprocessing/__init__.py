"""torch.multiprocessing: a drop-in for Python's :mod:`multiprocessing` that moves tensors
into shared memory when they cross processes.

Everything of :mod:`multiprocessing` is re-exported unchanged (``Process``, ``Queue``,
``Pool``, ``get_context``, ...). Importing this package registers pickling reducers with
``multiprocessing.reduction.ForkingPickler``: a tensor or storage put on a queue, sent
through a pipe or passed to a pool is moved to shared memory (once) and the receiver
maps the same memory, so a child's in-place writes are seen by the parent.

Examples::

    >>> mp.get_sharing_strategy()
    'file_descriptor'
    >>> t = torch.zeros(3).share_memory_()
    >>> t.is_shared()
    True
"""

import multiprocessing as _mp

from torch._interface import require_core_api, sharing

require_core_api(0, 7, "torch-multiprocessing")

from ._version import __version__  # noqa: E402
from .reductions import init_reductions  # noqa: E402
from .spawn import (  # noqa: E402
    ProcessContext,
    ProcessException,
    ProcessExitedException,
    ProcessRaisedException,
    SpawnContext,
    spawn,
    start_processes,
)

# the standard API, name for name (the functions are the default context's methods)
globals().update({name: getattr(_mp, name) for name in _mp.__all__})


def set_sharing_strategy(new_strategy: str) -> None:
    """Choose how tensors are shared from now on in this process.

    Args:
        new_strategy (str): ``"file_descriptor"`` (anonymous segments passed as file
            descriptors; the kernel frees them with their last user) or
            ``"file_system"`` (named segments in ``/dev/shm``, unlinked by a tracker
            process when their last user is gone).

    Examples::

        >>> mp.set_sharing_strategy("file_system")
        >>> mp.get_sharing_strategy()
        'file_system'
        >>> mp.set_sharing_strategy("file_descriptor")
    """
    sharing.set_sharing_strategy(new_strategy)


def get_sharing_strategy() -> str:
    """The current sharing strategy of this process."""
    return sharing.get_sharing_strategy()


def get_all_sharing_strategies() -> set:
    """The sharing strategies this platform supports.

    Examples::

        >>> sorted(mp.get_all_sharing_strategies())
        ['file_descriptor', 'file_system']
    """
    return set(sharing.STRATEGIES)


init_reductions()

__all__ = [
    "set_sharing_strategy",
    "get_sharing_strategy",
    "get_all_sharing_strategies",
    "spawn",
    "start_processes",
    "ProcessContext",
    "ProcessException",
    "ProcessExitedException",
    "ProcessRaisedException",
    "SpawnContext",
    "init_reductions",
    "__version__",
] + list(_mp.__all__)
