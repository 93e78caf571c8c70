"""Interchange with other array libraries: DLPack both ways."""

from __future__ import annotations

import numpy as np

from ._creation import from_numpy
from ._tensor import Tensor

__all__ = ["from_dlpack", "to_dlpack"]


class _Capsule:
    """Holds a raw DLPack capsule so that NumPy's ``from_dlpack`` can consume it."""

    def __init__(self, capsule) -> None:
        self._capsule = capsule

    def __dlpack__(self, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def from_dlpack(ext_tensor, *, device=None, copy=None) -> Tensor:
    """A tensor sharing memory with ``ext_tensor``: any object with ``__dlpack__`` (a
    NumPy array, another framework's tensor) or a DLPack capsule. ``copy=True`` copies
    the data, ``copy=False`` never does; ``device`` is where the result lives (the CPU).

    Examples::

        >>> import numpy as np
        >>> a = np.arange(3.0)
        >>> t = torch.from_dlpack(a)
        >>> a[0] = 7.0
        >>> t
        tensor([7., 1., 2.], dtype=torch.float64)
        >>> torch.from_dlpack(a, copy=True).data_ptr() == t.data_ptr()
        False
    """
    if device is not None:
        _check_target_device(device)
    if isinstance(ext_tensor, Tensor):
        return ext_tensor.clone() if copy else ext_tensor
    source = ext_tensor if hasattr(ext_tensor, "__dlpack__") else _Capsule(ext_tensor)
    if hasattr(source, "__dlpack_device__") and source.__dlpack_device__()[0] != 1:
        raise RuntimeError("from_dlpack: only CPU tensors can be imported in this build")
    array = np.from_dlpack(source)
    if copy:
        array = array.copy()
    elif not array.flags.writeable:
        array = array.view()
    return from_numpy(array)


def _check_target_device(device) -> None:
    """``device=`` of :func:`from_dlpack`: the CPU; others fail as in PyTorch's CPU build."""
    from ._device import device as device_type

    target = device if isinstance(device, device_type) else device_type(device)
    if target.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if target.type != "cpu":
        raise BufferError(f"Cannot pack tensors on {target.type}")


def to_dlpack(tensor: Tensor):
    """A DLPack capsule viewing ``tensor``'s memory."""
    return tensor.__dlpack__()
