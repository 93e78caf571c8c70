"""How the golden snippets of the nn tests run, the same way under real PyTorch (the
recorders in tools/golden) and under this project: those of utils/prune_cases.py,
parallel/parallel_cases.py and func_nn_cases.py are lines (every line but the last a
statement, the last an expression), those of added_nn_cases.py and
functional/sparse_grad_cases.py statements joined by "; ". ``describe`` writes their values
as JSON and ``close`` compares outcomes."""

from __future__ import annotations

import math
import warnings


def run_lines(code: str, scope: dict):
    """The value of ``code``'s last line after running the lines before it in ``scope``,
    warnings silenced; exceptions propagate."""
    lines = code.split("\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec("\n".join(lines[:-1]), scope)
        return eval(lines[-1], scope)


def expression_outcome(torch, code: str, setup: str, describe, names=None) -> dict:
    """What running ``code`` (statements joined by "; ", the last an expression) after
    ``setup`` gives, in a namespace of ``torch`` and ``names``, warnings silenced:
    ``{"value": describe(torch, value)}`` or the error's builtin type and first line."""
    namespace = {"torch": torch, **(names or {})}
    exec(setup, namespace)
    *statements, expression = code.split("; ")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for statement in statements:
                exec(statement, namespace)
            return {"value": describe(torch, eval(expression, namespace))}
        except Exception as error:  # noqa: BLE001 - the exception is the recorded result
            kind = next(k for k in type(error).__mro__ if k.__module__ == "builtins")
            return {"error": kind.__name__, "message": str(error).split("\n")[0]}


def describe(torch, value, tensor):
    """``value`` as JSON: tensors as ``tensor`` writes them, tuples (sizes too) and lists as
    lists and dicts as dicts of their described items, NaN and infinite floats as their repr
    (JSON has neither), None, bools, numbers and strings as they are, anything else as its
    repr."""
    if isinstance(value, torch.Tensor):
        return tensor(value)
    if isinstance(value, (tuple, list)):
        return [describe(torch, v, tensor) for v in value]
    if isinstance(value, dict):
        return {str(k): describe(torch, v, tensor) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def close(got, expected, rtol: float, atol: float) -> bool:
    """Whether two outcomes agree: the same keys and lengths, floats to ``rtol`` relative or
    ``atol`` absolute (NaN agreeing with NaN), everything else (bools included) exactly."""
    if isinstance(expected, dict) and isinstance(got, dict):
        return set(got) == set(expected) and all(
            close(got[k], expected[k], rtol, atol) for k in got
        )
    if isinstance(expected, list) and isinstance(got, list):
        return len(got) == len(expected) and all(
            close(g, e, rtol, atol) for g, e in zip(got, expected)
        )
    numbers = (int, float)
    if isinstance(expected, float) and isinstance(got, numbers) and not isinstance(got, bool):
        both_nan = math.isnan(got) and math.isnan(expected)
        return both_nan or math.isclose(got, expected, rel_tol=rtol, abs_tol=atol)
    return got == expected
