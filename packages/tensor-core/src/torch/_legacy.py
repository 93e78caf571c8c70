"""The legacy tensor types of PyTorch 0.x: ``torch.FloatTensor``, ``torch.LongTensor``, ...

``torch.FloatTensor(2, 3)`` makes an uninitialised float32 tensor,
``torch.FloatTensor([1, 2])`` one holding that data, and ``isinstance(x,
torch.FloatTensor)`` tests the dtype. ``torch.Tensor(...)`` works the same way with the
default dtype.
"""

from __future__ import annotations

import numpy as np

from . import _dtype
from ._size import Size
from ._tensor import Tensor

__all__ = ["legacy_new", "LEGACY_TYPES"]


def legacy_new(dtype, args, device=None) -> Tensor:
    """``torch.<Type>Tensor(*args)``: sizes, a sequence of data, a tensor, or nothing."""
    from ._creation import _check_device, empty, tensor

    _check_device(device)
    if not args:
        return empty(0, dtype=dtype)
    if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        return empty(*args, dtype=dtype)
    if len(args) == 1:
        (arg,) = args
        if isinstance(arg, Size):
            return empty(arg, dtype=dtype)
        if isinstance(arg, Tensor):
            if arg._dtype is not dtype:
                raise TypeError(f"expected {dtype._legacy[:-6]} (got {arg._dtype._legacy[:-6]})")
            return arg._alias(arg._np)
        if isinstance(arg, (list, tuple, np.ndarray)):
            return tensor(arg, dtype=dtype)
    raise TypeError(
        f"new() received an invalid combination of arguments - got "
        f"({', '.join(type(a).__name__ for a in args)})"
    )


def _tensor_new(cls, *args, device=None):
    if cls is not Tensor:
        # subclasses (nn.Parameter, user classes) build themselves from a Tensor
        return object.__new__(cls)
    return legacy_new(_dtype.get_default_dtype(), args, device)


class _LegacyTypeMeta(type):
    def __instancecheck__(cls, instance) -> bool:
        return (
            isinstance(instance, Tensor)
            and instance._dtype is cls._legacy_dtype
            and not instance.is_sparse  # those are torch.sparse.<Type>Tensor
        )

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _make_legacy_type(d) -> type:
    def __new__(cls, *args, device=None):  # noqa: N807
        return legacy_new(d, args, device)

    # like PyTorch's, these are not subclasses of Tensor; isinstance checks the dtype
    return _LegacyTypeMeta(
        d._legacy,
        (),
        {
            "__slots__": (),
            "__new__": __new__,
            "_legacy_dtype": d,
            "dtype": d,
            "__doc__": f"Legacy constructor and isinstance check of {d} tensors.",
            "__module__": "torch",
        },
    )


LEGACY_TYPES = {d._legacy: _make_legacy_type(d) for d in _dtype.CLASSIC_DTYPES}
Tensor.__new__ = _tensor_new
