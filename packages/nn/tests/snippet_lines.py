"""How the golden snippets of the nn tests run, the same way under real PyTorch (the
recorders in tools/golden) and under this project: those of utils/prune_cases.py and
parallel/parallel_cases.py are lines (every line but the last a statement, the last an
expression), those of added_nn_cases.py and functional/sparse_grad_cases.py statements
joined by "; "."""

from __future__ import annotations

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
