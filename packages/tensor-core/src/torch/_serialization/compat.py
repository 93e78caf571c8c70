"""Small public helpers of ``torch.serialization`` that scripts and libraries written
for PyTorch call: storage-type lookups, a module version check, a temporary folder, and
the warning class that loading a pickled module's changed source emits."""

from __future__ import annotations

import contextlib
import importlib
import shutil
import tempfile
import warnings

__all__ = [
    "SourceChangeWarning",
    "StorageType",
    "check_module_version_greater_or_equal",
    "mkdtemp",
    "normalize_storage_type",
    "storage_to_tensor_type",
]


class SourceChangeWarning(Warning):
    """Warned when a whole module saved with :func:`torch.save` is loaded and the source
    of its class has changed since."""


def normalize_storage_type(storage_type):
    """The ``torch.<Name>Storage`` class of the same name as ``storage_type``."""
    import torch

    return getattr(torch, storage_type.__name__)


def storage_to_tensor_type(storage):
    """The legacy tensor type (``torch.FloatTensor``, ...) that goes with ``storage``'s
    class (``torch.FloatStorage``, ...)."""
    storage_type = type(storage)
    module = importlib.import_module(storage_type.__module__)
    return getattr(module, storage_type.__name__.replace("Storage", "Tensor"))


def check_module_version_greater_or_equal(
    module, req_version_tuple: tuple, error_if_malformed: bool = True
) -> bool:
    """Whether ``module.__version__`` is at least ``req_version_tuple``, comparing as many
    leading fields as the tuple has (each converted to its field's type).

    Args:
        module: a module with a ``__version__`` string such as ``"1.24.0"``.
        req_version_tuple (tuple): the lowest version, e.g. ``(1, 24)``.
        error_if_malformed (bool): raise RuntimeError when the version cannot be parsed;
            otherwise warn and answer True. Default: ``True``.
    """
    fields = str(module.__version__).split(".")
    try:
        version = tuple(type(want)(fields[i]) for i, want in enumerate(req_version_tuple))
    except (ValueError, IndexError) as error:
        message = (
            f"'{module.__name__}' module version string is malformed '{module.__version__}' "
            f"and cannot be compared with tuple {req_version_tuple}"
        )
        if error_if_malformed:
            raise RuntimeError(message) from error
        warnings.warn(message + ", but continuing assuming that requirement is met", stacklevel=2)
        return True
    return version >= tuple(req_version_tuple)


class StorageType:
    """A storage class named in a legacy pickle (``"FloatStorage"``) and its dtype."""

    def __init__(self, name: str):
        from .storage_types import dtype_of_storage_name

        self._dtype = dtype_of_storage_name(name)

    @property
    def dtype(self):
        return self._dtype

    def __str__(self) -> str:
        return f"StorageType(dtype={self.dtype})"

    __repr__ = __str__


@contextlib.contextmanager
def mkdtemp():
    """Context manager: a new temporary folder, removed with its contents on exit."""
    path = tempfile.mkdtemp()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
