"""torch.backends.cudnn: NVIDIA cuDNN's switches and version.

cuDNN is available when the CUDA runtime behind :mod:`torch.cuda` has it; without one,
:func:`is_available` is ``False`` and :func:`version` ``None``, as in PyTorch's CPU build.
The switches (``enabled``, ``benchmark``, ``deterministic``, ``allow_tf32``, ...) are module
attributes that always read back what was set; the CUDA kernels read them from here.

Examples::

    >>> import torch.backends.cudnn as cudnn
    >>> cudnn.deterministic = True
    >>> with cudnn.flags(enabled=False):
    ...     cudnn.enabled
    False
    >>> cudnn.enabled, cudnn.deterministic
    (True, True)
    >>> cudnn.deterministic = False
"""

from __future__ import annotations

import sys as _sys
import warnings as _warnings

import torch as _torch

from .. import (
    ContextProp,
    PropModule,
    _flags_scope,
    _FP32Precision,
    _precision,
    _precision_prop,
)
from . import rnn as rnn

__all__ = [
    "CUDNN_TENSOR_DTYPES",
    "ContextProp",
    "CudnnModule",
    "PropModule",
    "flags",
    "is_acceptable",
    "is_available",
    "rnn",
    "set_flags",
    "version",
]

CUDNN_TENSOR_DTYPES = {_torch.float16, _torch.float32, _torch.float64}
_DEPTHWISE_KERNELS = ("auto", "cudnn", "native")

_state = {
    "enabled": True,
    "benchmark": False,
    "deterministic": False,
    "benchmark_limit": 10,
    "depthwise_kernel": "auto",
}


def _runtime_version():
    """cuDNN's version from the CUDA runtime, or None (no runtime, or one without cuDNN)."""
    from ...cuda import _runtime

    rt = _runtime.get()
    if rt is None:
        return None
    query = getattr(rt, "cudnn_version", None)
    return query() if query is not None else None


def version() -> int | None:
    """cuDNN's version as one integer (e.g. ``91002``), or ``None`` without cuDNN."""
    return _runtime_version()


def is_available() -> bool:
    """Whether cuDNN can be used: a CUDA runtime is active and has cuDNN."""
    return _runtime_version() is not None


def is_acceptable(tensor) -> bool:
    """Whether cuDNN would take ``tensor``: cuDNN enabled and available, and ``tensor`` a
    CUDA tensor of half, float or double."""
    if not _state["enabled"]:
        return False
    if tensor.device.type != "cuda" or tensor.dtype not in CUDNN_TENSOR_DTYPES:
        return False
    if not is_available():
        _warnings.warn(
            "PyTorch was compiled without cuDNN/MIOpen support. To use cuDNN/MIOpen, rebuild "
            "PyTorch making sure the library is visible to the build system.",
            stacklevel=2,
        )
        return False
    return True


def _bool_setter(name: str):
    def set_value(value) -> None:
        _precision.check_bool(f"set_{name}_cudnn", value)
        _state[name] = value

    return set_value


_set_enabled = _bool_setter("enabled")
_set_benchmark = _bool_setter("benchmark")
_set_deterministic = _bool_setter("deterministic")


def _set_benchmark_limit(value) -> None:
    _state["benchmark_limit"] = value


def _set_depthwise_kernel(value) -> None:
    if value not in _DEPTHWISE_KERNELS:
        raise RuntimeError(
            f"Unknown cuDNN depthwise kernel mode: {value}. Expected one of: auto, cudnn, native"
        )
    _state["depthwise_kernel"] = value


def set_flags(
    _enabled=None,
    _benchmark=None,
    _benchmark_limit=None,
    _deterministic=None,
    _allow_tf32=None,
    _fp32_precision="none",
    _depthwise_kernel=None,
):
    """Set cuDNN's switches; returns the previous ones as a tuple (in this order)."""
    previous = (
        _state["enabled"],
        _state["benchmark"],
        _state["benchmark_limit"] if is_available() else None,
        _state["deterministic"],
        _precision.cudnn_allow_tf32(),
        _precision.get("cuda", "all"),
        _state["depthwise_kernel"],
    )
    if _enabled is not None:
        _set_enabled(_enabled)
    if _benchmark is not None:
        _set_benchmark(_benchmark)
    if _benchmark_limit is not None and is_available():
        _set_benchmark_limit(_benchmark_limit)
    if _deterministic is not None:
        _set_deterministic(_deterministic)
    if _allow_tf32 is not None:
        _precision.set_cudnn_allow_tf32(_allow_tf32)
    if _fp32_precision is not None:
        _precision.set("cuda", "all", _fp32_precision)
    if _depthwise_kernel is not None:
        _set_depthwise_kernel(_depthwise_kernel)
    return previous


def flags(
    enabled=False,
    benchmark=False,
    benchmark_limit=10,
    deterministic=False,
    allow_tf32=True,
    fp32_precision="none",
    depthwise_kernel="auto",
):
    """Set cuDNN's switches inside a ``with`` block and restore them on exit. Arguments
    left out take the defaults shown (so ``flags()`` alone turns cuDNN off)."""
    return _flags_scope(
        set_flags,
        enabled,
        benchmark,
        benchmark_limit,
        deterministic,
        allow_tf32,
        fp32_precision,
        depthwise_kernel,
    )


class _BenchmarkLimit(ContextProp):
    """``benchmark_limit``: ``None`` unless cuDNN is available (then 10 by default)."""

    def __get__(self, obj, objtype):
        if not is_available():
            return _state.get("benchmark_limit_without_cudnn")
        return super().__get__(obj, objtype)

    def __set__(self, obj, val):
        if not is_available():
            _state["benchmark_limit_without_cudnn"] = val
            return
        super().__set__(obj, val)


class CudnnModule(PropModule):
    enabled = ContextProp(lambda: _state["enabled"], _set_enabled)
    deterministic = ContextProp(lambda: _state["deterministic"], _set_deterministic)
    benchmark = ContextProp(lambda: _state["benchmark"], _set_benchmark)
    benchmark_limit = _BenchmarkLimit(lambda: _state["benchmark_limit"], _set_benchmark_limit)
    allow_tf32 = ContextProp(_precision.cudnn_allow_tf32, _precision.set_cudnn_allow_tf32)
    conv = _FP32Precision("cuda", "conv")
    fp32_precision = _precision_prop("cuda", "all")
    depthwise_kernel = ContextProp(lambda: _state["depthwise_kernel"], _set_depthwise_kernel)


_sys.modules[__name__].__class__ = CudnnModule
