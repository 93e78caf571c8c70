"""Classes of ``torch.cuda`` whose objects the CUDA runtime makes (streams, events, ...).

``torch.cuda.Stream(...)`` returns the runtime's own stream object, and
``isinstance(obj, torch.cuda.Stream)`` accepts it: the runtime's classes are the
implementation, these are the public names. Without a runtime, constructing one fails as
in PyTorch's CPU build.
"""

from __future__ import annotations

from . import _runtime

__all__ = ["RuntimeFacade", "dummy_base_error"]


def dummy_base_error(name: str) -> RuntimeError:
    """PyTorch's CPU build error for its placeholder CUDA base classes."""
    return RuntimeError(f"Tried to instantiate dummy base class {name}")


class RuntimeFacade(type):
    """Metaclass: instances of the runtime class named by ``_runtime_class`` count as
    instances of the facade class."""

    def __instancecheck__(cls, obj) -> bool:
        if type.__instancecheck__(cls, obj):
            return True
        rt = _runtime.get()
        implementation = getattr(rt, cls._runtime_class, None) if rt is not None else None
        return isinstance(implementation, type) and isinstance(obj, implementation)
