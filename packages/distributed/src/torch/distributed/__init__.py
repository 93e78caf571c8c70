"""torch.distributed: process groups, collectives, stores and DistributedDataParallel.

Processes meet through a store (:class:`TCPStore`, :class:`FileStore`) named by
``init_process_group``'s ``init_method``, then run collectives (``all_reduce``,
``broadcast``, ...). The ``gloo`` and ``mpi`` backends take CPU tensors and run on
MPI (mpi4py and MPICH, the ``mpi`` extra): ``gloo`` for processes started any way
(``torchrun``, a spawn), ``mpi`` for jobs started by ``mpiexec``. ``nccl`` takes CUDA
tensors and runs on NVIDIA NCCL (the ``cuda12`` extra; on simulated devices, staged
through host memory). ``python -m torch.distributed.run`` (``torchrun``) starts
the processes; :class:`DistributedDataParallel` trains a module on all of them.
"""

from torch._interface import require_core_api

from ._collectives import *  # noqa: F403
from ._collectives import __all__ as _collectives_all
from ._file_store import FileStore
from ._object_collectives import *  # noqa: F403
from ._object_collectives import __all__ as _object_all
from ._reduce_op import ReduceOp
from ._store import (
    DistBackendError,
    DistError,
    DistNetworkError,
    DistStoreError,
    HashStore,
    PrefixStore,
    Store,
)
from ._tcp_store import TCPStore
from ._version import __version__
from ._work import Future, Work
from .distributed_c10d import *  # noqa: F403
from .distributed_c10d import __all__ as _c10d_all

require_core_api(0, 7, "torch-distributed")


def __getattr__(name: str):
    # DistributedDataParallel imports torch.nn and torch.autograd: only when asked for
    if name == "DistributedDataParallel":
        from .ddp import DistributedDataParallel

        return DistributedDataParallel
    raise AttributeError(f"module 'torch.distributed' has no attribute '{name}'")


__all__ = [
    *_c10d_all,
    *_collectives_all,
    *_object_all,
    "ReduceOp",
    "Work",
    "Future",
    "Store",
    "HashStore",
    "PrefixStore",
    "FileStore",
    "TCPStore",
    "DistError",
    "DistBackendError",
    "DistNetworkError",
    "DistStoreError",
    "DistributedDataParallel",  # noqa: F405  (module __getattr__)
    "__version__",
]
