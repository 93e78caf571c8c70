"""The table of symbolic functions: IR op kind (``"aten::relu"``) -> the functions that
translate it, each valid from an opset on. Built-in ones register with
:func:`symbolic`; users add theirs with ``torch.onnx.register_custom_op_symbolic``,
which take precedence."""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = [
    "symbolic",
    "lookup",
    "first_opset",
    "register_custom_op_symbolic",
    "unregister_custom_op_symbolic",
]

# kind -> [(since opset, function)], newest first
_BUILTIN: dict[str, list[tuple[int, Callable]]] = {}
_CUSTOM: dict[str, list[tuple[int, Callable]]] = {}

_NAME = re.compile(r"^[a-zA-Z0-9-_]+::[a-zA-Z0-9-_]+$")


def symbolic(*kinds: str, since: int = 13):
    """Register the decorated function for op ``kinds`` (``"relu"`` means
    ``"aten::relu"``) from opset ``since`` on."""

    def register(fn: Callable) -> Callable:
        for kind in kinds:
            full = kind if "::" in kind else f"aten::{kind}"
            entries = _BUILTIN.setdefault(full, [])
            entries.append((since, fn))
            entries.sort(key=lambda e: -e[0])
        return fn

    return register


def _pick(entries, opset: int):
    for since, fn in entries or ():
        if since <= opset:
            return fn
    return None


def lookup(kind: str, opset: int) -> Callable | None:
    """The symbolic function of ``kind`` at ``opset`` (in-place ``aten::add_`` falls back
    to ``aten::add``), or None."""
    for name in (kind, kind[:-1] if kind.endswith("_") and not kind.endswith("__") else None):
        if name is None:
            continue
        fn = _pick(_CUSTOM.get(name), opset) or _pick(_BUILTIN.get(name), opset)
        if fn is not None:
            return fn
    return None


def first_opset(kind: str) -> int | None:
    """The lowest opset that has a translation of ``kind`` (for the error message)."""
    entries = _CUSTOM.get(kind, []) + _BUILTIN.get(kind, [])
    return min((since for since, _ in entries), default=None)


def _check_name(symbolic_name: str) -> None:
    if not _NAME.match(symbolic_name):
        from .errors import OnnxExporterError

        raise OnnxExporterError(
            f"Failed to register operator {symbolic_name}. The symbolic name must match the "
            "format domain::name, and should start with a letter and contain only "
            "alphanumeric characters"
        )


def register_custom_op_symbolic(symbolic_name: str, symbolic_fn: Callable, opset_version: int):
    """Translate op ``symbolic_name`` (``"aten::relu"``, ``"mydomain::op"``) with
    ``symbolic_fn(g, *inputs, **kwargs)`` when exporting at ``opset_version`` or newer.

    ``g.op("Name", *inputs, attr_f=1.0)`` emits ONNX nodes (``"domain::Name"`` for a custom
    domain, whose version goes in ``custom_opsets``). Tensor inputs arrive as values of the
    ONNX graph, everything known at export time (numbers, lists, None) as Python values.

        >>> def my_relu(g, x):
        ...     return g.op("Relu", x)
        >>> torch.onnx.register_custom_op_symbolic("aten::relu", my_relu, 13)
        >>> torch.onnx.unregister_custom_op_symbolic("aten::relu", 13)
    """
    if symbolic_name.startswith("::"):
        symbolic_name = f"aten{symbolic_name}"
    _check_name(symbolic_name)
    entries = [e for e in _CUSTOM.get(symbolic_name, []) if e[0] != opset_version]
    entries.append((opset_version, symbolic_fn))
    entries.sort(key=lambda e: -e[0])
    _CUSTOM[symbolic_name] = entries


def unregister_custom_op_symbolic(symbolic_name: str, opset_version: int) -> None:
    """Remove what :func:`register_custom_op_symbolic` registered for ``symbolic_name`` at
    ``opset_version``."""
    if symbolic_name.startswith("::"):
        symbolic_name = f"aten{symbolic_name}"
    _check_name(symbolic_name)
    entries = [e for e in _CUSTOM.get(symbolic_name, []) if e[0] != opset_version]
    if entries:
        _CUSTOM[symbolic_name] = entries
    else:
        _CUSTOM.pop(symbolic_name, None)
