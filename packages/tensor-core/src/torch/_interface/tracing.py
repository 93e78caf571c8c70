"""Interception of op calls, for torch-jit's tracer.

While an :class:`Interception` is active, every op binding of core (the functions of
``torch``, ``torch.linalg``, ``torch.special`` and ``torch.fft``, the methods,
operators and tensor-producing properties of ``Tensor``, and the ``function`` of every
op of the registry, which siblings call as ``ops[name].function``) and every function
of the extra namespaces a sibling names (``torch.nn.functional``) is replaced by a
wrapper that calls ``handler(target, original, args, kwargs)`` and returns what the
handler returns. ``target`` names the binding (``"torch.add"``, ``"Tensor.__add__"``,
``"Tensor.T"``, ``"ops.convolution"``, ``"torch.nn.functional.relu"``); ``original``
is the binding itself, which the handler calls to compute the result. The handler
decides what to record: op bindings call one another, so a tracer records the outermost
call and runs the nested ones as they are.

With ``sizes=True``, ``Tensor.size`` and the ``Tensor.shape`` property are routed through
the handler too (``"Tensor.size"``, ``"Tensor.shape"``), so that a tracer can record
where sizes come from.

Without an active interception the bindings are the plain functions: tracing costs
nothing when nobody traces. Interceptions do not nest (a second ``start`` raises) and
are process-wide: a tracer must not run beside other threads that compute with torch.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

from .._tensor import Tensor
from . import ops

__all__ = ["Interception", "start", "active", "TENSOR_PROPERTIES", "PLUMBING"]

#: Tensor properties that compute a tensor from a tensor: intercepted like methods
TENSOR_PROPERTIES = ("T", "mT", "H", "mH", "real", "imag", "data")

#: Tensor attributes that are not ops (construction, attribute access, printing, hooks)
PLUMBING = frozenset(
    {
        "__init__",
        "__new__",
        "__init_subclass__",
        "__getattribute__",
        "__getattr__",
        "__setattr__",
        "__delattr__",
        "__reduce__",
        "__reduce_ex__",
        "__getstate__",
        "__setstate__",
        "__repr__",
        "__str__",
        "__format__",
        "__hash__",
        "__sizeof__",
        "__dir__",
        "__array__",
        "__array_wrap__",
        "__array_namespace__",
        "__dlpack__",
        "__dlpack_device__",
        "__deepcopy__",
        "__copy__",
        "__class_getitem__",
        "__torch_function__",
        "__eq__",  # identity-style uses (``t in list``) must not be recorded
        "__ne__",
        "register_hook",
        "retain_grad",
        "requires_grad_",
        "backward",
        "size",
        "dim",
        "stride",
        "storage_offset",
        "data_ptr",
        "element_size",
        "is_contiguous",
        "is_floating_point",
        "is_complex",
        "storage",
        "untyped_storage",
        "_wrap_dim",
        "_alias",
        "_from_array",
        "type",
        "get_device",
    }
)
_CORE_NAMESPACES = ("torch", "torch.linalg", "torch.special", "torch.fft")

_active: Interception | None = None


class Interception:
    """The wrappers installed by :func:`start`; :meth:`stop` puts the bindings back."""

    def __init__(self, handler: Callable[[str, Any, tuple, dict], Any]) -> None:
        self.handler = handler
        self._saved: list[tuple[Any, str, Any, bool]] = []  # owner, name, value, is_attr

    def _wrap(self, owner: Any, name: str, original: Any, target: str, on_class=False) -> None:
        handler = self.handler

        def intercepted(*args, **kwargs):
            return handler(target, original, args, kwargs)

        intercepted.__name__ = getattr(original, "__name__", name)
        intercepted.__doc__ = getattr(original, "__doc__", None)
        intercepted.__wrapped__ = original
        self._saved.append((owner, name, original, on_class))
        setattr(owner, name, intercepted)

    def _wrap_property(self, name: str) -> None:
        prop = Tensor.__dict__.get(name)
        if not isinstance(prop, property) or prop.fget is None:
            return
        handler, getter, target = self.handler, prop.fget, f"Tensor.{name}"

        def intercepted(self):
            return handler(target, getter, (self,), {})

        self._saved.append((Tensor, name, prop, True))
        setattr(Tensor, name, property(intercepted, prop.fset, prop.fdel, prop.__doc__))

    def install(self, namespaces: Iterable[str], sizes: bool = False) -> None:
        for module_name in (*_CORE_NAMESPACES, *namespaces):
            module = sys.modules.get(module_name)
            if module is None:
                continue
            names = getattr(module, "__all__", None) or [
                n for n in vars(module) if not n.startswith("_")
            ]
            for name in names:
                value = getattr(module, name, None)
                if _is_op_function(value):
                    self._wrap(module, name, value, f"{module_name}.{name}")
        for name, value in list(vars(Tensor).items()):
            if name in PLUMBING or not _is_op_function(value):
                continue
            self._wrap(Tensor, name, value, f"Tensor.{name}", on_class=True)
        for name in TENSOR_PROPERTIES + (("shape",) if sizes else ()):
            self._wrap_property(name)
        if sizes:
            self._wrap(Tensor, "size", Tensor.__dict__["size"], "Tensor.size", on_class=True)
        for op in ops.everything():
            if op.function is not None and _is_op_function(op.function):
                self._wrap(op, "function", op.function, f"ops.{op.name}")

    def stop(self) -> None:
        """Put every wrapped binding back (idempotent)."""
        global _active
        for owner, name, value, _ in reversed(self._saved):
            setattr(owner, name, value)
        self._saved.clear()
        if _active is self:
            _active = None

    def __enter__(self) -> Interception:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _is_op_function(value: Any) -> bool:
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType)) and not (
        isinstance(value, type)
    )


def start(
    handler: Callable[[str, Any, tuple, dict], Any],
    namespaces: Iterable[str] = (),
    sizes: bool = False,
) -> Interception:
    """Route every op call through ``handler`` until the returned interception stops.
    ``namespaces`` names sibling modules (already imported) whose public functions are
    intercepted too; ``sizes`` adds ``Tensor.size`` and ``Tensor.shape``."""
    global _active
    if _active is not None:
        raise RuntimeError("an op interception (a trace) is already active in this process")
    interception = Interception(handler)
    _active = interception
    try:
        interception.install(namespaces, sizes)
    except BaseException:
        interception.stop()
        raise
    return interception


def active() -> Interception | None:
    """The active interception, or None."""
    return _active
