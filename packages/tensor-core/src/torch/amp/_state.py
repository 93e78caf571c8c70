"""The autocast state of each thread and the ``torch.*`` functions that read and set it.

Per thread, as in PyTorch: for each device type, whether autocast is on and its lower
precision dtype; whether casts of weights are cached; how deeply autocast regions nest.
While autocast is on in some thread, the ops of the autocast table are intercepted
(``torch._op_calls``); while it is off everywhere, they are the plain functions.
"""

from __future__ import annotations

import threading

from .. import _dtype, _op_calls
from .._device import device as _device

__all__ = [
    "is_autocast_enabled",
    "set_autocast_enabled",
    "get_autocast_dtype",
    "set_autocast_dtype",
    "is_autocast_cpu_enabled",
    "set_autocast_cpu_enabled",
    "get_autocast_cpu_dtype",
    "set_autocast_cpu_dtype",
    "get_autocast_gpu_dtype",
    "set_autocast_gpu_dtype",
    "is_autocast_ipu_enabled",
    "set_autocast_ipu_enabled",
    "get_autocast_ipu_dtype",
    "set_autocast_ipu_dtype",
    "is_autocast_xla_enabled",
    "set_autocast_xla_enabled",
    "get_autocast_xla_dtype",
    "set_autocast_xla_dtype",
    "is_autocast_cache_enabled",
    "set_autocast_cache_enabled",
    "clear_autocast_cache",
    "autocast_increment_nesting",
    "autocast_decrement_nesting",
]

#: the lower precision dtype of each device type before anyone sets it (PyTorch 2.13)
_DEFAULT_DTYPES = {"cpu": _dtype.bfloat16, "xla": _dtype.bfloat16, "hpu": _dtype.bfloat16}


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.enabled: dict[str, bool] = {}
        self.dtypes: dict[str, object] = {}
        self.cache_enabled = True
        self.nesting = 0
        #: inside an op that autocast cast the arguments of: its inner ops are left alone
        self.running_cast_op = False
        #: id(weight) -> (weight, its cast): casts of leaves that require grad
        self.cache: dict[int, tuple] = {}


state = _ThreadState()
_threads_lock = threading.Lock()
_threads_enabled = 0  # threads with autocast on for some device type


def _device_type(device_type) -> str:
    """``device_type`` checked as PyTorch checks it (``torch.device``'s error)."""
    if not isinstance(device_type, str):
        raise TypeError(f"expected a device type string, got {type(device_type).__name__}")
    return _device(device_type).type


def _check_bool(value, name: str, function: str, position: int) -> bool:
    if not isinstance(value, bool):
        raise TypeError(
            f"{function}(): argument '{name}' (position {position}) must be bool, not "
            f"{type(value).__name__}"
        )
    return value


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether autocast is on in this thread for ``device_type`` (default ``"cuda"``)."""
    kind = "cuda" if device_type is None else _device_type(device_type)
    return state.enabled.get(kind, False)


def set_autocast_enabled(device_type, enabled=None) -> None:
    """Turn autocast on or off in this thread: ``set_autocast_enabled(device_type,
    enabled)``, or ``set_autocast_enabled(enabled)`` for CUDA."""
    if enabled is None:
        device_type, enabled = (
            "cuda",
            _check_bool(device_type, "enabled", "set_autocast_enabled", 1),
        )
    else:
        _check_bool(enabled, "enabled", "set_autocast_enabled", 2)
    kind = _device_type(device_type)
    was_on = any(state.enabled.values())
    state.enabled[kind] = enabled
    _count_thread(was_on, any(state.enabled.values()))


def _count_thread(was_on: bool, now_on: bool) -> None:
    """Intercept the autocast ops while some thread has autocast on."""
    global _threads_enabled
    if was_on == now_on:
        return
    from ._casting import interceptor

    with _threads_lock:
        _threads_enabled += 1 if now_on else -1
        if now_on and _threads_enabled == 1:
            _op_calls.activate(interceptor)
        elif not now_on and _threads_enabled == 0:
            _op_calls.deactivate(interceptor)


def get_autocast_dtype(device_type: str):
    """The dtype autocast runs lower precision ops in on ``device_type``."""
    kind = _device_type(device_type)
    if kind == "meta":
        raise RuntimeError("unsupported scalarType")
    return state.dtypes.get(kind, _DEFAULT_DTYPES.get(kind, _dtype.float16))


def set_autocast_dtype(device_type: str, dtype) -> None:
    """Set the lower precision dtype of autocast on ``device_type`` (this thread)."""
    state.dtypes[_device_type(device_type)] = dtype


def _per_device(kind: str):
    def is_enabled() -> bool:
        return state.enabled.get(kind, False)

    def set_enabled(enabled: bool) -> None:
        set_autocast_enabled(kind, _check_bool(enabled, "enabled", "set_enabled", 1))

    def get_dtype():
        return get_autocast_dtype(kind)

    def set_dtype(dtype) -> None:
        set_autocast_dtype(kind, dtype)

    return is_enabled, set_enabled, get_dtype, set_dtype


(
    is_autocast_cpu_enabled,
    set_autocast_cpu_enabled,
    get_autocast_cpu_dtype,
    set_autocast_cpu_dtype,
) = _per_device("cpu")
_, _, get_autocast_gpu_dtype, set_autocast_gpu_dtype = _per_device("cuda")
(
    is_autocast_ipu_enabled,
    set_autocast_ipu_enabled,
    get_autocast_ipu_dtype,
    set_autocast_ipu_dtype,
) = _per_device("ipu")
(
    is_autocast_xla_enabled,
    set_autocast_xla_enabled,
    get_autocast_xla_dtype,
    set_autocast_xla_dtype,
) = _per_device("xla")


def _name(functions: dict) -> None:
    for name, function in functions.items():
        function.__name__ = function.__qualname__ = name
        kind = name.split("_")[2] if name.count("_") >= 3 else ""
        function.__doc__ = {
            "is": f"Whether autocast is on for {kind} in this thread.",
            "set": f"Turn autocast for {kind} on or off, or set its dtype, in this thread.",
            "get": f"The lower precision dtype of autocast for {kind}.",
        }[name.split("_")[0]]


_name(
    {
        "is_autocast_cpu_enabled": is_autocast_cpu_enabled,
        "set_autocast_cpu_enabled": set_autocast_cpu_enabled,
        "get_autocast_cpu_dtype": get_autocast_cpu_dtype,
        "set_autocast_cpu_dtype": set_autocast_cpu_dtype,
        "get_autocast_gpu_dtype": get_autocast_gpu_dtype,
        "set_autocast_gpu_dtype": set_autocast_gpu_dtype,
        "is_autocast_ipu_enabled": is_autocast_ipu_enabled,
        "set_autocast_ipu_enabled": set_autocast_ipu_enabled,
        "get_autocast_ipu_dtype": get_autocast_ipu_dtype,
        "set_autocast_ipu_dtype": set_autocast_ipu_dtype,
        "is_autocast_xla_enabled": is_autocast_xla_enabled,
        "set_autocast_xla_enabled": set_autocast_xla_enabled,
        "get_autocast_xla_dtype": get_autocast_xla_dtype,
        "set_autocast_xla_dtype": set_autocast_xla_dtype,
    }
)


def is_autocast_cache_enabled() -> bool:
    """Whether autocast keeps the casts of weights for reuse within its region."""
    return state.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Turn the cache of autocast's weight casts on or off (this thread)."""
    state.cache_enabled = _check_bool(enabled, "enabled", "set_autocast_cache_enabled", 1)


def clear_autocast_cache() -> None:
    """Forget the casts of weights autocast kept (done when the outermost region exits)."""
    state.cache.clear()


def autocast_increment_nesting() -> int:
    """Count one more autocast region entered in this thread; returns the new depth."""
    state.nesting += 1
    return state.nesting


def autocast_decrement_nesting() -> int:
    """Count one autocast region left in this thread; returns the new depth."""
    state.nesting -= 1
    return state.nesting
