"""While a transform level is active, op calls whose arguments include wrappers go to
:func:`~.levels.dispatch`. The calls are seen through core's op-call interception
(``torch._interface.calls``, which autocast and the profiler use too): the ``torch.*``
functions (and those of ``torch.linalg``, ``torch.special``, ``torch.fft``), the
methods of plain tensors (``t.add_(w)``) and the op registry's functions (which
``torch.nn.functional`` calls). When the last level exits the interceptor is
deactivated, so code outside transforms pays nothing.

``torch.nn.functional``'s own functions are not intercepted: they are compositions of the
ops above, which are.
"""

from __future__ import annotations

import sys

import torch
from torch._interface import calls

from .levels import dispatch, has_wrapper

__all__ = ["install", "uninstall", "interposed"]

_depth = [0]
_NAMESPACES = ("torch", "torch.linalg", "torch.special", "torch.fft")


class _Interceptor:
    """Sends the calls with wrapper arguments to the transform levels."""

    registry_functions = True
    order = 10  # calls.TRANSFORM_ORDER: inside a profile, outside autocast and a trace

    def wants(self, op_name: str) -> bool:
        return True

    def __call__(self, op_name, function, args, kwargs):
        if not has_wrapper(args, kwargs):
            return function(*args, **kwargs)
        if getattr(function, "__module__", "").startswith("torch.nn.functional"):
            return function(*args, **kwargs)  # a composite: its parts are intercepted
        return dispatch(op_name, function, args, kwargs)


_INTERCEPTOR = _Interceptor()


def install() -> None:
    _depth[0] += 1
    if _depth[0] == 1:
        calls.activate(_INTERCEPTOR)


def uninstall() -> None:
    _depth[0] -= 1
    if _depth[0] <= 0:
        _depth[0] = 0
        if _INTERCEPTOR in calls.active():
            calls.deactivate(_INTERCEPTOR)


def interposed(function):
    """The intercepted binding standing for ``function`` (a plain ``torch.*`` function
    that a caller captured before a level was active: ``vmap(torch.sin)``), else
    ``function`` itself."""
    name = getattr(function, "__name__", None)
    if name is None:
        return function
    for module_name in _NAMESPACES:
        module = sys.modules.get(module_name)
        current = getattr(module, name, None) if module is not None else None
        if current is not None and getattr(current, "__intercepted__", None) is function:
            return current
    if getattr(torch.Tensor, name, None) is not None:
        current = torch.Tensor.__dict__.get(name)
        if getattr(current, "__intercepted__", None) is function:
            return current
    return function
