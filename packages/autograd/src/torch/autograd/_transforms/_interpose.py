"""While a transform level is active, the ``torch.*`` functions (and those of
``torch.linalg``, ``torch.special``, ``torch.fft``), the methods of plain tensors and
the op registry's functions (which ``torch.nn.functional`` calls) are replaced by
interposers that send calls with wrapper arguments to :func:`~.levels.dispatch`. The
plain functions are put back when the last level exits, so code outside transforms pays
nothing.

Only public names are replaced (``setattr`` on the public modules and on each
``OpDef.function``), as core's own device dispatcher does for its bindings.
"""

from __future__ import annotations

import importlib
import types

import torch
from torch._interface import ops

from .levels import _OWN, dispatch, has_wrapper

__all__ = ["install", "uninstall"]

_depth = [0]
#: (owner, attribute, plain value, interposer): made once, swapped in and out
_table: list[tuple] = []

#: functions that only read metadata, make grad-mode objects or take no tensors
_SKIP = {
    "is_tensor",
    "is_storage",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "set_grad_enabled",
    "get_default_dtype",
    "set_default_dtype",
    "manual_seed",
    "seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "typename",
    "compile",
    "load",
    "save",
}


def _interposer(name: str, plain):
    def interposed(*args, **kwargs):
        if has_wrapper(args, kwargs):
            return dispatch(name, plain, args, kwargs)
        return plain(*args, **kwargs)

    interposed.__name__ = getattr(plain, "__name__", name)
    interposed.__qualname__ = getattr(plain, "__qualname__", name)
    interposed.__doc__ = getattr(plain, "__doc__", None)
    interposed.__wrapped__ = plain
    return interposed


def _namespace_entries(module) -> list[tuple]:
    entries = []
    for name, value in list(vars(module).items()):  # vars: the lazy submodules stay unloaded
        if name.startswith("_") or name in _SKIP:
            continue
        if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
            entries.append((module, name, value, _interposer(name, value)))
    return entries


def _build() -> None:
    _table.extend(_namespace_entries(torch))
    for sub in ("linalg", "special", "fft"):  # core's own submodules
        module = importlib.import_module(f"torch.{sub}")
        _table.extend(_namespace_entries(module))
    # methods of plain tensors meet wrappers as their other arguments (``t.add_(w)``)
    for name, value in list(vars(torch.Tensor).items()):
        if name in _OWN or name.startswith("__r") or not isinstance(value, types.FunctionType):
            continue
        _table.append((torch.Tensor, name, value, _interposer(name, value)))
    for op in ops.everything():
        function = getattr(op, "function", None)
        if isinstance(function, (types.FunctionType, types.BuiltinFunctionType)):
            _table.append((op, "function", function, _interposer(op.name, function)))


def install() -> None:
    _depth[0] += 1
    if _depth[0] > 1:
        return
    if not _table:
        _build()
    for owner, attribute, _plain, interposed in _table:
        setattr(owner, attribute, interposed)


def uninstall() -> None:
    _depth[0] -= 1
    if _depth[0] > 0:
        return
    _depth[0] = 0
    for owner, attribute, plain, _interposed in _table:
        setattr(owner, attribute, plain)


def interposed(function):
    """The interposer standing for ``function`` (a plain ``torch.*`` or registry function
    that a caller captured before a level was active: ``vmap(torch.sin)``), else
    ``function`` itself."""
    if not _table:
        _build()
    for _owner, _attribute, plain, interposer in _table:
        if plain is function:
            return interposer
    return function
