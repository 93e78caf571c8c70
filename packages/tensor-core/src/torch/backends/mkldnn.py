"""torch.backends.mkldnn: Intel oneDNN (formerly MKL-DNN). The CPU kernels here do not use
oneDNN, so :func:`is_available` is ``False``; the switches are kept and read back, and the
``fp32_precision`` entries are shared with the other backends."""

from __future__ import annotations

import sys as _sys
import warnings as _warnings

from . import (
    ContextProp,
    PropModule,
    _flags_scope,
    _FP32Precision,
    _precision,
    _precision_prop,
    _UnbuiltVerbose,
)

__all__ = [
    "is_available",
    "is_acl_available",
    "VERBOSE_OFF",
    "VERBOSE_ON",
    "VERBOSE_ON_CREATION",
    "verbose",
    "flags",
    "set_flags",
    "ContextProp",
    "MkldnnModule",
    "PropModule",
]

VERBOSE_OFF = 0
VERBOSE_ON = 1
VERBOSE_ON_CREATION = 2

_state = {"enabled": True, "deterministic": False}


def is_available() -> bool:
    """Whether oneDNN kernels are built in (``False`` here)."""
    return False


def is_acl_available() -> bool:
    """Whether oneDNN was built with the Arm Compute Library (``False``)."""
    return False


class verbose(_UnbuiltVerbose):  # noqa: N801 - PyTorch's name
    """Context manager for oneDNN's verbose log; oneDNN is not built, so turning the log on
    raises."""

    _library = "MKLDNN"

    def __init__(self, level):
        self.level = level

    def _level(self) -> int:
        return self.level


def _setter(name: str, c_name: str):
    def set_value(value) -> None:
        _precision.check_bool(c_name, value)
        _state[name] = value

    return set_value


_set_enabled = _setter("enabled", "set_enabled_mkldnn")
_set_deterministic = _setter("deterministic", "set_deterministic_mkldnn")


def _allow_tf32():
    return None  # PyTorch's CPU build answers None: TF32 on oneDNN is for Intel GPUs


def _set_allow_tf32(value) -> None:
    _precision.check_bool("_set_onednn_allow_tf32", value)
    if value:
        _warnings.warn(
            "TF32 acceleration on top of oneDNN is available for Intel GPUs. The current Torch "
            "version does not have Intel GPU Support.",
            UserWarning,
            stacklevel=3,
        )


def set_flags(_enabled=None, _deterministic=None, _allow_tf32=None, _fp32_precision="none"):
    """Set oneDNN's switches; returns the previous ones as a tuple."""
    previous = (
        _state["enabled"],
        _state["deterministic"],
        None,
        _precision.get("mkldnn", "all"),
    )
    if _enabled is not None:
        _set_enabled(_enabled)
    if _deterministic is not None:
        _set_deterministic(_deterministic)
    if _allow_tf32 is not None:
        _set_allow_tf32(_allow_tf32)
    if _fp32_precision is not None:
        _precision.set("mkldnn", "all", _fp32_precision)
    return previous


def flags(enabled=False, deterministic=False, allow_tf32=True, fp32_precision="none"):
    """Set oneDNN's switches inside a ``with`` block."""
    return _flags_scope(set_flags, enabled, deterministic, allow_tf32, fp32_precision)


class MkldnnModule(PropModule):
    def is_available(self):
        return is_available()

    enabled = ContextProp(lambda: _state["enabled"], _set_enabled)
    deterministic = ContextProp(lambda: _state["deterministic"], _set_deterministic)
    allow_tf32 = ContextProp(_allow_tf32, _set_allow_tf32)
    matmul = _FP32Precision("mkldnn", "matmul")
    conv = _FP32Precision("mkldnn", "conv")
    rnn = _FP32Precision("mkldnn", "rnn")
    # as in PyTorch, the module-wide setting writes the generic entry
    fp32_precision = _precision_prop("mkldnn", "all", set_backend="generic")


_sys.modules[__name__].__class__ = MkldnnModule
