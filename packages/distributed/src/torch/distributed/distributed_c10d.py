"""Process groups: creating, querying and destroying them.

The default group is made by :func:`init_process_group`; :func:`new_group` makes
subgroups of it. Each group is a :class:`ProcessGroup` over an MPI communicator
(``_mpi_group.MPIGroup``), which serves CPU tensors (backends ``gloo`` and ``mpi``);
with the ``nccl`` backend an ``_nccl.NcclGroup`` on top of it serves CUDA tensors. The
collectives themselves are in ``_collectives.py``.
"""

from __future__ import annotations

import os
import socket
import warnings
from datetime import timedelta

import torch
from torch._interface import backends

from . import _mpi
from ._health import Heartbeat
from ._mpi_group import MPIGroup
from ._nccl import NcclGroup
from ._store import PrefixStore, Store
from ._tcp_store import TCPStore
from .rendezvous import rendezvous

__all__ = [
    "Backend",
    "GroupMember",
    "group",
    "ProcessGroup",
    "default_pg_timeout",
    "init_process_group",
    "is_initialized",
    "is_available",
    "is_mpi_available",
    "is_gloo_available",
    "is_nccl_available",
    "is_torchelastic_launched",
    "get_rank",
    "get_world_size",
    "get_backend",
    "get_process_group_ranks",
    "get_global_rank",
    "get_group_rank",
    "new_group",
    "destroy_process_group",
]

default_pg_timeout = timedelta(minutes=30)
# which device types each backend serves
_DEVICES = {"gloo": "cpu", "mpi": "cpu", "nccl": "cuda"}


class Backend(str):
    """A backend's name: ``Backend.GLOO``, ``Backend.MPI``, ``Backend.NCCL``.

    ``Backend("GLOO")`` gives ``"gloo"``; an unknown name raises ``ValueError``.

    Examples::

        >>> import torch.distributed as dist
        >>> dist.Backend("GLOO") == dist.Backend.GLOO
        True
    """

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    MPI = "mpi"
    backend_list = [UNDEFINED, GLOO, NCCL, MPI]

    def __new__(cls, name: str):
        if not isinstance(name, str):
            raise ValueError(f"Backend constructor parameter must be string-ish, but got: {name}")
        value = name.lower()
        if value not in cls.backend_list and ":" not in value:  # "cpu:gloo,cuda:nccl"
            raise ValueError(f"Invalid backend: '{name}'")
        return str.__new__(cls, value)


class ProcessGroup:
    """A group of ranks that run collectives together."""

    def __init__(self, impl: MPIGroup, global_ranks: list[int], backend: str, store,
                 devices: dict | None = None, device_id: int | None = None) -> None:  # fmt: skip
        self._impl = impl  # the MPI communicator: ranks, agreement, health
        self._global_ranks = global_ranks
        self._backend = backend
        self._store = store
        devices = devices or {"cpu": backend}
        # the backend of each device type the group serves
        self._impls: dict = {}
        if "cpu" in devices:
            self._impls["cpu"] = impl
        if "cuda" in devices:
            self._impls["cuda"] = NcclGroup(impl, PrefixStore("nccl", impl.store), device_id)

    def _internal_device(self):
        """Where the group's own small tensors go (object collectives, join flags): the
        CPU, or the CUDA device of an nccl-only group."""
        if "cpu" in self._impls:
            return torch.device("cpu")
        nccl = self._impls["cuda"]
        index = torch.cuda.current_device() if nccl.device is None else nccl.device
        return torch.device("cuda", index)

    def _free(self) -> None:
        for impl in self._impls.values():
            if impl is not self._impl:
                impl.free()
        self._impl.free()

    def rank(self) -> int:
        """This process's rank in the group."""
        return self._impl.rank

    def size(self) -> int:
        """How many ranks the group has."""
        return self._impl.size

    def name(self) -> str:
        """The backend's name (as PyTorch's ``ProcessGroup.name()``)."""
        return self._backend

    @property
    def group_name(self) -> str:
        """The group's unique name."""
        return self._impl.name

    def __repr__(self) -> str:
        return f"<ProcessGroup {self._impl.name!r} ranks={self._global_ranks} {self._backend}>"


class _NonMember:
    """What :func:`new_group` returns to the ranks it leaves out."""

    def __repr__(self) -> str:
        return "GroupMember.NON_GROUP_MEMBER"


class GroupMember:
    """``WORLD`` (the default group, once initialised) and ``NON_GROUP_MEMBER``."""

    WORLD: ProcessGroup | None = None
    NON_GROUP_MEMBER = _NonMember()


class group:  # noqa: N801  (PyTorch's name)
    """``group.WORLD``: the default process group."""

    WORLD: ProcessGroup | None = None


class _State:
    """This process's groups: the default one, its store and the heartbeat."""

    def __init__(self) -> None:
        self.default: ProcessGroup | None = None
        self.world_store: Store | None = None
        self.heartbeat: Heartbeat | None = None
        self.groups: dict[str, ProcessGroup] = {}
        self.group_count = 0


_state = _State()


# ------------------------------------------------------------------------------ queries
def is_available() -> bool:
    """Whether torch.distributed can be used (always, once this package is installed)."""
    return True


def is_mpi_available() -> bool:
    """Whether the ``mpi`` backend can run (mpi4py importable)."""
    return _mpi.mpi_available()


def is_gloo_available() -> bool:
    """Whether the ``gloo`` backend can run (it runs on MPI here)."""
    return _mpi.mpi_available()


def is_nccl_available() -> bool:
    """Whether the ``nccl`` backend can run: it is built; it needs MPI (mpi4py) for its
    host side and CUDA devices (CuPy, or simulated ones) for its tensors."""
    return _mpi.mpi_available()


def is_torchelastic_launched() -> bool:
    """Whether this process was started by ``torchrun``."""
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def is_initialized() -> bool:
    """Whether the default process group exists."""
    return _state.default is not None


def _default() -> ProcessGroup:
    if _state.default is None:
        raise ValueError(
            "Default process group has not been initialized, please make sure to call "
            "init_process_group."
        )
    return _state.default


def _resolve(group) -> ProcessGroup:
    """The group a collective runs on (``None`` and ``group.WORLD``: the default)."""
    if group is None or group is GroupMember.WORLD:
        return _default()
    if group is GroupMember.NON_GROUP_MEMBER:
        raise ValueError("Invalid process group specified")
    if not isinstance(group, ProcessGroup):
        raise TypeError(f"group must be a ProcessGroup, got {type(group).__name__}")
    return group


def get_rank(group=None) -> int:
    """This process's rank in ``group`` (the default group); -1 if not a member."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return _resolve(group).rank()


def get_world_size(group=None) -> int:
    """How many ranks ``group`` (the default group) has; -1 if not a member."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return _resolve(group).size()


def get_backend(group=None) -> Backend:
    """The backend name of ``group`` (the default group): ``"gloo"``, ``"nccl"``,
    ``"mpi"`` or a device list such as ``"cpu:gloo,cuda:nccl"``."""
    return Backend(_resolve(group)._backend)


def get_process_group_ranks(group) -> list[int]:
    """The global ranks of ``group``'s members, in group-rank order."""
    return list(_resolve(group)._global_ranks)


def get_global_rank(group, group_rank: int) -> int:
    """The global rank of ``group_rank`` of ``group``."""
    ranks = _resolve(group)._global_ranks
    if not 0 <= group_rank < len(ranks):
        raise ValueError(f"Group rank {group_rank} is not part of group {group}")
    return ranks[group_rank]


def get_group_rank(group, global_rank: int) -> int:
    """The rank in ``group`` of the process with global rank ``global_rank``."""
    ranks = _resolve(group)._global_ranks
    if global_rank not in ranks:
        raise ValueError(f"Global rank {global_rank} is not part of group {group}")
    return ranks.index(global_rank)


# --------------------------------------------------------------------------- creation
def _timeout_seconds(timeout) -> float:
    if timeout is None:
        return default_pg_timeout.total_seconds()
    if not isinstance(timeout, timedelta):
        raise TypeError(
            f"Expected timeout argument to be of type datetime.timedelta, got {timeout}"
        )
    return timeout.total_seconds()


def _heartbeat_interval(timeout: float) -> float:
    return min(1.0, max(timeout / 10, 0.05))


def _backend_config(backend) -> tuple[str, dict[str, str]]:
    """The backend's name and the backend of each device type it serves:
    ``"nccl"`` -> ``{"cuda": "nccl"}``, ``"cpu:gloo,cuda:nccl"`` -> both."""
    if backend is None:
        return Backend.GLOO, {"cpu": Backend.GLOO}
    name = Backend(str(backend))
    if name == Backend.UNDEFINED:
        raise ValueError("Invalid backend: 'undefined'")
    if ":" not in name:
        return name, {_DEVICES[name]: name}
    devices = {}
    for part in name.split(","):
        device, _, value = part.partition(":")
        value = Backend(value.strip())
        if _DEVICES.get(value) != device.strip():
            raise ValueError(
                f"Invalid backend string {name!r}: {value} does not serve {device.strip()} "
                "tensors here (cpu: gloo or mpi; cuda: nccl)"
            )
        devices[device.strip()] = value
    return name, devices


def init_process_group(
    backend=None,
    init_method: str | None = None,
    timeout: timedelta | None = None,
    world_size: int = -1,
    rank: int = -1,
    store: Store | None = None,
    group_name: str = "",
    pg_options=None,
    device_id=None,
) -> None:
    """Create the default process group; every process of the job calls it.

    Args:
        backend (str, optional): ``"gloo"`` (the default; CPU tensors, on MPI),
            ``"mpi"`` (a job started by ``mpiexec``), ``"nccl"`` (CUDA tensors, on
            NVIDIA NCCL; each process uses one device, usually its ``LOCAL_RANK``) or
            a device list such as ``"cpu:gloo,cuda:nccl"``.
        init_method (str, optional): how the processes meet: ``"env://"`` (the
            default), ``"tcp://host:port"`` or ``"file:///path"``. Exclusive with ``store``.
        timeout (timedelta, optional): how long a collective may wait for the others
            before raising. Default: 30 minutes.
        world_size (int), rank (int): required with ``store`` and ``tcp://``/``file://``.
        store (Store, optional): a store every process can reach.
        device_id (torch.device or int, optional): the CUDA device of this process
            for the ``nccl`` backend (default: the device of its first CUDA tensor).
        group_name, pg_options: accepted for compatibility.

    Examples::

        >>> import torch, torch.distributed as dist
        >>> dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
        >>> t = torch.ones(2)
        >>> dist.all_reduce(t)
        >>> t
        tensor([1., 1.])
        >>> dist.destroy_process_group()
    """
    if _state.default is not None:
        raise ValueError("trying to initialize the default process group twice!")
    name, devices = _backend_config(backend)
    if "cuda" in devices and backends.cuda_runtime() is None:
        raise RuntimeError("ProcessGroupNCCL is only supported with GPUs, no GPUs found!")
    seconds = _timeout_seconds(timeout)
    if devices.get("cpu") == Backend.MPI:
        store, rank, world_size = _mpi_job_store(seconds)
    elif store is None:
        store, rank, world_size = rendezvous(
            init_method or "env://", rank, world_size, timedelta(seconds=seconds)
        )
    else:
        if init_method is not None:
            raise ValueError("Cannot specify both init_method and store.")
        if world_size <= 0:
            raise ValueError("world_size must be positive if using store")
        if rank < 0:
            raise ValueError("rank must be non-negative if using store")
    _check_rank(rank, world_size)
    # a store reused by a later init keeps the old keys: each init gets its own prefix
    generation = store.add(f"generation/{rank}", 1)
    world_store = PrefixStore(f"init{generation}", store)
    comm = _world_comm(devices.get("cpu"), world_store, rank, world_size, seconds)
    heartbeat = Heartbeat(world_store, rank, _heartbeat_interval(seconds))
    impl = MPIGroup(comm, PrefixStore("0", world_store), heartbeat, world_store,
                    list(range(world_size)), "0", seconds, name)  # fmt: skip
    pg = ProcessGroup(impl, list(range(world_size)), name, store, devices,
                      _device_index(device_id))  # fmt: skip
    _state.default, _state.world_store, _state.heartbeat = pg, world_store, heartbeat
    _state.groups = {"0": pg}
    _state.group_count = 1
    GroupMember.WORLD = group.WORLD = pg


def _check_rank(rank: int, world_size: int) -> None:
    if world_size <= 0:
        raise ValueError(f"world_size must be positive, got {world_size}")
    if not 0 <= rank < world_size:
        raise ValueError(f"rank must be in [0, {world_size}), got {rank}")


def _device_index(device_id) -> int | None:
    """The CUDA device index of ``init_process_group(device_id=...)`` (None: unset)."""
    if device_id is None:
        return None
    device = torch.device(device_id) if not isinstance(device_id, int) else None
    if device is None:
        return device_id
    if device.type != "cuda":
        raise ValueError(f"device_id must be a CUDA device, got {device_id}")
    return torch.cuda.current_device() if device.index is None else device.index


def _world_comm(name: str | None, store: Store, rank: int, world_size: int, seconds: float):
    """The communicator of the default group (``name``: the CPU backend, if any)."""
    if name == Backend.MPI:
        return _mpi.world_comm().Dup()
    if _mpi.launched_by_mpiexec():
        world = _mpi.world_comm()
        if world.Get_size() == world_size and world.Get_rank() == rank:
            return world.Dup()  # started by mpiexec: no need to join by hand
    return _mpi.join_by_store(store, rank, world_size, seconds)


def _mpi_job_store(seconds: float):
    """The ``mpi`` backend's ranks come from ``mpiexec``; rank 0 serves a store (for
    heartbeats and monitored_barrier) whose address it broadcasts."""
    world = _mpi.world_comm()
    rank, size = world.Get_rank(), world.Get_size()
    host = os.environ.get("MASTER_ADDR") or socket.gethostname()
    timeout = timedelta(seconds=seconds)
    store = TCPStore(host, 0, size, True, timeout, wait_for_workers=False) if rank == 0 else None
    address = world.bcast((host, store.port) if store else None, root=0)
    if store is None:
        store = TCPStore(address[0], address[1], size, False, timeout)
    return store, rank, size


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None, device_id=None):  # fmt: skip
    """A group of the ranks ``ranks`` (all of them by default); every rank of the
    default group must call it, in the same order as the others. Ranks left out get
    ``GroupMember.NON_GROUP_MEMBER``.

    Examples::

        >>> import torch.distributed as dist
        >>> dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
        >>> g = dist.new_group([0])
        >>> dist.get_world_size(g)
        1
        >>> dist.destroy_process_group()
    """
    world = _default()
    ranks = sorted(range(world.size())) if ranks is None else sorted(int(r) for r in ranks)
    for r in ranks:
        if not 0 <= r < world.size():
            raise ValueError(f"Invalid rank {r}, it should be in [0, {world.size()})")
    name = str(_state.group_count)
    _state.group_count += 1
    world_impl = world._impl
    mpi_group = world_impl.comm.Get_group().Incl(ranks)
    comm = world_impl.comm.Create(mpi_group)
    mpi_group.Free()
    if comm == _mpi.load_mpi().COMM_NULL:
        return GroupMember.NON_GROUP_MEMBER
    comm.Set_errhandler(_mpi.load_mpi().ERRORS_RETURN)
    seconds = world_impl.timeout if timeout is None else _timeout_seconds(timeout)
    store = PrefixStore(name, _state.world_store)
    if backend is None:
        backend_name, devices = world._backend, {k: world._backend for k in world._impls}
        if ":" in backend_name:
            devices = _backend_config(backend_name)[1]
    else:
        backend_name, devices = _backend_config(backend)
    impl = MPIGroup(comm, store, _state.heartbeat, _state.world_store, ranks, name, seconds,
                    backend_name)  # fmt: skip
    nccl = world._impls.get("cuda")
    pg = ProcessGroup(impl, ranks, backend_name, store, devices,
                      _device_index(device_id) if device_id is not None
                      else nccl.device if nccl is not None else None)  # fmt: skip
    _state.groups[name] = pg
    return pg


def destroy_process_group(group=None) -> None:
    """Destroy ``group``, or every group (the default one included) when None."""
    if group is None or group is GroupMember.WORLD:
        if _state.default is None:
            raise ValueError("Default process group has not been initialized, please make "
                             "sure to call init_process_group.")  # fmt: skip
        for pg in _state.groups.values():
            pg._free()
        if _state.heartbeat is not None:
            _state.heartbeat.stop()
        _state.__init__()
        GroupMember.WORLD = group_ns_reset()
        return
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    pg = _resolve(group)
    pg._free()
    _state.groups.pop(pg.group_name, None)


def group_ns_reset():
    """Forget ``group.WORLD`` (after destroying the default group)."""
    group.WORLD = None
    return None


def _warn_non_member(what: str) -> None:
    warnings.warn(f"Running {what} on global rank {get_rank()} which does not belong to the "
                  "given group.", stacklevel=3)  # fmt: skip
