"""Storages whose bytes live in shared memory, so that several processes see one buffer.

Two ways to get such memory, selected by the sharing strategy:

- ``file_descriptor`` (default): an anonymous ``memfd`` segment. It has no name; other
  processes get it as a file descriptor passed over a Unix socket (torch.multiprocessing
  does that). The kernel frees it when the last descriptor and mapping are gone, so
  nothing can outlive its users, even after SIGKILL.
- ``file_system``: a named file in ``/dev/shm`` (prefix :data:`PREFIX`); other processes
  open it by name, no descriptor stays open. A tracker process (``_shm_tracker.py``)
  counts which live processes use each name and unlinks a name when its last user
  releases it or dies.

A segment is mapped as a :class:`SharedMap`; storages hold a NumPy ``uint8`` array of it,
whose base chain keeps the map alive: the mapping, its descriptor and its tracker
registration end when the last array over it is freed.
"""

from __future__ import annotations

import collections
import ctypes
import gc
import itertools
import mmap
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import weakref

import numpy as np

__all__ = [
    "STRATEGIES",
    "PREFIX",
    "SharedMap",
    "get_sharing_strategy",
    "set_sharing_strategy",
    "segment_of",
    "is_shared",
    "new_shared_buffer",
    "new_shared_storage",
    "share_storage",
    "share_tensor",
    "storage_from_fd",
    "storage_from_name",
    "tracker",
    "segment_of_storage",
]

STRATEGIES = ("file_descriptor", "file_system")
#: every file_system segment of this project starts with this (tests look for leftovers)
PREFIX = "torch_core_shm_"
SHM_DIR = "/dev/shm"
#: spawned children find the parent's tracker through this variable
TRACKER_ENV = "TORCH_CORE_SHM_TRACKER"
TAG_ENV = "TORCH_CORE_SHM_TAG"

_strategy = "file_descriptor"


def get_sharing_strategy() -> str:
    return _strategy


def set_sharing_strategy(strategy: str) -> None:
    global _strategy
    if strategy not in STRATEGIES:
        # PyTorch checks this with an assert; same type, a stable order of the choices
        raise AssertionError(
            f"invalid sharing strategy {strategy!r}, expected one of "
            f"{{{', '.join(repr(s) for s in STRATEGIES)}}}"
        )
    _strategy = strategy
    if strategy == "file_system":
        # join (or start) the tracker now, before any child is made: children then
        # inherit its address and share it, so a segment a child sends stays tracked
        # by a tracker this process keeps alive, even if the child dies at once
        tracker.connect()


# ------------------------------------------------------------------------- segments


class SharedMap:
    """One mapping of a shared segment, plus what identifies it across processes: ``fd``
    (file_descriptor strategy, kept open while mapped), ``name`` (file_system strategy)
    and ``key`` (the same in every process that maps it). NumPy arrays over it keep it
    alive; the last one gone unmaps it, closes ``fd`` and tells the tracker.

    NOTE: mapped with libc's mmap, not Python's ``mmap.mmap``: that one keeps a duplicate
    of the descriptor open for its whole life, which would cost every file_system storage
    an open file (the very thing that strategy exists to avoid).
    """

    __slots__ = ("nbytes", "name", "fd", "key", "__array_interface__", "__weakref__")

    def __init__(self, fd: int, nbytes: int, *, name: str | None, keep_fd: bool):
        length = max(nbytes, 1)  # mmap refuses length 0; a 0-byte storage maps 1 byte
        address = _mmap(None, length, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, fd, 0)
        if address in (None, _MAP_FAILED):
            error = ctypes.get_errno()
            raise OSError(error, f"mmap of a shared segment failed: {os.strerror(error)}")
        self.nbytes = nbytes
        self.name = name
        self.fd = fd if keep_fd else None
        stat = os.fstat(fd)
        self.key = name if name is not None else (stat.st_dev, stat.st_ino)
        self.__array_interface__ = {
            "shape": (nbytes,),
            "typestr": "|u1",
            "data": (address, False),
            "version": 3,
        }
        release = weakref.finalize(self, _release_segment, address, length, self.fd, name)
        release.atexit = False  # at exit the kernel and the tracker clean up

    def array(self) -> np.ndarray:
        # the array's base is this object: the mapping lives as long as any view of it
        return np.asarray(self)


_libc = ctypes.CDLL(None, use_errno=True)
_mmap = _libc.mmap
_mmap.restype = ctypes.c_void_p
_mmap.argtypes = (
    ctypes.c_void_p,
    ctypes.c_size_t,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_long,
)
_munmap = _libc.munmap
_munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
_MAP_FAILED = ctypes.c_void_p(-1).value


def _release_segment(address: int, length: int, fd: int | None, name: str | None) -> None:
    _munmap(address, length)
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass
    if name is not None:
        tracker.release(name)


def segment_of(array: np.ndarray) -> SharedMap | None:
    """The shared segment that ``array``'s memory belongs to, or None."""
    base = array
    while isinstance(base, np.ndarray):
        base = base.base
    return base if isinstance(base, SharedMap) else None


def _anonymous_fd() -> int:
    if hasattr(os, "memfd_create"):
        return os.memfd_create("torch-core-storage", os.MFD_CLOEXEC)
    # without memfd (not Linux): a file unlinked at once is just as anonymous
    directory = SHM_DIR if os.path.isdir(SHM_DIR) else tempfile.gettempdir()
    path = os.path.join(directory, f"{PREFIX}anon_{os.getpid()}_{secrets.token_hex(8)}")
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    os.unlink(path)
    return fd


def _fill(fd: int, nbytes: int, initial) -> None:
    """Size the new segment ``fd`` and write ``initial`` (a contiguous buffer, or None for
    zeros) into it. NOTE: writing through the descriptor before the segment is mapped
    lets the kernel allocate and fill its pages in one pass; copying into a fresh mapping
    takes a page fault per 4 KiB and was twice as slow (100 MB: 40 against 75 ms)."""
    os.ftruncate(fd, max(nbytes, 1))
    if initial is None or nbytes == 0:
        return
    data = memoryview(initial).cast("B")
    written = 0
    while written < nbytes:
        written += os.pwrite(fd, data[written:], written)


def _new_fd_segment(nbytes: int, initial=None) -> SharedMap:
    fd = _anonymous_fd()
    try:
        _fill(fd, nbytes, initial)
        return SharedMap(fd, nbytes, name=None, keep_fd=True)
    except BaseException:
        os.close(fd)
        raise


_names = itertools.count()


def _tag() -> str:
    """An optional label after the prefix, from ``TORCH_CORE_SHM_TAG`` (inherited by child
    processes): lets a job (or a test worker) find its own segments among others'."""
    return os.environ.get(TAG_ENV, "").replace("/", "_")


def _new_named_segment(nbytes: int, initial=None) -> SharedMap:
    name = f"{PREFIX}{_tag()}{os.getpid()}_{next(_names)}_{secrets.token_hex(4)}"
    # registered before the file exists: if we die in between, the tracker still reads
    # the ADD (before our connection's end) and unlinks the file
    tracker.send("ADD", name)
    fd = os.open(os.path.join(SHM_DIR, name), os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        _fill(fd, nbytes, initial)
        return SharedMap(fd, nbytes, name=name, keep_fd=False)
    finally:
        os.close(fd)


def new_shared_buffer(nbytes: int, strategy: str | None = None, initial=None) -> np.ndarray:
    """A ``uint8`` array of ``nbytes`` in a new shared segment, holding a copy of
    ``initial`` (a contiguous buffer of ``nbytes``) or zeros."""
    strategy = strategy or _strategy
    new_segment = _new_fd_segment if strategy == "file_descriptor" else _new_named_segment
    segment = new_segment(nbytes, initial)
    _remember(segment.key, segment)
    return segment.array()


# ------------------------------------------------- one storage per segment per process

# key -> storage: a segment received twice (or sent back to its creator) maps to the
# storage this process already has, so views sent separately still share one storage
_storages: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_segments: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _remember(key, segment: SharedMap) -> None:
    _segments[key] = segment


def _cached_storage(key):
    return _storages.get(key)


def _storage_for(segment: SharedMap):
    from ._storage import UntypedStorage

    storage = UntypedStorage._wrap(segment.array())
    _storages[segment.key] = storage
    return storage


def new_shared_storage(nbytes: int):
    """A new zero-filled storage of ``nbytes`` in shared memory (``_new_shared``)."""
    buffer = new_shared_buffer(nbytes)
    from ._storage import UntypedStorage

    storage = UntypedStorage._wrap(buffer)
    _storages[segment_of(buffer).key] = storage
    return storage


def storage_from_fd(fd: int, nbytes: int):
    """The storage over the memfd segment ``fd`` (received from another process); takes
    ownership of ``fd``."""
    stat = os.fstat(fd)
    cached = _cached_storage((stat.st_dev, stat.st_ino))
    if cached is not None:
        os.close(fd)
        return cached
    try:
        segment = SharedMap(fd, nbytes, name=None, keep_fd=True)
    except BaseException:
        os.close(fd)
        raise
    _remember(segment.key, segment)
    return _storage_for(segment)


def storage_from_name(
    name: str, nbytes: int, *, in_flight: bool = False, tracker_address: str | None = None
):
    """The storage over the named segment ``name``; ``in_flight`` releases the reference
    the sender took for the message that carried the name. ``tracker_address`` is the
    sender's tracker, which a process that has none yet joins (see
    :meth:`_TrackerClient.adopt`)."""
    cached = _cached_storage(name)
    if tracker_address is not None:
        tracker.adopt(tracker_address)
    if cached is None:
        tracker.send("ADD", name)
        try:
            fd = os.open(os.path.join(SHM_DIR, name), os.O_RDWR)
        except OSError:
            tracker.release(name)
            raise
        try:
            segment = SharedMap(fd, nbytes, name=name, keep_fd=False)
        finally:
            os.close(fd)
        _remember(name, segment)
        cached = _storage_for(segment)
    if in_flight:
        tracker.send("RECV", name)
    return cached


def mark_in_flight(name: str) -> str | None:
    """Keep ``name`` alive for a message on its way to another process (file_system);
    returns the address of the tracker that holds it, for the receiver."""
    tracker.send("SEND", name)
    return tracker.address


# ----------------------------------------------------------- moving into shared memory


def is_shared(storage) -> bool:
    return segment_of(storage._buffer) is not None


def share_storage(storage, *, others_may_hold: bool = True):
    """Move ``storage``'s bytes into a new shared segment (no-op when already shared).

    NOTE: tensors keep NumPy views of their storage's buffer, so every tensor over this
    storage gets its view rebuilt on the new buffer. They are found through the garbage
    collector's referrer lists (only when ``others_may_hold``): sharing is rare, and this
    keeps the hot paths free of any bookkeeping.
    """
    if is_shared(storage):
        return storage
    old = storage._buffer
    new = new_shared_buffer(old.nbytes, initial=np.ascontiguousarray(old))
    storage._buffer = new
    _storages[segment_of(new).key] = storage
    if others_may_hold:
        from ._tensor import Tensor

        for holder in gc.get_referrers(storage):
            if isinstance(holder, Tensor) and holder._storage_ is storage:
                _rebind(holder, old, new)
    return storage


def share_tensor(tensor) -> None:
    """``Tensor.share_memory_``: move the tensor's storage into shared memory."""
    if tensor._storage_ is None:
        # no storage object yet, so no other tensor views this memory: rebind only this one
        storage = tensor._storage
        if is_shared(storage):
            return
        old = storage._buffer
        share_storage(storage, others_may_hold=False)
        _rebind(tensor, old, storage._buffer)
        return
    if _references(tensor._storage_) <= _SOLE_HOLDER_REFERENCES:
        storage = tensor._storage_
        old = storage._buffer
        share_storage(storage, others_may_hold=False)
        if storage._buffer is not old:
            _rebind(tensor, old, storage._buffer)
        return
    share_storage(tensor._storage_)


def _references(obj) -> int:
    return sys.getrefcount(obj)


class _Holder:
    __slots__ = ("held",)


def _sole_holder_references() -> int:
    # what _references reports for an object referenced by one slot and nothing else,
    # measured the same way share_tensor measures (independent of the Python version)
    holder = _Holder()
    holder.held = object()
    return _references(holder.held)


_SOLE_HOLDER_REFERENCES = _sole_holder_references()


def _rebind(tensor, old: np.ndarray, new: np.ndarray) -> None:
    """Point ``tensor``'s NumPy view at the same bytes of ``new`` as it had in ``old``."""
    array = tensor._np
    if old.nbytes:
        start = old.__array_interface__["data"][0]
        byte_offset = array.__array_interface__["data"][0] - start
    else:
        byte_offset = 0
    if array.size == 0:
        byte_offset = 0
        new = new[:0]
    tensor._np = np.ndarray(array.shape, array.dtype, new, byte_offset, array.strides)


# ------------------------------------ handles for torch._interface.sharing (siblings)


def segment_of_storage(storage) -> SharedMap | None:
    """The segment holding ``storage``'s bytes (None when not in shared memory)."""
    return segment_of(storage._buffer)


# ----------------------------------------------------------------- tracker client


class _TrackerClient:
    """This process's connection to the file_system tracker (one per process: a forked
    child opens its own, so the tracker sees each process end)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._releases: collections.deque = collections.deque()
        # the last releases written (a dead tracker's unread lines are among them)
        self._recently_released: collections.deque = collections.deque(maxlen=4096)
        self._sock: socket.socket | None = None
        self._address: str | None = None
        self._pid: int | None = None
        self._process: subprocess.Popen | None = None

    def send(self, verb: str, name: str) -> None:
        """Tell the tracker ``verb name``. Nothing waits for an answer: the order of one
        connection's lines is all that matters (an ADD written before a file is made is
        read before this process's end, even after SIGKILL), and the tracker accepts a
        receiver's RECV before the sender's SEND."""
        line = f"{verb} {name}\n".encode()
        with self._lock:
            try:
                self._write(line)
            except OSError:
                # the tracker is gone (killed?): start another one, which learns this
                # process's live segments when it connects, and write again
                self._drop_connection()
                try:
                    self._write(line)
                except OSError as error:
                    raise RuntimeError(
                        f"torch-core's shared-memory tracker is unreachable ({error}); "
                        f"cannot {verb.lower()} segment {name}"
                    ) from error

    def _write(self, line: bytes) -> None:
        sock = self._connection()
        self._flush_releases(sock)
        sock.sendall(line)

    @property
    def address(self) -> str | None:
        """The abstract socket name of this process's tracker (None before connecting)."""
        return self._address if self._pid == os.getpid() else None

    def connect(self) -> None:
        """Connect now (starting a tracker if none is reachable); a failure is left for
        the first :meth:`send` to report."""
        with self._lock:
            try:
                self._connection()
            except OSError:
                self._drop_connection()

    def adopt(self, address: str) -> None:
        """Use the tracker at ``address`` (a sender's) if this process is connected to
        none yet.

        NOTE: a sender's tracker that lost its last client keeps the names of messages
        in flight for a while (``_shm_tracker.LINGER``) before it unlinks them and
        exits; a receiver that had no tracker joins it instead of starting its own, so
        the received segment stays under the one tracker that knows all its users. A
        receiver that already has another tracker keeps it: its own use is counted
        there, and the sender's tracker unlinks the name when its own clients are gone
        (the received mapping stays valid; only passing the name on may then fail).
        """
        if self.address is None:
            os.environ[TRACKER_ENV] = address  # read by the next _connection()

    def _drop_connection(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()
        if os.environ.get(TRACKER_ENV) == self._address:
            del os.environ[TRACKER_ENV]  # refused anyway; do not even try it again

    def release(self, name: str) -> None:
        """``DEL name``, from a segment's finalizer.

        NOTE: finalizers run wherever the garbage collector does, possibly inside
        :meth:`send` on this very thread, so they never wait for the lock: the name is
        queued and written now if the lock is free, else by the next :meth:`send`.
        """
        self._releases.append(name)
        if not self._lock.acquire(blocking=False):
            return
        try:
            self._flush_releases(self._connection())
        except OSError:
            try:  # the tracker is gone: tell a new one
                self._drop_connection()
                self._flush_releases(self._connection())
            except OSError:
                pass  # shutting down: the tracker drops this process's uses when it ends
        finally:
            self._lock.release()

    def _flush_releases(self, sock: socket.socket) -> None:
        while self._releases:
            name = self._releases[0]
            sock.sendall(f"DEL {name}\n".encode())
            self._releases.popleft()  # only once written: a new tracker must hear of it
            self._recently_released.append(name)

    def _connection(self) -> socket.socket:
        if self._sock is not None and self._pid == os.getpid():
            return self._sock
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        address = os.environ.get(TRACKER_ENV)
        try:
            if address is None:
                raise ConnectionRefusedError
            sock.connect("\0" + address)
        except OSError:
            sock.close()
            address = self._start()
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect("\0" + address)
        sock.set_inheritable(False)
        self._sock, self._pid, self._address = sock, os.getpid(), address
        # segments this process inherited (fork) are its to release too, and so are
        # those a tracker that died could not unlink: a queued release follows each
        names = [segment.name for segment in list(_segments.values()) if segment.name]
        for name in names + list(self._releases):
            sock.sendall(f"ADD {name}\n".encode())
        # releases written just before a tracker died may never have been read: the new
        # one unlinks those still there (unless a live process announces them again)
        for name in self._recently_released:
            if os.path.exists(os.path.join(SHM_DIR, name)):
                sock.sendall(f"ADD {name}\nDEL {name}\n".encode())
        self._recently_released.clear()
        return sock

    def _start(self) -> str:
        address = f"torch-core-shm-tracker-{os.getpid()}-{secrets.token_hex(6)}"
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind("\0" + address)
        listener.listen(128)
        script = os.path.join(os.path.dirname(__file__), "_shm_tracker.py")
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", script, str(listener.fileno()), SHM_DIR, PREFIX],
                pass_fds=(listener.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,  # it prints nothing; stderr shows a crash
                # its own session: a signal to the clients' process group (Ctrl-C, a
                # killpg) must leave it alive to clean up after them
                start_new_session=True,
            )
        finally:
            listener.close()
        os.environ[TRACKER_ENV] = address
        return address

    def forget_after_fork(self) -> None:
        # the child's copy of the parent's connection must close: the tracker notices a
        # process's end when every copy of its connection is closed
        sock, self._sock = self._sock, None
        self._lock = threading.Lock()
        self._releases.clear()  # the parent's to send
        self._recently_released.clear()
        self._process = None
        if sock is not None:
            sock.close()


tracker = _TrackerClient()
os.register_at_fork(after_in_child=tracker.forget_after_fork)
