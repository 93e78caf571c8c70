"""Copies between CUDA devices for single-process multi-GPU work: broadcast a tensor to
several devices, sum tensors from several devices onto one, split a tensor over devices
and concatenate pieces from several devices (what ``torch.nn.parallel`` is built on).

Devices are CUDA device indices (or ``torch.device`` objects). The copies are ``.to()``
copies, so they are recorded for autograd: gradients flow back to the devices the inputs
came from. Without CUDA each function raises PyTorch's error (the CPU build raises an
``AttributeError`` on its missing C functions; this one says "Torch not compiled with
CUDA enabled").

Examples::

    >>> import torch
    >>> from torch.cuda import comm
    >>> x = torch.arange(4.0, device="cuda:0")  # doctest: +SKIP
    >>> [t.device.index for t in comm.broadcast(x, [0, 1])]  # doctest: +SKIP
    [0, 1]
"""

from __future__ import annotations

import warnings

import torch

from . import _runtime

__all__ = [
    "broadcast",
    "broadcast_coalesced",
    "reduce_add",
    "reduce_add_coalesced",
    "scatter",
    "gather",
]

_BUFFER = 10485760  # 10 MiB: the coalescing buffer size PyTorch takes by default


def _cuda(index: int) -> torch.device:
    return torch.device("cuda", index)


def _indices(devices) -> list[int]:
    return [_runtime.device_index(d) for d in devices]


def _to(tensor, index: int):
    """``tensor`` on CUDA device ``index`` (itself when it is there)."""
    return tensor.to(_cuda(index), non_blocking=True)


def broadcast(tensor, devices=None, *, out=None):
    """Copies of ``tensor`` on each of ``devices`` (or into the tensors of ``out``); the
    copy for the device ``tensor`` is on is ``tensor`` itself.

    Args:
        tensor (Tensor): what to broadcast (on a CUDA device or the CPU).
        devices (Iterable[torch.device, str or int], optional): the target devices.
        out (Sequence[Tensor], optional, keyword-only): CUDA tensors to fill instead.

    Returns:
        a tuple with one tensor per device (``out`` when given).
    """
    _runtime.require()
    if (devices is None) == (out is None):
        raise RuntimeError(
            "Exactly one of 'devices' and 'out' must be specified, but got "
            f"devices={devices} and out={out}"
        )
    if devices is not None:
        return tuple(_to(tensor, index) for index in _indices(devices))
    for position, target in enumerate(out):
        if not target.is_cuda:
            raise RuntimeError(
                "Expected all output tensors to be CUDA tensors, but output tensor at index "
                f"{position} has device '{target.device}'"
            )
        if target.shape != tensor.shape:
            raise RuntimeError(
                "Expected all output tensors to have same shape as the source tensor "
                f"{tuple(tensor.shape)}, but output tensor at index {position} has shape "
                f"{tuple(target.shape)}"
            )
        with torch.no_grad():
            target.copy_(tensor.to(target.device))
    return tuple(out)


def broadcast_coalesced(tensors, devices, buffer_size: int = _BUFFER):
    """Each of ``tensors`` (all on ``devices[0]``) broadcast to ``devices``: one list per
    device, the first being ``tensors`` themselves. ``buffer_size`` bounds the coalesced
    copies of PyTorch's CUDA build; the copies here are per tensor, with the same result.
    """
    _runtime.require()
    indices = _indices(devices)
    for position, tensor in enumerate(tensors):
        if tensor.get_device() != indices[0]:
            raise RuntimeError(
                f"All tensors must be on devices[0]: {indices[0]}, but tensor at index "
                f"{position} is on device {tensor.device}"
            )
    result = [list(tensors)]
    result += [[_to(tensor, index) for tensor in tensors] for index in indices[1:]]
    return result


def reduce_add(inputs, destination=None):
    """The sum of ``inputs`` (same shape, on different CUDA devices) on ``destination``
    (default: the current device), which must hold one of them."""
    destination = _runtime.device_index(destination, optional=True)
    expected = inputs[0].size()
    root = None
    for position, tensor in enumerate(inputs):
        if tensor.device.type == "cpu":
            raise AssertionError(
                f"reduce_add expects all inputs to be on GPUs, but input {position} is on CPU"
            )
        if tensor.get_device() == destination:
            root = position
        if tensor.size() != expected:
            got = "x".join(str(n) for n in tensor.size())
            want = "x".join(str(n) for n in expected)
            raise ValueError(f"input {position} has invalid size: got {got}, but expected {want}")
    if root is None:
        raise RuntimeError(
            "reduce_add expects destination to be on the same GPU with one of the tensors"
        )
    if len(inputs) == 1:
        return inputs[0]
    total = inputs[root]
    for position, tensor in enumerate(inputs):
        if position != root:
            total = total + _to(tensor, destination)
    return total


def reduce_add_coalesced(inputs, destination=None, buffer_size: int = _BUFFER):
    """:func:`reduce_add` of each position of ``inputs`` (one list of tensors per device,
    in the same order): a tuple with one sum per position."""
    sizes = {len(per_device) for per_device in inputs}
    if len(sizes) != 1:
        raise ValueError("inputs must have the same number of tensors on every device")
    return tuple(reduce_add(list(group), destination) for group in zip(*inputs))


def scatter(tensor, devices=None, chunk_sizes=None, dim: int = 0, streams=None, *, out=None):
    """``tensor`` split along ``dim`` into one piece per device (as ``torch.chunk`` splits,
    or into ``chunk_sizes``), each copied to its device; or split into the shapes of the
    tensors of ``out`` and copied into them.

    Returns:
        a tuple of the pieces (``out`` when given).
    """
    _runtime.require()
    if out is not None:
        if devices is not None or chunk_sizes is not None:
            raise RuntimeError(
                "'devices' and 'chunk_sizes' must not be specified when 'out' is given, but "
                f"got devices={devices} and chunk_sizes={chunk_sizes}"
            )
        sizes = [target.size(dim) for target in out]
        if sum(sizes) != tensor.size(dim):
            raise RuntimeError(
                f"Total size for output tensors along scatter dim ({sum(sizes)}) does not "
                f"match the source tensor size at dim {dim} ({tensor.size(dim)})."
            )
        for target, piece in zip(out, tensor.split(sizes, dim)):
            with torch.no_grad():
                target.copy_(piece.to(target.device))
        return tuple(out)
    if devices is None:
        raise RuntimeError("Exactly one of 'devices' and 'out' must be specified")
    indices = _indices(devices)
    if chunk_sizes is not None:
        if len(chunk_sizes) != len(indices):
            raise RuntimeError(
                "Expected devices and chunk_sizes to be of same length, but got "
                f"len(devices) = {len(indices)} and len(chunk_sizes) = {len(chunk_sizes)}"
            )
        if sum(chunk_sizes) != tensor.size(dim):
            raise RuntimeError(
                f"Expected chunk sizes to sum to {tensor.size(dim)}, but got "
                f"sum(chunk_sizes) = {sum(chunk_sizes)}"
            )
        pieces = tensor.split(list(chunk_sizes), dim)
    else:
        pieces = tensor.chunk(len(indices), dim)
    return tuple(_to(piece.contiguous(), index) for piece, index in zip(pieces, indices))


def gather(tensors, dim: int = 0, destination=None, *, out=None):
    """``tensors`` (on CUDA devices) concatenated along ``dim`` on ``destination``
    (default: the current device; ``"cpu"`` for the host), or into ``out``."""
    _runtime.require()
    if out is not None:
        if destination is not None:
            raise RuntimeError(
                "'destination' must not be specified when 'out' is specified, but got "
                f"destination={destination}"
            )
        with torch.no_grad():
            out.copy_(_gathered(tensors, dim, out.device))
        return out
    if destination == -1:
        warnings.warn(
            "Using -1 to represent CPU tensor is deprecated. Please use a device object or "
            'string instead, e.g., "cpu".',
            FutureWarning,
            stacklevel=2,
        )
    index = _runtime.device_index(destination, optional=True, allow_cpu=True)
    return _gathered(tensors, dim, torch.device("cpu") if index == -1 else _cuda(index))


def _gathered(tensors, dim: int, target: torch.device):
    if not tensors:
        raise RuntimeError("Expected at least one tensor to gather from")
    rank = tensors[0].dim()
    for position, tensor in enumerate(tensors):
        if not tensor.is_cuda:
            raise RuntimeError(
                "Expected all input tensors to be CUDA tensors, but tensor at index "
                f"{position} has device '{tensor.device}'"
            )
        if tensor.dim() != rank:
            raise RuntimeError(
                "Expected all input tensors to have the same number of dimensions, but "
                f"tensor at index {position}has {tensor.dim()} dimensions, (expected {rank})"
            )
    return torch.cat([tensor.to(target, non_blocking=True) for tensor in tensors], dim)
