"""The collectives of the ``gloo`` and ``mpi`` backends, on an MPI communicator.

Every collective runs as MPI's non-blocking call (``Iallreduce``, ``Ibcast``, ...) and
is completed by polling, so that waiting can stop: after the group's timeout, or as
soon as a peer stops beating (``_health``), it raises an error naming the rank. Before
the data moves, the ranks exchange a small description of the call (which collective,
dtype, shape, root, op) so that a mismatch raises the same error on every rank instead
of corrupting data or hanging.

Arrays here are NumPy arrays; ``distributed_c10d`` turns tensors into them.
"""

from __future__ import annotations

import time

import numpy as np

from . import _mpi
from ._health import Heartbeat, PeerWatch
from ._reduce_op import ReduceOp
from ._store import DistBackendError, Store
from ._work import Work

__all__ = ["MPIGroup"]

R = ReduceOp.RedOpType
_DTYPES = [
    "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
    "float64", "complex64", "complex128", "uint16", "uint32", "uint64",
]  # fmt: skip
_DTYPE_CODE: dict = {}  # np.dtype -> index in _DTYPES, filled on first use


def _dtype_code(dtype: np.dtype) -> int:
    code = _DTYPE_CODE.get(dtype)
    if code is None:
        code = _DTYPE_CODE[dtype] = _DTYPES.index(dtype.name) if dtype.name in _DTYPES else 99
    return code


_HALF = {6, 7}  # float16, bfloat16
_KINDS = [
    "barrier", "all_reduce", "reduce", "broadcast", "all_gather", "gather", "scatter",
    "reduce_scatter", "all_to_all", "all_to_all_single",
]  # fmt: skip
_MAX_DIMS = 8
# polling: spin on MPI's progress at first (fast collectives), then sleep a little
_SPIN_SECONDS = 0.2
_HEALTH_CHECK_EVERY = 0.5
# while spinning, the clock is read once per this many polls
_POLLS_PER_CLOCK_READ = 16


# (op, dtype) -> (MPI.Op, whether MPI reduces a float32 copy, the op/dtype error or
# None); filled on first use, so a call like an earlier one pays one dict lookup
_REDUCTIONS: dict = {}


def _reduction(mpi, op: R, dtype: np.dtype) -> tuple:
    """How ``op`` reduces ``dtype``: the MPI op, whether the reduction runs on a float32
    copy (half floats: MPI has no such type), and the error message when ``op`` does
    not apply to ``dtype`` (None when it does)."""
    plan = _REDUCTIONS.get((op, dtype))
    if plan is None:
        error = _op_dtype_error(op, dtype)
        mpi_op = None if error else _mpi_op(mpi, op, dtype)
        plan = _REDUCTIONS[op, dtype] = (mpi_op, _is_half(dtype), error)
    return plan


def _mpi_op(mpi, op: R, dtype: np.dtype):
    table = {
        R.SUM: mpi.SUM, R.AVG: mpi.SUM, R.PRODUCT: mpi.PROD, R.MIN: mpi.MIN, R.MAX: mpi.MAX,
        R.BAND: mpi.BAND, R.BOR: mpi.BOR, R.BXOR: mpi.BXOR,
    }  # fmt: skip
    if dtype == np.bool_:
        table = {R.SUM: mpi.LOR, R.PRODUCT: mpi.LAND, R.MIN: mpi.LAND, R.MAX: mpi.LOR,
                 R.BAND: mpi.LAND, R.BOR: mpi.LOR, R.BXOR: mpi.LXOR}  # fmt: skip
    if op not in table:
        raise ValueError(f"Cannot use ReduceOp.{op.name} with this backend")
    return table[op]


def _op_dtype_error(op: R, dtype: np.dtype) -> str | None:
    kind = dtype.kind
    if op in (R.BAND, R.BOR, R.BXOR) and kind not in "biu":
        return f"ReduceOp.{op.name} needs an integer or bool tensor, got {dtype.name}"
    if op in (R.MIN, R.MAX) and kind == "c":
        return f"ReduceOp.{op.name} is not defined for complex tensors"
    if op == R.AVG and kind not in "fcV" and not _is_half(dtype):
        return f"ReduceOp.AVG needs a floating-point tensor, got {dtype.name}"
    return None


def _is_half(dtype: np.dtype) -> bool:
    return _dtype_code(dtype) in _HALF


def _reduction_array(array: np.ndarray, staged: bool) -> np.ndarray:
    """The array MPI reduces: a float32 copy when ``staged`` (half floats), else itself."""
    return array.astype(np.float32) if staged else array


def _bytes(array: np.ndarray) -> np.ndarray:
    """A byte view for collectives that only move data (any dtype, bfloat16 included)."""
    return array.reshape(-1).view(np.uint8)


class MPIGroup:
    """One process group on one MPI communicator.

    Args:
        comm: the communicator (its ranks are the group's ranks).
        store: the group's store (for ``monitored_barrier``).
        heartbeat: this process's :class:`Heartbeat` (None: no peer diagnosis).
        health_store: where heartbeats are written (the world's store).
        global_ranks: the world rank of each group rank (named in errors).
        name: the group's name; timeout: seconds a collective may wait.
    """

    def __init__(
        self,
        comm,
        store: Store,
        heartbeat: Heartbeat | None,
        health_store,
        global_ranks: list[int],
        name: str,
        timeout: float,
        backend_name: str,
    ):
        self.MPI = _mpi.load_mpi()
        self.comm = comm
        self.store = store
        self.heartbeat = heartbeat
        self.health_store = health_store
        self.global_ranks = global_ranks
        self.name = name
        self.timeout = timeout
        self.backend_name = backend_name
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()
        self.seq = 0
        self.broken: BaseException | None = None
        self._describe_out = np.zeros(6 + _MAX_DIMS, dtype=np.int64)
        self._describe_in = np.zeros((self.size, 6 + _MAX_DIMS), dtype=np.int64)
        self._described = None  # the key of the call whose description is in _describe_out
        self._agreement = None  # the persistent all-gather of the descriptions (made once)
        self.IN_PLACE = self.MPI.IN_PLACE

    @staticmethod
    def buffer(tensor) -> np.ndarray:
        """What the collectives take: the CPU tensor's memory as a NumPy array."""
        return tensor.detach().numpy() if tensor.requires_grad else tensor.numpy()

    # -- completing requests ---------------------------------------------------------
    def _complete(self, request, what: str, status=None) -> None:
        """Poll ``request`` until done (filling ``status``, if given); raise naming the
        culprit on failure or timeout. (``Test``, not ``Testall``: MPICH's ``Testall``
        reports a false error on persistent requests.)"""
        mpi = self.MPI

        def done() -> bool:
            try:
                return request.Test(status)
            except mpi.Exception as error:
                reason = f"MPI reported an error: {error.Get_error_string()}"
                raise self._fail(what, reason) from None

        self.poll(done, what)

    def poll(self, done, what: str) -> None:
        """Call ``done()`` until it answers True; after the group's timeout, or as soon as
        a peer stops beating, raise an error naming the rank (the group is then broken).
        ``done`` drives the progress of what it waits for (MPI's requests, a CUDA
        event), so it is called back to back at first."""
        if done():
            return
        start = time.monotonic()
        deadline = start + self.timeout
        next_check = start + _HEALTH_CHECK_EVERY
        watch = None
        delay = 0.0
        while True:
            for _ in range(_POLLS_PER_CLOCK_READ):
                if done():
                    return
            now = time.monotonic()
            if now >= next_check and self.heartbeat is not None:
                watch = watch or PeerWatch(self.health_store, self.heartbeat.interval)
                dead = watch.dead_peers(self._peers())
                if dead:
                    rank, silent = dead[0]
                    raise self._fail(
                        what,
                        f"rank {rank} stopped responding (no heartbeat for {silent:.1f} s); "
                        "its process has probably died",
                    )
                next_check = now + _HEALTH_CHECK_EVERY
            if now >= deadline:
                raise self._fail(what, self._timeout_reason(watch))
            if now - start > _SPIN_SECONDS:
                delay = min(max(delay * 2, 1e-5), 2e-3)
                time.sleep(delay)

    def _peers(self) -> list[int]:
        me = self.global_ranks[self.rank]
        return [r for r in self.global_ranks if r != me]

    def _timeout_reason(self, watch) -> str:
        why = f"timed out after {self.timeout:g} s"
        if self.heartbeat is None:
            return why
        watch = watch or PeerWatch(self.health_store, self.heartbeat.interval)
        behind = watch.laggards(self._peers(), self.name, self.seq)
        if not behind:
            return why + " (every rank entered it)"
        parts = [
            f"rank {r} has not called it (its last collective in this group was #{s})"
            if s >= 0
            else f"rank {r} has not called any collective of this group"
            for r, s in behind
        ]
        return why + ": " + "; ".join(parts)

    def _fail(self, what: str, reason: str) -> DistBackendError:
        me = self.global_ranks[self.rank]
        error = DistBackendError(
            f"[Rank {me}] {what} (collective #{self.seq} of process group '{self.name}', "
            f"backend {self.backend_name}) failed: {reason}"
        )
        self.broken = error
        _mpi.mark_broken()
        return error

    def _enter(self, what: str) -> None:
        if self.broken is not None:
            raise DistBackendError(
                f"{what}: the process group is unusable after an earlier failure: {self.broken}"
            )
        self.seq += 1
        if self.heartbeat is not None:
            self.heartbeat.entered(self.name, self.seq)

    # -- agreeing on the call --------------------------------------------------------
    def agree(self, kind: str, array: np.ndarray | None, root: int = -1, op: int = -1,
              shape_may_differ: bool = False) -> None:  # fmt: skip
        """Exchange (kind, dtype, shape, root, op) and raise on every rank if they differ."""
        self._enter(kind)
        out = self._describe_out
        if array is None:
            key = (kind, None, None, root, op)
        else:
            key = (kind, array.dtype, None if shape_may_differ else array.shape, root, op)
        if key != self._described:  # a call like the last one keeps its row
            self._describe(out, kind, array, root, op, shape_may_differ)
            self._described = key
        out[1] = self.seq
        if self.size == 1:
            return
        self._complete(self._agreement_request(), kind)
        rows = self._describe_in
        if rows.tobytes() == out.tobytes() * self.size:
            return
        raise self._mismatch(kind, rows)

    def _agreement_request(self):
        """The all-gather of the descriptions, started: a persistent request (MPI 4),
        made on the group's first agreement, so that each call only restarts it."""
        request = self._agreement
        if request is None:
            try:
                request = self.comm.Allgather_init(self._describe_out, self._describe_in)
            except (NotImplementedError, self.MPI.Exception):  # an MPI before 4.0
                request = False
            self._agreement = request
        if request is False:
            return self.comm.Iallgather(self._describe_out, self._describe_in)
        request.Start()
        return request

    @staticmethod
    def _describe(out: np.ndarray, kind: str, array, root: int, op: int,
                  shape_may_differ: bool) -> None:  # fmt: skip
        """Fill ``out`` with (kind, seq, dtype, root, op, ndim, dims)."""
        out[:] = -1
        out[0] = _KINDS.index(kind)
        out[3], out[4] = root, op
        if array is not None:
            out[2] = _dtype_code(array.dtype)
            if not shape_may_differ:
                out[5] = array.ndim
                dims = array.shape[:_MAX_DIMS]
                out[6 : 6 + len(dims)] = dims

    def _mismatch(self, kind: str, rows: np.ndarray) -> RuntimeError:
        def describe(row) -> str:
            if row[0] != _KINDS.index(kind):
                return f"called {_KINDS[row[0]]}"
            text = _DTYPES[row[2]] if 0 <= row[2] < len(_DTYPES) else "?"
            if row[5] >= 0:
                text += f" of shape {row[6 : 6 + row[5]].tolist()}"
            if row[3] >= 0:
                text += f", root {row[3]}"
            if row[4] >= 0:
                text += f", op {R(row[4]).name}"
            return text

        ranks = "; ".join(
            f"rank {self.global_ranks[i]}: {describe(row)}" for i, row in enumerate(rows)
        )
        me = self.global_ranks[self.rank]
        # the data was not exchanged: the group stays usable
        return RuntimeError(f"[Rank {me}] {kind}: the ranks of the group disagree ({ranks})")

    # -- the collectives (arrays are C-contiguous; results land in place) -------------
    # ``agreed=True``: the caller already checked the call and ran ``agree`` (the nccl
    # backend, which stages device tensors through these host collectives)
    def _work(self, request, what: str, after=None, result=None) -> Work:
        """The handle of a started ``request`` (None: nothing to wait for); ``after()``
        runs once it finished."""

        def wait():
            if request is not None:
                self._complete(request, what)
            if after is not None:
                after()

        def test():
            return request is None or request.Test()

        return Work(test, wait, result)

    def barrier(self, agreed: bool = False) -> Work:
        if not agreed:
            self.agree("barrier", None)
        if self.size == 1:
            return self._work(None, "barrier")
        return self._work(self.comm.Ibarrier(), "barrier")

    def _reduction_of(self, kind: str, array: np.ndarray, op: R, agreed: bool, root=-1):
        """Check and agree on a reducing call: its MPI op and whether it is staged."""
        mpi_op, staged, error = _reduction(self.MPI, op, array.dtype)
        if not agreed:
            if error is not None:
                raise RuntimeError(error)
            self.agree(kind, array, root=root, op=op)
        elif mpi_op is None:  # checked by the nccl backend, whose rules differ (int AVG)
            mpi_op = _mpi_op(self.MPI, op, array.dtype)
        return mpi_op, staged

    def _start_all_reduce(self, array: np.ndarray, op: R, agreed: bool):
        """The started request and the array MPI reduces in place: the tensor's own
        memory, or a float32 copy of a half-float one."""
        mpi_op, staged = self._reduction_of("all_reduce", array, op, agreed)
        buffer = _reduction_array(array, staged)
        return self.comm.Iallreduce(self.IN_PLACE, buffer, mpi_op), buffer

    def all_reduce(self, array: np.ndarray, op: R, agreed: bool = False) -> Work:
        request, buffer = self._start_all_reduce(array, op, agreed)
        return self._work(request, "all_reduce", self._finish_reduce(array, buffer, op))

    def all_reduce_and_wait(self, array: np.ndarray, op: R) -> None:
        """``all_reduce`` waited for here, with no work handle (a blocking call)."""
        request, buffer = self._start_all_reduce(array, op, False)
        self._complete(request, "all_reduce")
        if buffer is not array or op == R.AVG:
            self._finish_reduce(array, buffer, op)()

    def _finish_reduce(self, array, buffer, op, applies=True):
        size = self.size

        def after():
            if not applies:
                return
            if op == R.AVG:
                np.divide(buffer, size, out=buffer, casting="unsafe")
            if buffer is not array:
                np.copyto(array, buffer, casting="unsafe")

        return after

    def reduce(self, array: np.ndarray, root: int, op: R, agreed: bool = False) -> Work:
        mpi_op, staged = self._reduction_of("reduce", array, op, agreed, root=root)
        buffer = _reduction_array(array, staged)
        if self.rank == root:
            request = self.comm.Ireduce(self.IN_PLACE, buffer, mpi_op, root)
        else:
            request = self.comm.Ireduce(buffer, None, mpi_op, root)
        after = self._finish_reduce(array, buffer, op, applies=self.rank == root)
        return self._work(request, "reduce", after)

    def broadcast(self, array: np.ndarray, root: int, agreed: bool = False) -> Work:
        if not agreed:
            self.agree("broadcast", array, root=root)
        return self._work(self.comm.Ibcast(_bytes(array), root), "broadcast")

    def all_gather(self, output: np.ndarray, array: np.ndarray, agreed: bool = False) -> Work:
        """``output`` holds ``size`` blocks of ``array``'s size, in rank order."""
        if not agreed:
            self.agree("all_gather", array)
        request = self.comm.Iallgather(_bytes(array), _bytes(output))
        return self._work(request, "all_gather")

    def gather(self, output: np.ndarray | None, array: np.ndarray, root: int,
               agreed: bool = False) -> Work:  # fmt: skip
        if not agreed:
            self.agree("gather", array, root=root)
        recv = _bytes(output) if self.rank == root else None
        return self._work(self.comm.Igather(_bytes(array), recv, root), "gather")

    def scatter(self, output: np.ndarray, source: np.ndarray | None, root: int,
                agreed: bool = False) -> Work:  # fmt: skip
        if not agreed:
            self.agree("scatter", output, root=root)
        send = _bytes(source) if self.rank == root else None
        return self._work(self.comm.Iscatter(send, _bytes(output), root), "scatter")

    def reduce_scatter(self, output: np.ndarray, source: np.ndarray, op: R,
                       agreed: bool = False) -> Work:  # fmt: skip
        """``source`` holds ``size`` blocks of ``output``'s size; block r goes to rank r."""
        mpi_op, staged = self._reduction_of("reduce_scatter", output, op, agreed)
        send, recv = _reduction_array(source, staged), _reduction_array(output, staged)
        request = self.comm.Ireduce_scatter_block(send, recv, mpi_op)
        return self._work(request, "reduce_scatter", self._finish_reduce(output, recv, op))

    def all_to_all(self, output: np.ndarray, source: np.ndarray, send_counts, recv_counts,
                   kind: str = "all_to_all_single", agreed: bool = False) -> Work:  # fmt: skip
        """Element counts per rank; blocks are laid out in rank order."""
        if not agreed:
            self.agree(kind, source, shape_may_differ=True)
        item = source.dtype.itemsize
        send_bytes = [c * item for c in send_counts]
        recv_bytes = [c * item for c in recv_counts]
        send = [_bytes(source), (send_bytes, _offsets(send_bytes)), self.MPI.BYTE]
        recv = [_bytes(output), (recv_bytes, _offsets(recv_bytes)), self.MPI.BYTE]
        return self._work(self.comm.Ialltoallv(send, recv), kind)

    def send(self, array: np.ndarray, dst: int, tag: int) -> Work:
        self._check_usable("send")
        return self._work(self.comm.Isend(_bytes(array), dst, tag), f"send to rank {dst}")

    def recv(self, array: np.ndarray, src: int | None, tag: int) -> tuple[Work, list]:
        """The work and a one-item list that holds the sender's group rank once done."""
        self._check_usable("recv")
        status = self.MPI.Status()
        source = self.MPI.ANY_SOURCE if src is None else src
        request = self.comm.Irecv(_bytes(array), source, tag)
        sender: list[int] = []

        def wait():
            what = "recv" if src is None else f"recv from rank {src}"
            self._complete(request, what, status)
            sender.append(status.Get_source())

        return Work(lambda: request.Test(), wait), sender

    def _check_usable(self, what: str) -> None:
        if self.broken is not None:
            raise DistBackendError(
                f"{what}: the process group is unusable after an earlier failure: {self.broken}"
            )

    def free(self) -> None:
        if self.broken is not None:
            return  # a request may still be active: leave the communicator alone
        if self._agreement:
            self._agreement.Free()
            self._agreement = None
        if self.comm not in (self.MPI.COMM_WORLD, self.MPI.COMM_SELF):
            try:
                self.comm.Free()
            except self.MPI.Exception:
                pass


def _offsets(counts: list[int]) -> list[int]:
    offsets, total = [], 0
    for count in counts:
        offsets.append(total)
        total += count
    return offsets
