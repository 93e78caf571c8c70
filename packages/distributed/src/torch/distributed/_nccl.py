"""The ``nccl`` backend: collectives on CUDA tensors.

A group of the nccl backend has two parts:

- the group's MPI communicator (an ``MPIGroup``, made as for the gloo backend): before
  each collective the ranks agree on the call over it, so that a mismatch raises on
  every rank, and waiting polls under the group's timeout and the peers' heartbeats, so
  that a dead or hung rank is named;
- a transport that moves the device data, chosen by ``torch.cuda``'s runtime:

  * :class:`NcclTransport` on real GPUs: one NCCL communicator per group
    (``torch.cuda.nccl.init_rank``: CuPy's ``NcclCommunicator``), made on the group's
    first collective from a unique id that rank 0 publishes in the group's store. Each
    call is enqueued on the current stream of the group's device; waiting polls a CUDA
    event recorded after it.
  * :class:`StagedTransport` on simulated devices (``TORCH_CUDA_SIMULATE=N``, which have
    no NCCL library): the device tensors are copied to host memory, the MPI collective
    runs on the copies, and the results are copied back onto the device.

Everything above the transport (argument checks, NCCL's dtype and reduction rules, the
agreement, binding the group to one device, the block layouts of gather, scatter and
all-to-all) is shared, so CI runs it on simulated devices; only the library calls of
:class:`NcclTransport` need a GPU.
"""

from __future__ import annotations

import numpy as np

import torch
from torch._interface import backends

from ._mpi_group import MPIGroup
from ._reduce_op import ReduceOp
from ._store import DistBackendError, Store
from ._work import Work

__all__ = ["NcclGroup", "NcclTransport", "StagedTransport", "nccl_reduction"]

R = ReduceOp.RedOpType
# ncclDataType_t of the dtypes PyTorch's NCCL backend takes (bool travels as uint8;
# complex tensors are reduced as pairs of their real type)
_NCCL_TYPES = {
    "int8": 0, "uint8": 1, "bool": 1, "int32": 2, "int64": 4, "float16": 6, "float32": 7,
    "float64": 8, "bfloat16": 9,
}  # fmt: skip
_COMPLEX_PARTS = {"complex64": "float32", "complex128": "float64"}
_NCCL_UINT8 = 1
# ncclRedOp_t
_NCCL_OPS = {R.SUM: 0, R.PRODUCT: 1, R.MAX: 2, R.MIN: 3, R.AVG: 4}
_UNIQUE_ID_KEY = "nccl/unique_id"
_NUMPY_DTYPES: dict = {}  # torch dtype -> numpy dtype, filled on first use


def _numpy_dtype(dtype) -> np.dtype:
    found = _NUMPY_DTYPES.get(dtype)
    if found is None:
        found = _NUMPY_DTYPES[dtype] = torch.empty(0, dtype=dtype).numpy().dtype
    return found


def _type_name(tensor) -> str:
    return str(tensor.dtype).removeprefix("torch.")


def check_nccl_dtype(tensor) -> None:
    """PyTorch's NCCL backend takes these dtypes only (any collective)."""
    name = _type_name(tensor)
    if name not in _NCCL_TYPES and name not in _COMPLEX_PARTS:
        raise TypeError(
            f"Input tensor data type is not supported for NCCL process group: {tensor.dtype}"
        )


def nccl_reduction(op: R, tensor, what: str) -> int:
    """The ncclRedOp_t of ``op`` on ``tensor``'s dtype, with PyTorch's errors."""
    name = _type_name(tensor)
    if name == "bool":
        if op == R.SUM:
            return _NCCL_OPS[R.MAX]  # a sum of bools is their OR (uint8 would overflow)
        if op == R.AVG:
            raise TypeError("Cannot use ReduceOp.AVG with boolean inputs")
    if name in _COMPLEX_PARTS and op not in (R.SUM, R.AVG):
        raise RuntimeError(f"{what} does not support ReduceOp.{op.name} on complex tensors")
    if op not in _NCCL_OPS:
        raise ValueError(f"Cannot use ReduceOp.{op.name} with NCCL")
    return _NCCL_OPS[op]


class _Described:
    """What the agreement exchange reads of a tensor: dtype (NumPy's), ndim, shape."""

    def __init__(self, tensor) -> None:
        self.dtype = _numpy_dtype(tensor.dtype)
        self.shape = tuple(tensor.shape)
        self.ndim = len(self.shape)


class NcclGroup:
    """The CUDA side of one process group (see the module's doc).

    Args:
        side: the group's ``MPIGroup`` (agreement, timeouts, peer health).
        store: the group's store (the NCCL unique id goes through it).
        device: the CUDA device index of this rank, or None to take the device of the
            first tensor a collective gets.
    """

    def __init__(self, side: MPIGroup, store: Store, device: int | None = None) -> None:
        self.side = side
        self.store = store
        self.device = device
        self._transport = None

    # -- what the group is ----------------------------------------------------------
    @property
    def rank(self) -> int:
        return self.side.rank

    @property
    def size(self) -> int:
        return self.side.size

    @staticmethod
    def buffer(tensor):
        """What the collectives take: the tensor itself (on its device)."""
        return tensor.detach()

    def _bind(self, *tensors):
        """The transport, once the tensors are checked to be on this rank's device."""
        for tensor in tensors:
            if tensor is None:
                continue
            check_nccl_dtype(tensor)
            index = tensor.device.index
            if self.device is None:
                self.device = index
            if index != self.device:
                raise RuntimeError(
                    f"the nccl process group '{self.side.name}' of rank "
                    f"{self.side.global_ranks[self.rank]} runs on cuda:{self.device}; got "
                    f"a tensor on cuda:{index} (call torch.cuda.set_device(LOCAL_RANK) "
                    "before the first collective, or pass device_id to init_process_group)"
                )
        if self._transport is None:
            self._transport = self._make_transport()
        return self._transport

    def _make_transport(self):
        runtime = backends.cuda_runtime()
        if runtime is None:
            raise RuntimeError("the nccl backend needs CUDA devices: none is available")
        if getattr(runtime, "simulated", False):
            return StagedTransport(self.side)
        return NcclTransport(self.side, self.store, self.device)

    # -- the collectives (tensors are contiguous, on the group's device) -------------
    def barrier(self) -> Work:
        if self.device is not None:
            torch.cuda.synchronize(self.device)  # this rank's queued work is done
        return self.side.barrier()

    def all_reduce(self, tensor, op: R) -> Work:
        transport = self._bind(tensor)
        code = nccl_reduction(op, tensor, "all_reduce")
        self.side.agree("all_reduce", _Described(tensor), op=int(op))
        return transport.all_reduce(tensor, op, code)

    def all_reduce_and_wait(self, tensor, op: R) -> None:
        self.all_reduce(tensor, op).wait()

    def reduce(self, tensor, root: int, op: R) -> Work:
        transport = self._bind(tensor)
        code = nccl_reduction(op, tensor, "reduce")
        self.side.agree("reduce", _Described(tensor), root=root, op=int(op))
        return transport.reduce(tensor, root, op, code)

    def broadcast(self, tensor, root: int) -> Work:
        transport = self._bind(tensor)
        self.side.agree("broadcast", _Described(tensor), root=root)
        return transport.broadcast(tensor, root)

    def all_gather(self, output, tensor) -> Work:
        transport = self._bind(output, tensor)
        self.side.agree("all_gather", _Described(tensor))
        return transport.all_gather(output, tensor)

    def gather(self, output, tensor, root: int) -> Work:
        transport = self._bind(output, tensor)
        self.side.agree("gather", _Described(tensor), root=root)
        return transport.gather(output, tensor, root)

    def scatter(self, output, source, root: int) -> Work:
        transport = self._bind(output, source)
        self.side.agree("scatter", _Described(output), root=root)
        return transport.scatter(output, source, root)

    def reduce_scatter(self, output, source, op: R) -> Work:
        transport = self._bind(output, source)
        code = nccl_reduction(op, output, "reduce_scatter")
        self.side.agree("reduce_scatter", _Described(output), op=int(op))
        return transport.reduce_scatter(output, source, op, code)

    def all_to_all(self, output, source, send_counts, recv_counts,
                   kind: str = "all_to_all_single") -> Work:  # fmt: skip
        transport = self._bind(output, source)
        self.side.agree(kind, _Described(source), shape_may_differ=True)
        return transport.all_to_all(output, source, send_counts, recv_counts, kind)

    def send(self, tensor, dst: int, tag: int) -> Work:
        self.side._check_usable("send")
        return self._bind(tensor).send(tensor, dst, tag)

    def recv(self, tensor, src: int | None, tag: int) -> tuple[Work, list]:
        self.side._check_usable("recv")
        if src is None:
            raise RuntimeError("the nccl backend cannot receive from any source: name src")
        return self._bind(tensor).recv(tensor, src, tag)

    def free(self) -> None:
        if self._transport is not None:
            self._transport.close()
            self._transport = None


# ------------------------------------------------------------------------- transports
def _then(work: Work, after, result=None) -> Work:
    def wait():
        work.wait()
        after()

    return Work(work.is_completed, wait, result)


class StagedTransport:
    """Simulated devices: each collective copies its device tensors to host memory,
    runs the group's MPI collective on the copies (the call was agreed already) and
    copies the results back onto the device."""

    def __init__(self, side: MPIGroup) -> None:
        self.side = side

    @staticmethod
    def _host(tensor) -> np.ndarray:
        return tensor.cpu().numpy()  # a device-to-host copy

    @staticmethod
    def _back(pairs):
        """A function that copies each host array into its device tensor."""

        def copy_back():
            with torch.no_grad():
                for tensor, host in pairs:
                    tensor.copy_(torch.from_numpy(host).view(tensor.shape))

        return copy_back

    def all_reduce(self, tensor, op: R, code: int) -> Work:
        host = self._host(tensor)
        work = self.side.all_reduce(host, op, agreed=True)
        return _then(work, self._back([(tensor, host)]))

    def reduce(self, tensor, root: int, op: R, code: int) -> Work:
        host = self._host(tensor)
        work = self.side.reduce(host, root, op, agreed=True)
        pairs = [(tensor, host)] if self.side.rank == root else []
        return _then(work, self._back(pairs))

    def broadcast(self, tensor, root: int) -> Work:
        host = self._host(tensor)
        work = self.side.broadcast(host, root, agreed=True)
        return _then(work, self._back([(tensor, host)]))

    def all_gather(self, output, tensor) -> Work:
        host = self._host(output)
        work = self.side.all_gather(host, self._host(tensor), agreed=True)
        return _then(work, self._back([(output, host)]))

    def gather(self, output, tensor, root: int) -> Work:
        host = self._host(output) if output is not None else None
        work = self.side.gather(host, self._host(tensor), root, agreed=True)
        return _then(work, self._back([(output, host)] if host is not None else []))

    def scatter(self, output, source, root: int) -> Work:
        host = self._host(output)
        sent = self._host(source) if source is not None else None
        work = self.side.scatter(host, sent, root, agreed=True)
        return _then(work, self._back([(output, host)]))

    def reduce_scatter(self, output, source, op: R, code: int) -> Work:
        host = self._host(output)
        work = self.side.reduce_scatter(host, self._host(source), op, agreed=True)
        return _then(work, self._back([(output, host)]))

    def all_to_all(self, output, source, send_counts, recv_counts, kind: str) -> Work:
        host = self._host(output)
        work = self.side.all_to_all(host, self._host(source), send_counts, recv_counts,
                                    kind, agreed=True)  # fmt: skip
        return _then(work, self._back([(output, host)]))

    def send(self, tensor, dst: int, tag: int) -> Work:
        return self.side.send(self._host(tensor), dst, tag)

    def recv(self, tensor, src: int, tag: int) -> tuple[Work, list]:
        host = self._host(tensor)
        work, sender = self.side.recv(host, src, tag)
        return _then(work, self._back([(tensor, host)])), sender

    def close(self) -> None:
        pass


class NcclTransport:
    """Real GPUs: NVIDIA NCCL through CuPy's bindings, one communicator per group."""

    def __init__(self, side: MPIGroup, store: Store, device: int) -> None:
        from cupy.cuda import nccl as library  # the cuda12 extra (CuPy and NCCL wheels)

        self.side, self.device, self.library = side, device, library
        if side.rank == 0:
            store.set(_UNIQUE_ID_KEY, torch.cuda.nccl.unique_id())
        unique_id = store.get(_UNIQUE_ID_KEY)
        with torch.cuda.device(device):
            self.comm = torch.cuda.nccl.init_rank(side.size, unique_id, side.rank)

    # -- enqueueing and waiting ------------------------------------------------------
    def _enqueue(self, what: str, calls, result=None) -> Work:
        """Run ``calls(stream_handle)`` as one NCCL group on the current stream; a Work
        that polls an event recorded after them."""
        stream = torch.cuda.current_stream(self.device)
        self.library.groupStart()
        try:
            calls(stream.cuda_stream)
        finally:
            self.library.groupEnd()
        event = torch.cuda.Event()
        event.record(stream)

        def wait():
            try:
                self.side.poll(event.query, what)
            except DistBackendError:
                self.comm.abort()  # the kernels would otherwise wait for the peer forever
                raise

        return Work(event.query, wait, result)

    @staticmethod
    def _typed(tensor) -> tuple[int, int, int]:
        """(pointer, element count, ncclDataType_t) of a tensor that is reduced."""
        name = _type_name(tensor)
        if name in _COMPLEX_PARTS:
            return tensor.data_ptr(), 2 * tensor.numel(), _NCCL_TYPES[_COMPLEX_PARTS[name]]
        return tensor.data_ptr(), tensor.numel(), _NCCL_TYPES[name]

    @staticmethod
    def _bytes(tensor) -> tuple[int, int]:
        """(pointer, byte count) of a tensor whose data only moves."""
        return tensor.data_ptr(), tensor.numel() * tensor.element_size()

    # -- the collectives ---------------------------------------------------------------
    def all_reduce(self, tensor, op: R, code: int) -> Work:
        ptr, count, kind = self._typed(tensor)
        return self._enqueue(
            "all_reduce", lambda s: self.comm.allReduce(ptr, ptr, count, kind, code, s)
        )

    def reduce(self, tensor, root: int, op: R, code: int) -> Work:
        ptr, count, kind = self._typed(tensor)
        return self._enqueue(
            "reduce", lambda s: self.comm.reduce(ptr, ptr, count, kind, code, root, s)
        )

    def broadcast(self, tensor, root: int) -> Work:
        ptr, nbytes = self._bytes(tensor)
        return self._enqueue(
            "broadcast", lambda s: self.comm.bcast(ptr, nbytes, _NCCL_UINT8, root, s)
        )

    def all_gather(self, output, tensor) -> Work:
        (src, nbytes), (dst, _) = self._bytes(tensor), self._bytes(output)
        return self._enqueue(
            "all_gather", lambda s: self.comm.allGather(src, dst, nbytes, _NCCL_UINT8, s)
        )

    def reduce_scatter(self, output, source, op: R, code: int) -> Work:
        (dst, count, kind), (src, _, _) = self._typed(output), self._typed(source)
        return self._enqueue(
            "reduce_scatter",
            lambda s: self.comm.reduceScatter(src, dst, count, kind, code, s),
        )

    def _rooted(self, what: str, root: int, blocks, own: int, nbytes: int, moves, own_moves):
        """gather/scatter as point-to-point calls of ``nbytes`` each: the root moves block r
        of ``blocks`` to or from rank r with ``moves``, then every rank, the root too, moves
        its own block (at pointer ``own``) from or to the root with ``own_moves``."""

        def calls(s):
            if self.side.rank == root:
                base = blocks.data_ptr()
                for peer in range(self.side.size):
                    moves(base + peer * nbytes, nbytes, _NCCL_UINT8, peer, s)
            own_moves(own, nbytes, _NCCL_UINT8, root, s)

        return self._enqueue(what, calls)

    def gather(self, output, tensor, root: int) -> Work:
        src, nbytes = self._bytes(tensor)
        return self._rooted("gather", root, output, src, nbytes, self.comm.recv, self.comm.send)

    def scatter(self, output, source, root: int) -> Work:
        dst, nbytes = self._bytes(output)
        return self._rooted("scatter", root, source, dst, nbytes, self.comm.send, self.comm.recv)

    def all_to_all(self, output, source, send_counts, recv_counts, kind: str) -> Work:
        item = source.element_size()
        src, dst = source.data_ptr(), output.data_ptr()

        def calls(s):
            sent = received = 0
            for peer, (out_n, in_n) in enumerate(zip(send_counts, recv_counts)):
                self.comm.send(src + sent, out_n * item, _NCCL_UINT8, peer, s)
                self.comm.recv(dst + received, in_n * item, _NCCL_UINT8, peer, s)
                sent, received = sent + out_n * item, received + in_n * item

        return self._enqueue(kind, calls)

    def send(self, tensor, dst: int, tag: int) -> Work:
        ptr, nbytes = self._bytes(tensor)
        return self._enqueue(
            f"send to rank {dst}", lambda s: self.comm.send(ptr, nbytes, _NCCL_UINT8, dst, s)
        )

    def recv(self, tensor, src: int, tag: int) -> tuple[Work, list]:
        ptr, nbytes = self._bytes(tensor)
        work = self._enqueue(
            f"recv from rank {src}", lambda s: self.comm.recv(ptr, nbytes, _NCCL_UINT8, src, s)
        )
        return work, [src]

    def close(self) -> None:
        self.comm.destroy()
