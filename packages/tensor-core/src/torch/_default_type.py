"""``torch.set_default_tensor_type`` (deprecated since PyTorch 2.1 in favour of
``torch.set_default_dtype``) and ``torch.is_storage``: the 0.x ways of choosing the
default floating type and of telling storages from tensors."""

from __future__ import annotations

import warnings

from . import _dtype
from ._storage import TypedStorage, UntypedStorage

__all__ = ["set_default_tensor_type", "is_storage"]

_DEPRECATION = (
    "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
    "torch.set_default_dtype() and torch.set_default_device() as alternatives."
)
_warned = [False]


def set_default_tensor_type(t) -> None:
    """Make the floating dtype of legacy tensor type ``t`` the default dtype (what
    :func:`torch.set_default_dtype` does with that dtype). Deprecated: warns once.

    Args:
        t (type or str): a floating legacy type such as ``torch.DoubleTensor``, or its
            name, ``"torch.DoubleTensor"``.

    Examples::

        >>> torch.set_default_tensor_type(torch.DoubleTensor)  # doctest: +SKIP
        >>> torch.tensor([1.5]).dtype  # doctest: +SKIP
        torch.float64
    """
    if isinstance(t, str):
        t = _resolve_dotted(t)
    if not _warned[0]:
        _warned[0] = True
        warnings.warn(_DEPRECATION, UserWarning, stacklevel=2)
    dtype = getattr(t, "dtype", None) if isinstance(t, type) else None
    if not isinstance(dtype, _dtype.dtype):
        raise TypeError(
            "invalid type object: only floating-point types are supported as the default type"
        )
    if type(t).__module__.startswith("torch._sparse") or getattr(t, "is_sparse", False):
        raise TypeError("only dense types are supported as the default type")
    if getattr(t, "is_cuda", False):
        from . import cuda

        if not cuda.is_available():
            raise TypeError(
                f"type torch.cuda.{t.__name__} not available. Torch not compiled with CUDA enabled."
            )
    if not dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtype.set_default_dtype(dtype)


def _resolve_dotted(name: str):
    """``"torch.cuda.FloatTensor"`` -> the object, attribute by attribute (AttributeError
    naming the missing part, as Python's getattr words it)."""
    import importlib

    first, *rest = name.split(".")
    value = importlib.import_module(first)
    for part in rest:
        value = getattr(value, part)
    return value


def is_storage(obj) -> bool:
    """Whether ``obj`` is a storage (``UntypedStorage``, ``TypedStorage`` or a legacy
    ``torch.FloatStorage``-style one).

    Examples::

        >>> torch.is_storage(torch.ones(2).untyped_storage()), torch.is_storage(torch.ones(2))
        (True, False)
    """
    return isinstance(obj, (TypedStorage, UntypedStorage))
