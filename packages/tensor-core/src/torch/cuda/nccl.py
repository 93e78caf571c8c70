"""Collectives over several CUDA devices of one process, with NVIDIA NCCL's semantics:
each call takes one tensor per device (on distinct devices) and writes its result in
place. On real GPUs they run through CuPy's NCCL bindings (``cupy.cuda.nccl``, from the
``torch-core[cuda12]``/``[cuda13]`` extras); on simulated devices they are computed on
the host. Without CUDA, :func:`is_available` warns and answers False and the collectives
raise.

Examples::

    >>> import torch
    >>> import torch.cuda.nccl as nccl
    >>> xs = [torch.ones(2, device=f"cuda:{i}") for i in range(2)]  # doctest: +SKIP
    >>> nccl.all_reduce(xs); xs[1]  # doctest: +SKIP
    tensor([2., 2.], device='cuda:1')
"""

from __future__ import annotations

import collections.abc
import os
import warnings

import torch

from . import _runtime

__all__ = ["all_reduce", "reduce", "broadcast", "all_gather", "reduce_scatter"]

SUM = 0  # ncclRedOp_t: ncclSum (ncclProd 1, ncclMax 2, ncclMin 3, ncclAvg 4)
_UNIQUE_ID_BYTES = 128  # NCCL_UNIQUE_ID_BYTES


def _collectives():
    runtime = _runtime.get()
    if runtime is None:
        raise RuntimeError("Torch not compiled with CUDA enabled: NCCL needs CUDA devices")
    return runtime.nccl


def is_available(tensors) -> bool:
    """Whether the collectives can take ``tensors``: CUDA is there, and the tensors are
    dense, contiguous, on CUDA and on distinct devices."""
    if _runtime.get() is None:
        warnings.warn("PyTorch is not compiled with NCCL support", stacklevel=2)
        return False
    devices = set()
    for tensor in tensors:
        if getattr(tensor, "is_sparse", False) or not tensor.is_contiguous():
            return False
        if not tensor.is_cuda or tensor.get_device() in devices:
            return False
        devices.add(tensor.get_device())
    return True


def version():
    """The NCCL version as ``(major, minor, patch)`` (``(0, 0, 0)`` on simulated
    devices, which have no NCCL library)."""
    return _collectives().version()


def unique_id() -> bytes:
    """A fresh NCCL unique id (what :func:`init_rank` of every rank is given)."""
    collectives = _collectives()
    if getattr(collectives, "simulated", False):
        return os.urandom(_UNIQUE_ID_BYTES)
    return collectives.unique_id()


def init_rank(num_ranks: int, uid: bytes, rank: int):
    """A communicator for ``rank`` of ``num_ranks`` processes sharing ``uid`` (real GPUs
    only: simulated devices live in one process)."""
    collectives = _collectives()
    if getattr(collectives, "simulated", False):
        raise RuntimeError(
            "nccl.init_rank: simulated CUDA devices have no multi-process communicators; "
            "pass comms=None to use every device of this process"
        )
    return collectives.init_rank(num_ranks, uid, rank)


def _check_sequence_type(inputs) -> None:
    if not isinstance(inputs, collections.abc.Container) or isinstance(inputs, torch.Tensor):
        raise TypeError("Inputs should be a collection of tensors")


def _check_inputs(inputs, outputs=None) -> None:
    """NCCL's requirements: contiguous CUDA tensors of one dtype, one per device."""
    _collectives()  # without CUDA, that error first
    if not inputs:
        raise RuntimeError("expected at least one input tensor")
    devices = set()
    first = inputs[0]
    for tensor in inputs:
        if not tensor.is_cuda:
            raise TypeError("input must be a CUDA tensor")
        if not tensor.is_contiguous():
            raise ValueError("input must be contiguous")
        if tensor.get_device() in devices:
            raise RuntimeError("inputs must be on unique devices")
        devices.add(tensor.get_device())
        if tensor.dtype != first.dtype:
            raise TypeError("all inputs must have the same type")
        if tensor.numel() != first.numel():
            raise ValueError("all inputs must have the same number of elements")
    if outputs is None:
        return
    if len(outputs) != len(inputs):
        raise ValueError("inputs and outputs must be of the same length")
    for tensor, output in zip(inputs, outputs):
        if not output.is_cuda or output.get_device() != tensor.get_device():
            raise RuntimeError("output must be a CUDA tensor on the device of its input")
        if not output.is_contiguous():
            raise ValueError("output must be contiguous")
        if output.dtype != first.dtype:
            raise TypeError("output must have the same type as the inputs")
        if output.numel() != tensor.numel():
            raise ValueError("output must have as many elements as its input")


def _check_streams(streams, count: int) -> None:
    if streams is not None and len(streams) != count:
        raise ValueError("streams must be None or have one stream per input")


def all_reduce(inputs, outputs=None, op: int = SUM, streams=None, comms=None) -> None:
    """Write the reduction (``op``, default sum) of ``inputs`` into each of ``outputs``
    (default: ``inputs`` themselves)."""
    _check_sequence_type(inputs)
    if outputs is None:
        outputs = inputs
    _check_sequence_type(outputs)
    _check_inputs(inputs, outputs)
    _check_streams(streams, len(inputs))
    _collectives().all_reduce(list(inputs), list(outputs), op)


def reduce(inputs, output=None, root: int = 0, op: int = SUM, streams=None, comms=None, *,
           outputs=None) -> None:  # fmt: skip
    """Write the reduction of ``inputs`` into ``output`` (default ``inputs[root]``), on
    the device of ``inputs[root]``. A list of outputs (the old form) is deprecated."""
    _check_sequence_type(inputs)
    if outputs is not None:
        if output is not None:
            raise ValueError(
                "'output' and 'outputs' can not be both specified. 'outputs' is deprecated in "
                "favor of 'output', taking in a single output tensor. The signature of reduce "
                "is: reduce(inputs, output=None, root=0, op=SUM, streams=None, comms=None)."
            )
        warnings.warn(
            "`nccl.reduce` with an output tensor list is deprecated. Please specify a single "
            "output tensor with argument 'output' instead.",
            FutureWarning,
            stacklevel=2,
        )
        output = outputs[root]
    elif not isinstance(output, torch.Tensor) and isinstance(output, collections.abc.Sequence):
        warnings.warn(
            "nccl.reduce with an output tensor list is deprecated. Please specify a single "
            "output tensor.",
            FutureWarning,
            stacklevel=2,
        )
        output = output[root]
    elif output is None:
        output = inputs[root]
    _check_inputs(inputs)
    if not 0 <= root < len(inputs):
        raise ValueError(f"root {root} is out of range for {len(inputs)} inputs")
    if output.get_device() != inputs[root].get_device():
        raise RuntimeError("output must be on the device of inputs[root]")
    _collectives().reduce(list(inputs), output, root, op)


def broadcast(inputs, root: int = 0, streams=None, comms=None) -> None:
    """Copy ``inputs[root]`` into every other tensor of ``inputs``."""
    _check_sequence_type(inputs)
    _check_inputs(inputs)
    if not 0 <= root < len(inputs):
        raise ValueError(f"root {root} is out of range for {len(inputs)} inputs")
    _collectives().broadcast(list(inputs), root)


def all_gather(inputs, outputs, streams=None, comms=None) -> None:
    """Write the concatenation of all ``inputs`` (flattened, in device order) into each
    of ``outputs`` (``len(inputs)`` times an input's size)."""
    _check_sequence_type(inputs)
    _check_sequence_type(outputs)
    _check_inputs(inputs)
    for output in outputs:
        if output.numel() != inputs[0].numel() * len(inputs):
            raise ValueError("output must be of size input_size * num_devices")
    _collectives().all_gather(list(inputs), list(outputs))


def reduce_scatter(inputs, outputs, op: int = SUM, streams=None, comms=None) -> None:
    """Reduce ``inputs`` and write the ``i``-th equal piece of the result into
    ``outputs[i]`` (each ``1 / len(inputs)`` of an input's size)."""
    _check_sequence_type(inputs)
    _check_sequence_type(outputs)
    _check_inputs(inputs)
    for output in outputs:
        if output.numel() * len(inputs) != inputs[0].numel():
            raise ValueError("input must be of size output_size * num_devices")
    _collectives().reduce_scatter(list(inputs), list(outputs), op)
