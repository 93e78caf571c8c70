"""The shared-memory protocol (extension API 0.5): what torch-multiprocessing and
torch-utils-data need of core's shared-memory storages to send tensors between processes.

Core moves a storage into shared memory itself (``Tensor.share_memory_``,
``UntypedStorage.share_memory_``); a sibling that sends one describes it by a handle of
its segment and rebuilds it on the other side from that handle:

- the sharing strategy of this process: :data:`STRATEGIES`,
  :func:`get_sharing_strategy`, :func:`set_sharing_strategy`;
- sending: :func:`segment_of` (the :class:`Segment` of a shared storage, which is
  either anonymous, with a descriptor ``fd``, or named, with a ``name``) and, for a named
  segment, :func:`mark_in_flight`, which keeps it alive until the receiver has it;
- receiving: :func:`storage_from_fd` and :func:`storage_from_name` give the storage over
  a received segment (the same storage object when this process already maps it, so
  views sent separately still share one storage), :func:`typed_storage` and
  :func:`tensor_over` rebuild what was sent over it.

Nothing here is a hot path: each call pays for at least one system call.
"""

from __future__ import annotations

from typing import Protocol

from .. import _shared_memory

__all__ = [
    "STRATEGIES",
    "Segment",
    "get_sharing_strategy",
    "set_sharing_strategy",
    "segment_of",
    "mark_in_flight",
    "storage_from_fd",
    "storage_from_name",
    "typed_storage",
    "tensor_over",
    "share_device_storage",
    "device_storage_from",
]

#: the sharing strategies: ``"file_descriptor"`` (anonymous segments passed as
#: descriptors, the default) and ``"file_system"`` (named segments in /dev/shm)
STRATEGIES: tuple[str, ...] = _shared_memory.STRATEGIES


class Segment(Protocol):
    """The shared segment holding a storage's bytes, as :func:`segment_of` gives it."""

    #: the name of a ``file_system`` segment (None for an anonymous one)
    name: str | None
    #: the descriptor of an anonymous segment, owned by the segment: send a duplicate
    fd: int | None


def get_sharing_strategy() -> str:
    """The sharing strategy new segments of this process use."""
    return _shared_memory.get_sharing_strategy()


def set_sharing_strategy(strategy: str) -> None:
    """Use ``strategy`` (one of :data:`STRATEGIES`) for new segments of this process;
    raises ``AssertionError`` (as PyTorch does) for another value."""
    _shared_memory.set_sharing_strategy(strategy)


def segment_of(storage) -> Segment | None:
    """The segment holding ``storage``'s bytes, or None when it is not in shared memory."""
    return _shared_memory.segment_of_storage(storage)


def mark_in_flight(name: str) -> str | None:
    """Keep the named segment ``name`` alive while a message carrying it travels to
    another process; returns the address of the tracker that holds it, which the
    receiver passes to :func:`storage_from_name`."""
    return _shared_memory.mark_in_flight(name)


def storage_from_fd(fd: int, nbytes: int):
    """The ``UntypedStorage`` of ``nbytes`` over the anonymous segment ``fd`` (received from
    another process). Takes ownership of ``fd``: the storage closes it when freed."""
    return _shared_memory.storage_from_fd(fd, nbytes)


def storage_from_name(name: str, nbytes: int, tracker_address: str | None):
    """The ``UntypedStorage`` of ``nbytes`` over the named segment ``name`` that another
    process marked in flight (:func:`mark_in_flight` gave it ``tracker_address``): this
    process registers its own use and releases the sender's mark."""
    return _shared_memory.storage_from_name(
        name, nbytes, in_flight=True, tracker_address=tracker_address
    )


def typed_storage(untyped, dtype):
    """``untyped`` (an ``UntypedStorage``) seen as a ``TypedStorage`` of ``dtype``."""
    from .._storage import TypedStorage

    return TypedStorage._wrap(untyped, dtype)


def tensor_over(storage, dtype, offset: int, size, stride):
    """A new leaf tensor at version 0 viewing ``storage`` (an ``UntypedStorage``) with the
    given element offset, size and stride."""
    from .._creation import empty

    tensor = empty(0, dtype=dtype, device=storage.device).set_(storage, offset, size, stride)
    tensor._version_ = None  # set_ counted as a write; a received tensor starts fresh
    return tensor


def share_device_storage(storage) -> tuple:
    """A picklable description of a CUDA ``storage`` for :func:`device_storage_from` in
    another process: a CUDA IPC handle with the storage's offset in its allocation and the
    device index on CuPy; on simulated devices a CPU storage over a shared segment (the
    storage's memory moves there once, its tensors follow) and the device index. A CPU
    storage inside it is pickled by the caller's storage reducer as any shared one."""
    from ..cuda import _ipc

    return _ipc.share(storage)


def device_storage_from(description):
    """The CUDA ``UntypedStorage`` a :func:`share_device_storage` description names, in this
    process (on simulated devices it needs as many simulated devices as the sender's index
    requires; otherwise ``RuntimeError``)."""
    from ..cuda import _ipc

    return _ipc.open_shared(description)
