"""Pickling reducers that send tensors and storages between processes through shared
memory: the storage moves into a shared segment once, and what crosses the connection is
a handle to it (a file descriptor or a segment name), never the data.

They are registered with :class:`multiprocessing.reduction.ForkingPickler`, which every
``Queue``, ``SimpleQueue``, ``Pipe`` and ``Pool`` of :mod:`multiprocessing` uses, when
``torch.multiprocessing`` is imported.
"""

from __future__ import annotations

from multiprocessing import reduction

import torch
from torch._interface import sharing

__all__ = ["init_reductions", "reduce_tensor", "reduce_storage", "rebuild_tensor"]

_NON_LEAF_MESSAGE = (
    "Cowardly refusing to serialize non-leaf tensor which requires_grad, since autograd "
    "does not support crossing process boundaries.  If you just want to transfer the "
    "data, call detach() on the tensor before serializing (e.g., putting it on the queue)."
)


def _device_message(device) -> str:
    return (
        f"cannot send a tensor on {device} to another process: only CPU and CUDA tensors "
        "can be shared; send tensor.cpu() and move it back with .to(device) in the receiver"
    )


# --------------------------------------------------------------------------- storages


def reduce_storage(storage: torch.UntypedStorage):
    """Move ``storage`` into shared memory and describe it by a handle: with the
    file_descriptor strategy (or a memfd segment) a duplicate of its descriptor, passed
    by :mod:`multiprocessing`'s resource sharer; with file_system its name."""
    if storage.nbytes() == 0:
        return (_rebuild_empty_storage, ())  # nothing to share: a new empty one
    if not storage.is_shared():
        storage.share_memory_()
    segment = sharing.segment_of(storage)
    nbytes = storage.nbytes()
    if segment.name is not None:
        tracker_address = sharing.mark_in_flight(segment.name)
        return (rebuild_storage_filename, (segment.name, nbytes, tracker_address))
    return (rebuild_storage_fd, (reduction.DupFd(segment.fd), nbytes))


def _rebuild_empty_storage() -> torch.UntypedStorage:
    return torch.UntypedStorage(0)


def rebuild_storage_fd(handle, nbytes: int) -> torch.UntypedStorage:
    fd = handle.detach()  # ours to keep: the storage closes it when freed
    return sharing.storage_from_fd(fd, nbytes)


def rebuild_storage_filename(
    name: str, nbytes: int, tracker_address: str | None = None
) -> torch.UntypedStorage:
    # the sender's tracker holds the segment until this receiver registers its use
    return sharing.storage_from_name(name, nbytes, tracker_address)


def _reduce_typed_storage(storage: torch.TypedStorage):
    return (_rebuild_typed_storage, (storage.untyped(), storage.dtype))


def _rebuild_typed_storage(untyped, dtype) -> torch.TypedStorage:
    return sharing.typed_storage(untyped, dtype)


# ---------------------------------------------------------------------------- tensors


def reduce_tensor(tensor: torch.Tensor):
    """Share ``tensor``'s storage and describe the tensor as (storage, geometry): the
    receiver gets a tensor over the same memory, so writes on either side are seen by
    the other, and views sent separately still share one storage."""
    if tensor.requires_grad and not tensor.is_leaf:
        raise RuntimeError(_NON_LEAF_MESSAGE)
    if tensor.device.type == "cuda":
        return _reduce_cuda_tensor(tensor)
    if tensor.device.type != "cpu":
        raise RuntimeError(_device_message(tensor.device))
    if tensor.untyped_storage().nbytes():
        tensor.share_memory_()
    return (
        rebuild_tensor,
        (
            tensor.untyped_storage(),
            tensor.dtype,
            tensor.storage_offset(),
            tuple(tensor.shape),
            tensor.stride(),
            tensor.requires_grad,
        ),
    )


def rebuild_tensor(storage, dtype, offset, size, stride, requires_grad) -> torch.Tensor:
    """The receiving side of :func:`reduce_tensor`."""
    tensor = sharing.tensor_over(storage, dtype, offset, size, stride)
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def _reduce_cuda_tensor(tensor: torch.Tensor):
    """A CUDA tensor travels as core's description of its storage (a CUDA IPC handle, or
    on simulated devices a shared host segment) and its geometry; the receiver views the
    same device memory. As in PyTorch, the sender keeps the tensor alive meanwhile."""
    description = sharing.share_device_storage(tensor.untyped_storage())
    geometry = (tensor.storage_offset(), tuple(tensor.shape), tensor.stride())
    return (rebuild_cuda_tensor, (description, tensor.dtype, geometry, tensor.requires_grad))


def rebuild_cuda_tensor(description, dtype, geometry, requires_grad) -> torch.Tensor:
    """The receiving side of a CUDA tensor: a tensor over the sender's device memory."""
    storage = sharing.device_storage_from(description)
    return rebuild_tensor(storage, dtype, *geometry, requires_grad)


def init_reductions() -> None:
    """Register the reducers with ``ForkingPickler`` (done on import of
    torch.multiprocessing)."""
    reduction.ForkingPickler.register(torch.Tensor, reduce_tensor)
    reduction.ForkingPickler.register(torch.UntypedStorage, reduce_storage)
    reduction.ForkingPickler.register(torch.TypedStorage, _reduce_typed_storage)
