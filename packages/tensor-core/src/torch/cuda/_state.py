"""What every part of ``torch.cuda`` shares: the runtime lookup, lazy initialisation and
device-argument parsing, each with PyTorch's CPU-build behaviour when no runtime is active.
"""

from __future__ import annotations

from . import _runtime

__all__ = [
    "NOT_COMPILED",
    "device_index",
    "exchange_device",
    "lazy_init",
    "missing_binding",
    "runtime",
    "runtime_method",
]

NOT_COMPILED = "Torch not compiled with CUDA enabled"
_initialized = [False]


def runtime():
    """The active CUDA runtime, or None."""
    return _runtime.get()


def lazy_init():
    """The runtime, initialised on first use; AssertionError without one (as PyTorch's CPU
    build raises from its lazy CUDA initialisation)."""
    rt = _runtime.get()
    if rt is None:
        raise AssertionError(NOT_COMPILED)
    _initialized[0] = True
    return rt


def is_initialized() -> bool:
    """Whether CUDA is in use: a runtime that says so (its ``initialized``, true once it
    has made a tensor), or one that a torch.cuda call has initialised."""
    rt = _runtime.get()
    if rt is None:
        return False
    return _initialized[0] or bool(getattr(rt, "initialized", False))


def missing_binding(name: str) -> AttributeError:
    """The error PyTorch's CPU build gives where it calls a CUDA-only binding of torch._C."""
    return AttributeError(f"module 'torch._C' has no attribute '{name}'")


def runtime_method(rt, name: str):
    """``rt.name`` for a runtime method beyond the base contract, or a clear error."""
    method = getattr(rt, name, None)
    if method is None:
        raise NotImplementedError(
            f"the active CUDA runtime ({type(rt).__name__}) does not provide {name}()"
        )
    return method


def current_index():
    """The current device's index with a runtime, else None (PyTorch finds no device type)."""
    rt = _runtime.get()
    return rt.current_device() if rt is not None else None


def device_index(device, optional: bool = False, allow_cpu: bool = False):
    """The device index ``device`` names (an int, ``"cuda:1"``, a ``torch.device``, a
    ``torch.cuda.device``); ``None`` with ``optional`` means the current device."""
    import torch

    if isinstance(device, int):
        return device
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if allow_cpu:
            if device.type not in ("cuda", "cpu"):
                raise ValueError(f"Expected a cuda or cpu device, but got: {device}")
        elif device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        index = -1 if device.type == "cpu" else device.index
    elif isinstance(device, torch.cuda.device):
        return device.idx
    else:
        index = None
    if index is None:
        if not optional:
            raise ValueError(
                f"Expected a torch.device with a specified index or an integer, but got:{device}"
            )
        index = current_index()
    return index


def exchange_device(index) -> int:
    """Make ``index`` current and return the previous current device (-1: nothing done)."""
    if index < 0:
        return -1
    rt = _runtime.get()
    if rt is None:
        raise RuntimeError("PyTorch was compiled without CUDA support")
    previous = rt.current_device()
    if index != previous:
        rt.set_device(index)
    return previous
