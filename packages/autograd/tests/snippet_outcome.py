"""How the golden snippets of autograd_cases.py and func_cases.py run, the same way under
real PyTorch (tools/golden/record_autograd.py, record_func.py) and under this project."""

from __future__ import annotations

import warnings


def run_snippet(setup: str, code: str, describe) -> dict:
    """Run ``setup`` then ``code`` with warnings silenced: ``{"value": describe(out)}``, or
    the exception raised (its type name and message)."""
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(setup, namespace)
            exec(code, namespace)
        except Exception as error:  # noqa: BLE001 - the error is the recorded outcome
            return {"error": type(error).__name__, "message": str(error)}
    return {"value": describe(namespace.get("out"))}
