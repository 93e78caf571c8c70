"""How torch-optim's golden snippets run and compare, the same way under real PyTorch (the
recorders in tools/golden import the cases modules, which import this one) and under this
project. A module of its own, without torch or numpy: the recorders load it beside PyTorch.

legacy_names_cases.py and sparse_step_cases.py write their snippets as statements joined
by "; ", the last an expression, and their values through ``describe``; the tests of
those and of swa_cases.py compare with ``close``.
"""

from __future__ import annotations

import math


def expression_outcome(code: str, namespace: dict, describe) -> dict:
    """Run ``code``'s statements in ``namespace``, then evaluate its last part:
    ``{"value": describe(value)}``, or the error as its builtin type's name and the first
    line of its message (without the note PyTorch adds for Facebook employees)."""
    *statements, expression = code.split("; ")
    try:
        for statement in statements:
            exec(statement, namespace)
        return {"value": describe(eval(expression, namespace))}
    except Exception as error:  # noqa: BLE001 - the exception is the recorded result
        kind = next(k for k in type(error).__mro__ if k.__module__ == "builtins")
        first_line = str(error).split("\n")[0]
        return {"error": kind.__name__, "message": first_line.split(" If you are a Facebook")[0]}


def describe(value, torch, tensor):
    """``value`` as JSON: tensors as ``tensor`` writes them, tuples and lists as lists,
    None, bools, numbers and strings as they are, anything else as its repr."""
    if isinstance(value, torch.Tensor):
        return tensor(value)
    if isinstance(value, (tuple, list)):
        return [describe(v, torch, tensor) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def close(ours, expected, rel_tol: float, abs_tol: float) -> bool:
    """Equal in nested lists and dicts, numbers with a float among them to ``rel_tol``
    relative or ``abs_tol`` absolute."""
    if isinstance(expected, float) or isinstance(ours, float):
        return isinstance(ours, (int, float)) and math.isclose(
            ours, expected, rel_tol=rel_tol, abs_tol=abs_tol
        )
    if isinstance(expected, dict):
        return (
            isinstance(ours, dict)
            and sorted(ours) == sorted(expected)
            and all(close(ours[k], expected[k], rel_tol, abs_tol) for k in expected)
        )
    if isinstance(expected, list):
        return (
            isinstance(ours, list)
            and len(ours) == len(expected)
            and all(close(a, b, rel_tol, abs_tol) for a, b in zip(ours, expected))
        )
    return ours == expected
