"""torch.backends.xnnpack: the XNNPACK mobile kernels, not built here."""

from __future__ import annotations

import sys as _sys
import types as _types

__all__ = ["XNNPACKEngine"]


class _Enabled:
    def __get__(self, obj, objtype):
        return False

    def __set__(self, obj, val):
        raise RuntimeError("Assignment not supported")


class XNNPACKEngine(_types.ModuleType):
    """The module type carrying the read-only ``enabled``."""

    def __init__(self, m, name):
        super().__init__(name, getattr(m, "__doc__", None))
        self.m = m

    def __getattr__(self, attr):
        wrapped = self.__dict__.get("m")
        if wrapped is None:
            raise AttributeError(f"module '{self.__name__}' has no attribute '{attr}'")
        return getattr(wrapped, attr)

    enabled = _Enabled()


_sys.modules[__name__].__class__ = XNNPACKEngine
