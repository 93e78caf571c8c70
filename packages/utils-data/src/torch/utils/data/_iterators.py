"""The iterators a DataLoader returns: one loading in the main process, one driving
worker processes.

Multi-process protocol (all names are the main process's):

* worker ``w`` has its own index pipe (main -> worker: ``(task, keys)``, ``None`` to
  stop, ``_ResumeIteration`` for a new epoch) and result pipe (worker -> main:
  ``(task, data)``);
* tasks are numbered in sampler order and handed out round-robin, at most
  ``prefetch_factor`` per worker outstanding;
* the main process waits on the result pipes and on the workers' exit sentinels at
  once, so a dead worker is noticed immediately rather than by polling.
"""

from __future__ import annotations

import itertools
import signal
import time
import warnings
import weakref
from multiprocessing.connection import wait

import torch

from ._utils import MP_STATUS_CHECK_INTERVAL, fd_passing
from ._utils.fetch import create_fetcher
from ._utils.worker import (
    ExceptionWrapper,
    _IterableDatasetStopIteration,
    _ResumeIteration,
    _worker_loop,
)


class _BaseDataLoaderIter:
    def __init__(self, loader) -> None:
        self._dataset = loader.dataset
        self._iterable = loader._iterable
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._persistent_workers = loader.persistent_workers
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn(
                "pin_memory_device is deprecated, the current accelerator will be used as the "
                f"device,ignore pin_memory_device='{loader.pin_memory_device}'.",
                stacklevel=3,
            )
        if loader.pin_memory:
            # no accelerator in this build: nothing to pin for (PyTorch warns the same)
            warnings.warn(
                "'pin_memory' argument is set as true but no accelerator is found, "
                "then device pinned memory won't be used.",
                stacklevel=3,
            )
        self._sampler_iter = iter(self._index_sampler)
        # Drawn from the loader's generator (or the default one) even without workers,
        # exactly as PyTorch does: later draws from the same generator then match.
        self._base_seed = (
            torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        )
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        expected = self._IterableDataset_len_called
        if self._iterable and expected is not None and self._num_yielded > expected:
            self._warn_length(expected)
        return data

    def _warn_length(self, expected: int) -> None:
        message = (
            f"Length of IterableDataset {self._dataset} was reported to be {expected}"
            f"(when accessing len(dataloader)), but {self._num_yielded} samples have been "
            "fetched. "
        )
        if self._num_workers > 0:
            message += (
                "For multiprocessing data-loading, this could be caused by not properly "
                "configuring the IterableDataset replica at each worker."
            )
        warnings.warn(message, stacklevel=3)

    def __len__(self) -> int:
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError(f"{type(self).__name__} cannot be pickled")


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader) -> None:
        super().__init__(loader)
        self._fetcher = create_fetcher(
            self._iterable, self._dataset, self._auto_collation, self._collate_fn, self._drop_last
        )

    def _next_data(self):
        return self._fetcher.fetch(self._next_index())


class _WorkerSet:
    """The processes and pipes of one multi-process iterator; shut down by
    :meth:`shutdown`, which a ``weakref.finalize`` also calls when the iterator is
    collected or the interpreter exits."""

    def __init__(self) -> None:
        self.processes: list = []
        self.index_conns: list = []
        self.result_conns: list = []
        self.result_socks: list = []  # for the descriptors behind each result
        self.closed = False
        # how long workers told to stop may take to finish before they are terminated
        self.exit_grace = _EXIT_GRACE

    def receive(self, conn):
        """The next result on ``conn`` (one of ``result_conns``)."""
        return fd_passing.receive(conn, self.result_socks[self.result_conns.index(conn)])

    def shutdown(self) -> None:
        if self.closed:
            return
        self.closed = True
        for process, conn in zip(self.processes, self.index_conns):
            if process.exitcode is None:
                try:
                    conn.send(None)
                except OSError:
                    pass  # that worker is gone already
        self._drain_until_exit(deadline=time.monotonic() + self.exit_grace)
        if self._stop_stragglers():
            # results they wrote before the signal: reading them releases their segments
            self._drain_until_exit(deadline=time.monotonic() + MP_STATUS_CHECK_INTERVAL)
        for conn in self.index_conns + self.result_conns:
            conn.close()
        for sock in self.result_socks:
            if sock is not None:
                sock.close()

    def _stop_stragglers(self) -> bool:
        """Terminate the workers still running (stuck, e.g. in user code), all at once so
        that the wait is not per worker; kill those that ignore it. True if any was."""
        stuck = [p for p in self.processes if p.exitcode is None]
        for process in stuck:
            process.terminate()
        deadline = time.monotonic() + MP_STATUS_CHECK_INTERVAL
        for process in stuck:
            process.join(timeout=max(0.0, deadline - time.monotonic()))
        for process in stuck:
            if process.exitcode is None:
                process.kill()
                process.join()
        return bool(stuck)

    def _drain_until_exit(self, deadline: float) -> None:
        """Read (and drop) what the workers still send until they exit: unread results
        would block their exit, and unpickling them releases any shared-memory
        segments they were sent in."""
        sentinels = {p.sentinel: p for p in self.processes}
        while True:
            open_conns = [c for c in self.result_conns if not c.closed]
            alive = [s for s, p in sentinels.items() if p.exitcode is None]
            remaining = deadline - time.monotonic()
            if not (open_conns or alive) or remaining <= 0:
                break
            for ready in wait(open_conns + alive, timeout=remaining):
                if ready in sentinels:
                    sentinels[ready].join(timeout=0)
                    continue
                try:
                    self.receive(ready)
                except Exception:  # EOF: that worker is done; or an unpicklable leftover
                    ready.close()
        for process in self.processes:
            process.join(timeout=max(0.0, deadline - time.monotonic()))


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader) -> None:
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        if self._prefetch_factor <= 0:
            # PyTorch accepts prefetch_factor=0 in the DataLoader and fails here
            raise AssertionError(
                "prefetch_factor must be greater than 0 for MultiProcessingDataLoaderIter"
            )
        context = loader.multiprocessing_context or _default_context()
        self._workers = _WorkerSet()
        self._finalizer = weakref.finalize(self, self._workers.shutdown)
        for worker_id in range(self._num_workers):
            self._start_worker(context, loader.worker_init_fn, worker_id)
        self._reset(loader, first_iter=True)

    def _start_worker(self, context, init_fn, worker_id: int) -> None:
        index_reader, index_writer = context.Pipe(duplex=False)
        # a socket pair (duplex), which can carry the descriptors of shared-memory batches
        result_reader, result_writer = context.Pipe(duplex=True)
        process = context.Process(
            target=_worker_loop,
            args=(
                self._iterable,
                self._dataset,
                index_reader,
                result_writer,
                self._auto_collation,
                self._collate_fn,
                self._drop_last,
                self._base_seed,
                init_fn,
                worker_id,
                self._num_workers,
            ),
            name=f"pt_data_worker_{worker_id}",
            daemon=True,
        )
        process.start()
        # Close our copies of the worker's ends at once, before the next worker is
        # forked, so that only this worker holds them: its death then shows as EOF.
        index_reader.close()
        result_writer.close()
        self._workers.processes.append(process)
        self._workers.index_conns.append(index_writer)
        self._workers.result_conns.append(result_reader)
        self._workers.result_socks.append(fd_passing.result_socket(result_reader))

    # -- epoch state -------------------------------------------------------------------

    def _reset(self, loader, first_iter: bool = False) -> None:
        super()._reset(loader)
        self._send_idx = 0  # next task number to hand out
        self._rcvd_idx = 0  # next task number to yield (in order)
        self._pending: dict[int, int] = {}  # task -> worker, not yet received
        self._arrived: dict[int, tuple] = {}  # task -> (worker, data), received early
        self._active = [True] * self._num_workers  # workers with work this epoch
        self._worker_load = [0] * self._num_workers  # outstanding tasks per worker
        self._worker_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            self._resume_workers()
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_dispatch()

    def _resume_workers(self) -> None:
        """Start a new epoch in persistent workers: each rebuilds its fetcher and
        acknowledges before any new task is sent."""
        for conn in self._workers.index_conns:
            try:
                conn.send(_ResumeIteration())
            except OSError:
                pass  # a worker that closed its pipe is exiting: _receive reports it
        acknowledged = 0
        while acknowledged < self._num_workers:
            task, _, _ = self._receive()
            if isinstance(task, _ResumeIteration):
                acknowledged += 1

    def _try_dispatch(self) -> None:
        """Send the sampler's next keys to the next worker in turn that can take them."""
        worker_id = self._pick_worker()
        if worker_id is None:
            return
        try:
            keys = self._next_index()
        except StopIteration:
            return
        try:
            self._workers.index_conns[worker_id].send((self._send_idx, keys))
        except OSError:
            # The worker closed its pipe: it is exiting, possibly with results still
            # unread. The task counts as sent, so _receive yields those results first
            # and then raises PyTorch's "exited unexpectedly" error for this worker.
            pass
        self._pending[self._send_idx] = worker_id
        self._worker_load[worker_id] += 1
        self._send_idx += 1

    def _pick_worker(self):
        active = sum(self._active)
        if not active:
            return None
        limit = self._prefetch_factor * self._num_workers // active
        for _ in range(self._num_workers):
            worker_id = next(self._worker_cycle)
            if not self._active[worker_id]:
                continue
            # in order: strict rotation (batch k always from worker k mod n, as in
            # PyTorch); out of order: skip workers that already have their share
            if self._in_order or self._worker_load[worker_id] < limit:
                return worker_id
        return None

    # -- yielding -----------------------------------------------------------------------

    def _next_data(self):
        if self._workers.closed:
            raise StopIteration  # shut down after a failure or timeout: nothing more comes
        while True:
            if not self._skip_to_next_live_task():
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            if self._rcvd_idx in self._arrived:
                worker_id, data = self._arrived.pop(self._rcvd_idx)
                self._rcvd_idx += 1
                return self._process(worker_id, data)
            task, worker_id, data = self._receive()
            if isinstance(data, _IterableDatasetStopIteration):
                self._pending.pop(task, None)
                self._retire_worker(data.worker_id)
                self._try_dispatch()
                continue
            self._pending.pop(task, None)
            if task == self._rcvd_idx:
                self._rcvd_idx += 1
                return self._process(worker_id, data)
            if not self._in_order:
                return self._process(worker_id, data)
            self._arrived[task] = (worker_id, data)

    def _skip_to_next_live_task(self) -> bool:
        """Advance past tasks already yielded out of order or owned by a worker whose
        stream ended; False when no task is left."""
        while self._rcvd_idx < self._send_idx:
            if self._rcvd_idx in self._arrived:
                return True
            worker_id = self._pending.get(self._rcvd_idx)
            if worker_id is not None and self._active[worker_id]:
                return True
            self._pending.pop(self._rcvd_idx, None)
            self._rcvd_idx += 1
        return False

    def _process(self, worker_id: int, data):
        self._worker_load[worker_id] -= 1
        self._try_dispatch()
        if isinstance(data, ExceptionWrapper):
            data.reraise()
        return data

    def _retire_worker(self, worker_id: int) -> None:
        """A worker's stream ended: no more tasks for it this epoch (and, unless the
        workers persist, it may exit)."""
        self._active[worker_id] = False
        if not self._persistent_workers:
            try:
                self._workers.index_conns[worker_id].send(None)
            except OSError:
                pass

    # -- receiving ---------------------------------------------------------------------

    def _receive(self):
        """The next ``(task, worker_id, data)`` from any worker. Raises RuntimeError when
        a worker that still owes results has died, or after ``timeout`` seconds."""
        workers = self._workers
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        while True:
            wait_for = MP_STATUS_CHECK_INTERVAL * 10
            if deadline is not None:
                wait_for = deadline - time.monotonic()
                if wait_for <= 0:
                    # raise at the timeout: a worker late by then is stuck, so the
                    # shutdown gives the workers only a moment before terminating them
                    self._shutdown_workers(exit_grace=_TIMEOUT_EXIT_GRACE)
                    raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
            watched = self._watched_conns() + self._watched_sentinels()
            ready = wait(watched, timeout=wait_for)
            for conn in ready:
                if conn in workers.result_conns:
                    worker_id = workers.result_conns.index(conn)
                    try:
                        task, data = workers.receive(conn)
                    except (EOFError, OSError):
                        self._raise_if_dead(worker_id, wait_exit=True)
                        conn.close()  # a worker that ended normally: stop watching it
                        continue
                    return task, worker_id, data
            if any(conn not in workers.result_conns for conn in ready):
                # a worker exited; read what it sent before dying, then complain
                self._raise_if_dead(None)

    def _watched_conns(self) -> list:
        # A retired worker sent its end-of-stream marker after all its results, so
        # nothing more can come from it.
        return [
            conn
            for conn, active in zip(self._workers.result_conns, self._active)
            if (active or self._persistent_workers) and not conn.closed
        ]

    def _watched_sentinels(self) -> list:
        # Workers that were told to stop may exit; only the others are watched.
        return [
            p.sentinel
            for p, active in zip(self._workers.processes, self._active)
            if active or self._persistent_workers
        ]

    def _raise_if_dead(self, worker_id, wait_exit: bool = False) -> None:
        """Raise PyTorch's RuntimeError if some worker died while it still had to
        answer (its pending data is read first: a result in its pipe wins)."""
        processes = self._workers.processes
        if wait_exit and worker_id is not None:
            processes[worker_id].join(timeout=MP_STATUS_CHECK_INTERVAL)
        dead = [
            i
            for i, p in enumerate(processes)
            if p.exitcode is not None and (self._active[i] or self._persistent_workers)
        ]
        dead = [i for i in dead if not _has_data(self._workers.result_conns[i])]
        if not dead:
            return
        details = "; ".join(_death_message(processes[i]) for i in dead)
        pids = ", ".join(str(processes[i].pid) for i in dead)
        self._shutdown_workers()
        raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") from (
            RuntimeError(details)
        )

    def _shutdown_workers(self, exit_grace: float | None = None) -> None:
        if exit_grace is not None:
            self._workers.exit_grace = exit_grace
        self._finalizer()

    def __del__(self) -> None:
        finalizer = getattr(self, "_finalizer", None)
        if finalizer is not None:
            finalizer()


# Seconds that workers told to stop get to finish their work before they are terminated:
# at the end of an epoch or on an abandoned iterator (they finish the batch at hand), and
# after a timeout (they are late already: the error must not wait for them).
_EXIT_GRACE = MP_STATUS_CHECK_INTERVAL * 4
_TIMEOUT_EXIT_GRACE = 0.1


def _has_data(conn) -> bool:
    try:
        return not conn.closed and conn.poll()
    except (EOFError, OSError):
        return False


def _death_message(process) -> str:
    """PyTorch's description of how a worker ended."""
    code = process.exitcode
    if code < 0:
        try:
            name = signal.strsignal(-code) or signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"DataLoader worker (pid {process.pid}) is killed by signal: {name}. "
    return (
        f"DataLoader worker (pid {process.pid}) exited unexpectedly with exit code {code}. "
        "Details are lost due to multiprocessing. Rerunning with num_workers=0 may give "
        "better error trace."
    )


def _default_context():
    """torch.multiprocessing's default context: importing it registers the pickling that
    moves tensors into shared memory."""
    import torch.multiprocessing as torch_mp

    return torch_mp.get_context()
