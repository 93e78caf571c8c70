"""Splitting inputs over devices and gathering outputs back (DataParallel's first and
last steps). Tensors are split along ``dim`` (``torch.cuda.comm.scatter``) and
concatenated back (``comm.gather``); tuples, lists and dicts are taken apart and put
back together per device; any other object is passed to every device as it is. The
copies are recorded for autograd, so gradients flow back through both steps.
"""

from __future__ import annotations

import warnings

import torch

from ._devices import device_index

__all__ = ["scatter", "scatter_kwargs", "gather"]


def _comm():
    import torch.cuda.comm as comm

    return comm


def scatter(inputs, target_gpus, dim: int = 0):
    """``inputs`` split into one piece per device of ``target_gpus`` (fewer when a tensor
    has fewer slices than devices).

    Examples::

        >>> from torch.nn.parallel import scatter
        >>> pieces = scatter(torch.arange(4.0), [0, 1])  # doctest: +SKIP
        >>> [p.device.index for p in pieces]  # doctest: +SKIP
        [0, 1]
    """

    def split(value):
        if isinstance(value, torch.Tensor):
            if value.device.type == "cpu" and not _has_cuda():
                raise RuntimeError("Torch not compiled with CUDA enabled")
            return _comm().scatter(value, target_gpus, None, dim)
        if _is_namedtuple(value):
            return [type(value)(*parts) for parts in zip(*map(split, value))]
        if isinstance(value, tuple) and value:
            return list(zip(*map(split, value)))
        if isinstance(value, list) and value:
            return [list(parts) for parts in zip(*map(split, value))]
        if isinstance(value, dict) and value:
            return [type(value)(parts) for parts in zip(*map(split, value.items()))]
        return [value for _ in target_gpus]

    try:
        return split(inputs)
    finally:
        split = None  # a recursive closure refers to itself: let it go


def scatter_kwargs(inputs, kwargs, target_gpus, dim: int = 0):
    """:func:`scatter` of the positional and keyword arguments, padded to the same count
    (with ``()`` and ``{}``)."""
    scattered_inputs = scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = scatter(kwargs, target_gpus, dim) if kwargs else []
    if len(scattered_inputs) < len(scattered_kwargs):
        scattered_inputs.extend(() for _ in range(len(scattered_kwargs) - len(scattered_inputs)))
    elif len(scattered_kwargs) < len(scattered_inputs):
        scattered_kwargs.extend({} for _ in range(len(scattered_inputs) - len(scattered_kwargs)))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


def gather(outputs, target_device, dim: int = 0):
    """The per-device ``outputs`` put back together on ``target_device`` (a CUDA index
    or device, or ``"cpu"``/-1): tensors concatenated along ``dim``, containers rebuilt.

    Examples::

        >>> from torch.nn.parallel import gather
        >>> pieces = [torch.ones(2, device=f"cuda:{i}") for i in (0, 1)]  # doctest: +SKIP
        >>> gather(pieces, 0)  # doctest: +SKIP
        tensor([1., 1., 1., 1.], device='cuda:0')
    """

    def join(values):
        first = values[0]
        if isinstance(first, torch.Tensor):
            return _gather_tensors(values, target_device, dim)
        if first is None:
            return None
        if isinstance(first, dict):
            if not all(len(first) == len(d) for d in values):
                raise ValueError("All dicts must have the same number of keys")
            return type(first)((key, join([d[key] for d in values])) for key in first)
        if _is_namedtuple(first):
            return type(first)._make(map(join, zip(*values)))
        return type(first)(map(join, zip(*values)))

    try:
        return join(outputs)
    finally:
        join = None


def _gather_tensors(tensors, target_device, dim: int):
    if any(t.device.type == "cpu" for t in tensors):
        raise AssertionError("Gather function not implemented for CPU tensors")
    if target_device == "cpu":
        target = -1
    else:
        target = device_index(target_device, optional=True, allow_cpu=True)
    if all(t.dim() == 0 for t in tensors) and dim == 0:
        warnings.warn(
            "Was asked to gather along dimension 0, but all input tensors were scalars; "
            "will instead unsqueeze and return a vector.",
            UserWarning,
            stacklevel=4,
        )
        tensors = [t.view(1) for t in tensors]
    destination = "cpu" if target == -1 else target
    return _comm().gather(tensors, dim, destination)


def _has_cuda() -> bool:
    from ._devices import runtime

    return runtime() is not None


def _is_namedtuple(value) -> bool:
    return isinstance(value, tuple) and hasattr(value, "_asdict") and hasattr(value, "_fields")
