"""Loading MPI (mpi4py over MPICH from the ``mpi`` extra) and forming communicators.

The ``mpi`` backend uses ``MPI.COMM_WORLD`` of a job started by ``mpiexec``. The
``gloo`` backend serves processes started any other way (``torchrun``, a spawn, a
shell per rank): each is an MPI singleton, and they meet through the group's store and
join one communicator with MPI's dynamic process calls (``Open_port`` / ``Accept`` /
``Connect`` / ``Intercomm.Merge``), one rank at a time, in rank order.
"""

from __future__ import annotations

import atexit
import os
import time

from ._store import DistBackendError, Store

__all__ = ["load_mpi", "mpi_available", "world_comm", "join_by_store"]

_INSTALL_HINT = (
    "the gloo and mpi backends of torch-distributed run on MPI; install them with "
    "`pip install 'torch-distributed[mpi]'` (mpi4py and MPICH from PyPI)"
)
_MPI = None
# set once a collective failed: MPI_Finalize could then wait forever on a dead peer
_broken = False


def mpi_available() -> bool:
    """Whether mpi4py can be imported (without initialising MPI)."""
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return False
    return True


def load_mpi():
    """``mpi4py.MPI``, initialised once per process; a clear error when missing."""
    global _MPI
    if _MPI is not None:
        return _MPI
    # UCX (one of MPICH's transports) warns about harmless events on some machines
    os.environ.setdefault("UCX_LOG_LEVEL", "error")
    # UCX's glibc malloc hooks are not needed for host buffers; one heap corruption was
    # seen with them in a multi-threaded process (the heartbeat and store threads)
    os.environ.setdefault("UCX_MEM_MALLOC_HOOKS", "no")
    try:
        import mpi4py
    except ImportError:
        raise RuntimeError(_INSTALL_HINT) from None
    # we finalise ourselves, and not after a failure (see mark_broken)
    mpi4py.rc.finalize = False
    mpi4py.rc.threads = True
    from mpi4py import MPI

    MPI.COMM_WORLD.Set_errhandler(MPI.ERRORS_RETURN)
    MPI.COMM_SELF.Set_errhandler(MPI.ERRORS_RETURN)
    atexit.register(_finalize)
    _MPI = MPI
    return MPI


def mark_broken() -> None:
    """Remember that a communicator is in an unknown state (a peer died or hung)."""
    global _broken
    _broken = True


def _finalize() -> None:
    if _MPI is not None and not _broken and not _MPI.Is_finalized():
        _MPI.Finalize()


def world_comm():
    """``MPI.COMM_WORLD`` (the job of ``mpiexec``)."""
    return load_mpi().COMM_WORLD


def launched_by_mpiexec() -> bool:
    """Whether this process is one of several ranks of an ``mpiexec`` job."""
    env = os.environ
    if not any(k in env for k in ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK")):
        return False
    return load_mpi().COMM_WORLD.Get_size() > 1


def join_by_store(store: Store, rank: int, world_size: int, timeout: float):
    """An intracommunicator of ``world_size`` singleton processes, ordered by ``rank``.

    Rank 0 opens a port and publishes it; rank k connects after rank k-1 has joined
    (one at a time, since a port serves one connection at a time), and the ranks that
    already joined accept it together.
    """
    mpi = load_mpi()
    if world_size == 1:
        return mpi.COMM_SELF.Dup()
    _wait_for_everyone(store, rank, world_size, timeout)
    if rank == 0:
        port = mpi.Open_port()
        store.set("mpi/port", port)
        comm = mpi.COMM_SELF
    else:
        port = store.get("mpi/port").decode()
        if rank > 1:
            store.wait([f"mpi/joined/{rank - 1}"])
        intercomm = mpi.COMM_SELF.Connect(port, mpi.INFO_NULL, 0)
        comm = intercomm.Merge(high=True)
        intercomm.Disconnect()
        store.set(f"mpi/joined/{rank}", "1")
    for _newcomer in range(max(rank, 0) + 1, world_size):
        intercomm = comm.Accept(port if comm.Get_rank() == 0 else None, mpi.INFO_NULL, 0)
        merged = intercomm.Merge(high=False)
        intercomm.Disconnect()
        if comm is not mpi.COMM_SELF:
            comm.Free()
        comm = merged
    if rank == 0:
        mpi.Close_port(port)
    comm.Set_errhandler(mpi.ERRORS_RETURN)
    if comm.Get_rank() != rank or comm.Get_size() != world_size:
        raise DistBackendError(
            f"MPI joined rank {rank} as rank {comm.Get_rank()} of {comm.Get_size()} "
            f"(expected {world_size} ranks)"
        )
    return comm


def _wait_for_everyone(store: Store, rank: int, world_size: int, timeout: float) -> None:
    """Every rank has arrived before anyone blocks in MPI's connect/accept (which has
    no timeout of its own)."""
    store.set(f"mpi/arrived/{rank}", "1")
    deadline = time.monotonic() + timeout
    missing = list(range(world_size))
    while missing:
        missing = [r for r in missing if not store.check([f"mpi/arrived/{r}"])]
        if missing and time.monotonic() > deadline:
            raise DistBackendError(
                f"[Rank {rank}] timed out after {timeout:g} s waiting for rank(s) "
                f"{', '.join(map(str, missing))} to join the process group"
            )
        if missing:
            time.sleep(0.01)
