"""What runs inside a DataLoader worker process.

A worker receives ``(task, keys)`` messages on its own index pipe, fetches and collates
the batch, and sends ``(task, batch)`` back on its own result pipe (one pipe pair per
worker, so a worker killed in the middle of a message cannot corrupt another
worker's channel). Sending happens on a helper thread so that the main loop keeps
watching its parent: when the parent dies the worker exits within
``MP_STATUS_CHECK_INTERVAL`` seconds even if a send is blocked.
"""

from __future__ import annotations

import os
import queue
import random
import sys
import threading
import traceback
from dataclasses import dataclass
from multiprocessing.reduction import ForkingPickler

import numpy as np

import torch

from . import fd_passing

__all__ = ["WorkerInfo", "get_worker_info"]


@dataclass(frozen=True)
class WorkerInfo:
    """What a worker knows about itself (see :func:`get_worker_info`).

    Attributes:
        id: this worker's index, ``0 .. num_workers - 1``.
        num_workers: how many workers the DataLoader started.
        seed: the seed of this worker's ``random`` and ``torch`` generators.
        dataset: this worker's copy of the dataset.
        rng: unused (PyTorch's thread workers keep their generators here).
        worker_method: always ``"multiprocessing"``.
    """

    id: int
    num_workers: int
    seed: int
    dataset: object
    rng: object = None
    worker_method: str = "multiprocessing"


_worker_info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """The :class:`WorkerInfo` of the current DataLoader worker, or ``None`` in the main
    process.

    Useful in ``worker_init_fn`` or in an :class:`~torch.utils.data.IterableDataset`'s
    ``__iter__`` to give each worker its own share of the data.

    Returns:
        WorkerInfo or None: ``id``, ``num_workers``, ``seed`` and ``dataset``.

    Examples::

        >>> get_worker_info() is None  # in the main process
        True
    """
    return _worker_info


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    """Sent by a worker whose copy of an iterable-style dataset is exhausted."""

    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    """Sent to persistent workers at the start of a new epoch; they echo it back."""

    seed: int | None = None


class ExceptionWrapper:
    """An exception caught in a worker, carried to the main process as its type and
    formatted traceback (tracebacks themselves cannot be pickled)."""

    def __init__(self, exc_info=None, where: str = "in background") -> None:
        exc_type, exc_value, exc_tb = exc_info if exc_info is not None else sys.exc_info()
        self.exc_type = exc_type
        self.exc_msg = "".join(traceback.format_exception(exc_type, exc_value, exc_tb))
        self.where = where

    def reraise(self):
        """Raise an exception of the original type whose message holds the worker's
        traceback (a RuntimeError when that type cannot be built from a message)."""
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            # KeyError shows repr() of its argument, which would escape the newlines
            msg = _KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        raise exception


class _KeyErrorMessage(str):
    """A str whose repr is itself, so that ``KeyError(msg)`` prints readably."""

    def __repr__(self) -> str:
        return self


def _numpy_seed(base_seed: int, worker_id: int) -> list[int]:
    """The 4-word NumPy seed of worker ``worker_id`` (PyTorch derives it by NumPy's
    SeedSequence over the worker id and the two halves of the base seed)."""
    mask = 0xFFFFFFFF
    entropy = [worker_id, base_seed & mask, base_seed >> 32, 0]
    return np.random.SeedSequence(entropy).generate_state(4).tolist()


def _seed_worker(base_seed: int, worker_id: int) -> int:
    """Seed this process's ``random``, ``torch`` and NumPy generators as PyTorch seeds a
    worker's, so the same ``torch.manual_seed`` gives the same worker streams."""
    seed = base_seed + worker_id
    random.seed(seed)
    torch.manual_seed(seed)
    np.random.seed(_numpy_seed(base_seed, worker_id))
    return seed


class _ResultSender:
    """Pickles and sends results to the main process from a daemon thread.

    Pickling happens here, right before the write, so that results still queued when
    the worker is told to stop were never pickled: pickling a tensor may move it into a
    shared-memory segment that would then wait for a receiver that never comes.
    """

    def __init__(self, conn, worker_id: int) -> None:
        self._conn = conn
        self._sock = fd_passing.result_socket(conn)  # None: descriptors go the usual way
        self._worker_id = worker_id
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()
        self.broken = False
        self._thread = threading.Thread(target=self._run, name="pt_data_sender", daemon=True)
        self._thread.start()

    def put(self, message) -> None:
        self._outbox.put(message)

    def _run(self) -> None:
        while True:
            message = self._outbox.get()
            if message is None:
                return
            payload, fds = _pickle_result(message, self._worker_id, self._sock is not None)
            del message
            try:
                fd_passing.send(self._conn, self._sock, payload, fds)
            except OSError:  # the main process is gone or closed the pipe
                self.broken = True
                return

    def close(self, flush: bool) -> None:
        """Stop the thread; with ``flush``, after it sent everything queued (the main
        process reads until the worker exits, so this ends; bounded all the same)."""
        self._outbox.put(None)
        if flush:
            self._thread.join(timeout=_FLUSH_TIMEOUT)


# Longest wait for queued results to be sent when the worker is told to stop.
_FLUSH_TIMEOUT = 2.0


def _pickle_result(message, worker_id: int, pass_fds: bool):
    """The result's bytes and the descriptors to send behind them. A batch that cannot be
    pickled becomes an exception for the main process instead of a lost message."""
    try:
        return fd_passing.dumps(message, pass_fds)
    except Exception:
        task = message[0]
        wrapper = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
        try:
            return ForkingPickler.dumps((task, wrapper)), []
        except Exception:  # the exception type itself cannot be pickled
            wrapper.exc_type = RuntimeError
            return ForkingPickler.dumps((task, wrapper)), []


class _ParentWatch:
    """Tells whether the process that started this worker is still alive (a dead
    parent's children are adopted by another process, so ``getppid`` changes)."""

    def __init__(self) -> None:
        self._parent = os.getppid()

    def alive(self) -> bool:
        return os.getppid() == self._parent


def _worker_loop(
    iterable: bool,
    dataset,
    index_conn,
    result_conn,
    auto_collation: bool,
    collate_fn,
    drop_last: bool,
    base_seed: int,
    init_fn,
    worker_id: int,
    num_workers: int,
) -> None:
    """Body of a worker process; returns when told to stop or when its parent dies."""
    from . import MP_STATUS_CHECK_INTERVAL
    from .fetch import create_fetcher

    global _worker_info
    watch = _ParentWatch()
    sender = _ResultSender(result_conn, worker_id)
    stopped = False
    try:
        torch.set_num_threads(1)  # workers run in parallel with each other already
        seed = _seed_worker(base_seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
        where = f"in DataLoader worker process {worker_id}"
        init_error = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = create_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_error = ExceptionWrapper(where=where)  # reported as the first task's result
        exhausted = False
        while watch.alive() and not sender.broken:
            if not index_conn.poll(MP_STATUS_CHECK_INTERVAL):
                continue
            try:
                message = index_conn.recv()
            except (EOFError, OSError):
                break
            if message is None:
                stopped = True
                break
            if isinstance(message, _ResumeIteration):
                exhausted = False
                fetcher = create_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
                sender.put((message, None))
                continue
            if exhausted:
                continue  # the main process stops sending work once it hears of the end
            task, keys = message
            if init_error is not None:
                data, init_error = init_error, None
            else:
                try:
                    data = fetcher.fetch(keys)
                except StopIteration:
                    if not iterable:
                        data = ExceptionWrapper(where=where)
                    else:
                        data, exhausted = _IterableDatasetStopIteration(worker_id), True
                except Exception:
                    data = ExceptionWrapper(where=where)
            sender.put((task, data))
            del data, keys, message
    except KeyboardInterrupt:
        pass  # the main process receives the same signal and handles it
    # told to stop by a live main process: deliver what is queued (the main process
    # drains it); parent gone: nobody would read it
    sender.close(flush=stopped)
