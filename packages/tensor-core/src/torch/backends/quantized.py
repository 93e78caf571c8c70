"""torch.backends.quantized: the quantized-kernel engine. This project has no quantized
kernels, so the only engine is ``"none"``, as in PyTorch builds without FBGEMM, QNNPACK
and oneDNN."""

from __future__ import annotations

import sys as _sys
import types as _types

from . import _wrapping_methods

__all__ = ["QuantizedEngine"]

_ENGINE_IDS = {"none": 0, "": 0, None: 0, "fbgemm": 1, "qnnpack": 2, "onednn": 3, "x86": 4}
_ENGINE_NAMES = {0: "none", 1: "fbgemm", 2: "qnnpack", 3: "onednn", 4: "x86"}
_ENGINE_LABELS = {0: "NoQEngine", 1: "FBGEMM", 2: "QNNPACK", 3: "ONEDNN", 4: "X86"}
_SUPPORTED = (0,)
_current = [0]


def _set_engine(name) -> None:
    if name not in _ENGINE_IDS:
        raise RuntimeError(f"{name} is not a valid value for quantized engine")
    engine = _ENGINE_IDS[name]
    if engine not in _SUPPORTED:
        raise RuntimeError(f"quantized engine {_ENGINE_LABELS[engine]} is not supported")
    _current[0] = engine


class _EngineProp:
    def __get__(self, obj, objtype) -> str:
        return _ENGINE_NAMES[_current[0]]

    def __set__(self, obj, val: str) -> None:
        _set_engine(val)


class _SupportedEnginesProp:
    def __get__(self, obj, objtype) -> list[str]:
        return [_ENGINE_NAMES[e] for e in _SUPPORTED]

    def __set__(self, obj, val) -> None:
        raise RuntimeError("Assignment not supported")


class QuantizedEngine(_types.ModuleType):
    """The module type carrying ``engine`` and ``supported_engines``."""

    __init__, __getattr__ = _wrapping_methods("QuantizedEngine")

    engine = _EngineProp()
    supported_engines = _SupportedEnginesProp()


_sys.modules[__name__].__class__ = QuantizedEngine
