"""Helpers the passes share: reading a node's arguments by parameter name, constants."""

from __future__ import annotations

import inspect
from typing import Any

from .._ir import Node, Value, resolve_target

__all__ = ["arguments", "constant_value", "is_constant", "NONDETERMINISTIC"]

#: op names whose result differs between calls on the same inputs: never merged or folded
NONDETERMINISTIC = ("rand", "bernoulli", "multinomial", "normal", "uniform", "dropout",
                    "empty", "poisson", "exponential", "geometric", "cauchy", "log_normal",
                    "random", "rrelu", "manual_seed")  # fmt: skip


def is_nondeterministic(node: Node) -> bool:
    name = node.kind.partition("::")[2]
    return any(word in name for word in NONDETERMINISTIC)


def is_constant(value: Value) -> bool:
    return value.node is not None and value.node.kind == "prim::Constant"


def constant_value(value: Value) -> Any:
    return value.node.attrs.get("value")


_SIGNATURES: dict[str, inspect.Signature | None] = {}


def _signature(target: str) -> inspect.Signature | None:
    if target not in _SIGNATURES:
        try:
            _SIGNATURES[target] = inspect.signature(resolve_target(target))
        except (TypeError, ValueError, AttributeError, ImportError, KeyError):
            _SIGNATURES[target] = None
    return _SIGNATURES[target]


def arguments(node: Node) -> dict[str, Value] | None:
    """The node's input values by the parameter names of its target (None when the
    target has no inspectable signature or the inputs do not bind)."""
    if node.target is None:
        return None
    signature = _signature(node.target)
    if signature is None:
        return None
    kwnames = node.attrs.get("kwnames", ())
    positional = node.inputs[: len(node.inputs) - len(kwnames)]
    keywords = dict(zip(kwnames, node.inputs[len(positional) :]))
    try:
        bound = signature.bind(*positional, **keywords)
    except TypeError:
        return None
    return dict(bound.arguments)
