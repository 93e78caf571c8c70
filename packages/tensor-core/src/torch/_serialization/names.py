"""The globals a checkpoint may name, resolved without importing anything the file asks
for: PyTorch's public names map to this project's objects, and the allowlist of
``weights_only`` loading is built from the same table."""

from __future__ import annotations

import collections
import importlib

from .. import _dtype, _layout, _utils
from .._device import device
from .._interface import pickling
from .._size import Size
from .._storage import TypedStorage, UntypedStorage
from .._tensor import Tensor
from .storage_types import LEGACY_STORAGES

__all__ = ["torch_global", "relocated_global", "pytorch_name", "SAFE_BUILTINS", "is_storage_class"]


def _get_layout(name):
    """``torch.serialization._get_layout``: a layout by its repr (old checkpoints)."""
    if not isinstance(name, str):
        raise TypeError("layout name must be a str")
    found = _TORCH.get(name.removeprefix("torch."))
    if not isinstance(found, _layout.layout):
        raise RuntimeError(f"unknown layout {name!r}")
    return found


_TORCH: dict[str, object] = {
    "Size": Size,
    "device": device,
    "Tensor": Tensor,
    "strided": _layout.strided,
    "sparse_coo": _layout.sparse_coo,
    "contiguous_format": _layout.contiguous_format,
    "UntypedStorage": UntypedStorage,
    "TypedStorage": TypedStorage,
    **{d.name: d for d in _dtype.ALL_DTYPES},
    **LEGACY_STORAGES,
}
_REBUILDERS = {
    "_rebuild_tensor": _utils._rebuild_tensor,
    "_rebuild_tensor_v2": _utils._rebuild_tensor_v2,
    "_rebuild_tensor_v3": _utils._rebuild_tensor_v3,
    "_rebuild_parameter": _utils._rebuild_parameter,
    "_rebuild_parameter_with_state": _utils._rebuild_parameter_with_state,
}
_MODULES: dict[str, dict[str, object]] = {
    "torch": _TORCH,
    "torch.storage": {"UntypedStorage": UntypedStorage, "TypedStorage": TypedStorage},
    "torch._utils": _REBUILDERS,
    "torch._tensor": {"_rebuild_from_type_v2": _utils._rebuild_from_type_v2},
    "torch.serialization": {"_get_layout": _get_layout},
}
# aliases of dtypes that PyTorch also accepts by name
_TORCH.update({"float": _dtype.float32, "double": _dtype.float64, "half": _dtype.float16})
_TORCH.update({"long": _dtype.int64, "int": _dtype.int32, "short": _dtype.int16})
_TORCH.update({"cfloat": _dtype.complex64, "cdouble": _dtype.complex128, "bool": _dtype.bool_})


def torch_global(module: str, name: str):
    """The object a checkpoint means by ``module.name`` when it is one of PyTorch's, or
    None. Sibling packages register theirs (``torch.nn.parameter.Parameter`` resolves to
    torch-nn's when installed): see ``torch._interface.pickling``."""
    table = _MODULES.get(module)
    if table is not None:
        return table.get(name)
    return pickling.find_global(module, name)


def pytorch_name(obj) -> tuple[str, str] | None:
    """``(module, name)`` under which PyTorch pickles ``obj`` when that differs from where
    this project defines it (a sibling registered it), else None."""
    return pickling.pickled_name(obj)


def relocated_global(module: str, name: str):
    """What PyTorch's ``module.name`` is in this project when the project defines it
    elsewhere (PyTorch pickles ``BatchNorm2d`` as ``torch.nn.modules.batchnorm``; here it
    lives in another file of ``torch.nn.modules``): ``name`` looked up in the nearest
    enclosing ``torch`` package that exports it, or None. Only this project's own
    ``torch.*`` packages are imported, never a module the file names outside them."""
    if not module.startswith("torch.") or not name.isidentifier():
        return None
    parts = module.split(".")
    for depth in range(len(parts) - 1, 0, -1):
        package = ".".join(parts[:depth])
        try:
            found = getattr(importlib.import_module(package), name, None)
        except ImportError:
            continue
        if isinstance(found, type) or callable(found):
            return found
    return None


def is_storage_class(obj) -> bool:
    return obj is UntypedStorage or obj is TypedStorage or obj in LEGACY_STORAGES.values()


# builtins and stdlib names allowed with weights_only=True, as (module, name)
SAFE_BUILTINS: dict[tuple[str, str], object] = {
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("collections", "Counter"): collections.Counter,
    ("builtins", "set"): set,
    ("builtins", "bytearray"): bytearray,
    ("builtins", "complex"): complex,
    ("builtins", "slice"): slice,
    ("_codecs", "encode"): None,  # filled below: protocol 2 pickles bytes through it
}


def _encode_latin1(text, encoding="latin1"):
    """``_codecs.encode`` as protocol-2 pickles of bytes use it (latin-1 text only)."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise TypeError("_codecs.encode is allowed only for latin-1 text")
    return text.encode("latin1")


SAFE_BUILTINS[("_codecs", "encode")] = _encode_latin1
