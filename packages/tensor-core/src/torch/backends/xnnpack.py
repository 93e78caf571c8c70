"""torch.backends.xnnpack: the XNNPACK mobile kernels, not built here."""

from __future__ import annotations

import sys as _sys
import types as _types

from . import _wrapping_methods

__all__ = ["XNNPACKEngine"]


class _Enabled:
    def __get__(self, obj, objtype):
        return False

    def __set__(self, obj, val):
        raise RuntimeError("Assignment not supported")


class XNNPACKEngine(_types.ModuleType):
    """The module type carrying the read-only ``enabled``."""

    __init__, __getattr__ = _wrapping_methods("XNNPACKEngine")

    enabled = _Enabled()


_sys.modules[__name__].__class__ = XNNPACKEngine
