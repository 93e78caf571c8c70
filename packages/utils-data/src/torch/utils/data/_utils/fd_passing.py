"""Worker results with their shared-memory descriptors passed inline.

A batch stacked in a worker lives in shared memory; with the ``file_descriptor`` strategy
what must reach the main process is one descriptor per tensor. ``multiprocessing`` sends
each through the sender's resource-sharer thread: the receiver connects to it and waits
while that thread takes the GIL from the worker, which is busy collating the next batch
(up to the 5 ms switch interval per descriptor). Here the worker sends a result's
descriptors right behind its bytes, as one ``SCM_RIGHTS`` message on the result socket,
and the main process rebuilds the storages from them: no connection, no thread, and the
sender may free its storages as soon as the message is written (the kernel holds the
descriptors in flight).

Message layout on the result connection: one ``send_bytes`` record holding the count of
descriptors (4 bytes) and the pickle, then, when the count is not zero, the descriptors
(``multiprocessing.reduction.sendfds``). Named segments (``file_system``) and everything
else pickle as ``ForkingPickler`` pickles them.
"""

from __future__ import annotations

import io
import os
import pickle
import socket
import struct
import threading
from multiprocessing import reduction
from multiprocessing.reduction import ForkingPickler

import torch
from torch._interface import sharing

__all__ = ["dumps", "result_socket", "send", "receive"]

_COUNT = struct.Struct("<I")
_incoming = threading.local()  # descriptors of the message being unpickled


def result_socket(conn):
    """A socket over ``conn``'s descriptor for passing descriptors, or None when the
    connection is not a Unix socket (then results go without descriptors)."""
    try:
        sock = socket.socket(fileno=os.dup(conn.fileno()))
    except OSError:
        return None
    if sock.family != socket.AF_UNIX:
        sock.close()
        return None
    return sock


def dumps(obj, pass_fds: bool) -> tuple[bytes, list[int]]:
    """``obj`` pickled as ``ForkingPickler`` pickles it, except that (when ``pass_fds``)
    storages in anonymous shared segments are described by their index in the returned
    list of descriptors (duplicates: the caller closes them once sent)."""
    fds: list[int] = []
    buffer = io.BytesIO()
    pickler = ForkingPickler(buffer)
    if pass_fds:

        def reduce_storage(storage):
            reduced = _reduce_inline(storage, fds)
            return reduced if reduced is not None else _default_reducer(storage)

        pickler.dispatch_table[torch.UntypedStorage] = reduce_storage
    try:
        pickler.dump(obj)
    except BaseException:
        _close_all(fds)
        raise
    return buffer.getvalue(), fds


def _default_reducer(storage):
    reducer = ForkingPickler._extra_reducers.get(torch.UntypedStorage)
    return reducer(storage) if reducer is not None else storage.__reduce_ex__(2)


def _reduce_inline(storage, fds: list[int]):
    if storage.nbytes() == 0 or storage.device.type != "cpu":
        return None
    if not storage.is_shared():
        storage.share_memory_()
    segment = sharing.segment_of(storage)
    if segment is None or segment.name is not None or segment.fd is None:
        return None  # a named segment: its name travels in the pickle
    fds.append(os.dup(segment.fd))
    return (_rebuild_from_passed_fd, (len(fds) - 1, storage.nbytes()))


def _rebuild_from_passed_fd(index: int, nbytes: int):
    fds = _incoming.fds
    fd, fds[index] = fds[index], None  # the storage owns it now
    return sharing.storage_from_fd(fd, nbytes)


def send(conn, sock, payload: bytes, fds: list[int]) -> None:
    """Write one result: its bytes, then its descriptors (closed here either way)."""
    try:
        conn.send_bytes(_COUNT.pack(len(fds)) + payload)
        if fds:
            reduction.sendfds(sock, fds)
    finally:
        _close_all(fds)


def receive(conn, sock):
    """Read and unpickle one result written by :func:`send`."""
    message = conn.recv_bytes()
    (count,) = _COUNT.unpack_from(message)
    try:
        fds = reduction.recvfds(sock, count) if count else []
    except (RuntimeError, ValueError) as error:  # the sender died between the two parts
        raise EOFError(f"result descriptors lost: {error}") from error
    _incoming.fds = fds
    try:
        return pickle.loads(memoryview(message)[_COUNT.size :])
    finally:
        _incoming.fds = None
        _close_all(fds)  # any the pickle did not use


def _close_all(fds: list) -> None:
    for fd in fds:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
