"""How golden expressions are evaluated and their results described, the same way under
real PyTorch (tools/golden/record.py) and under this project (the tests). It imports no
torch itself: the caller passes the module in."""

from __future__ import annotations

import math
import warnings


def evaluate(torch, code: str, setup: str = ""):
    """Run ``code`` (statements separated by "; ", the last one an expression)."""
    namespace = {"torch": torch}
    exec(setup, namespace)
    *statements, expression = code.split("; ")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for statement in statements:
            exec(statement, namespace)
        return eval(expression, namespace)


def describe(torch, value):
    """A JSON-able description of ``value`` precise enough to compare two frameworks."""
    if isinstance(value, torch.Tensor):
        return {
            "repr": repr(value),
            "shape": list(value.shape),
            "stride": list(value.stride()),
            "offset": value.storage_offset(),
            "dtype": str(value.dtype),
        }
    if isinstance(value, torch.Size):
        return {"size": list(value)}
    if isinstance(value, (tuple, list)):
        return [describe(torch, v) for v in value]
    if isinstance(value, float):
        return repr(value) if math.isnan(value) or math.isinf(value) else value
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return repr(value)


def outcome(torch, code: str, setup: str = ""):
    try:
        return {"value": describe(torch, evaluate(torch, code, setup))}
    except Exception as error:  # noqa: BLE001 - the exception is the recorded result
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}


def sum_inputs(n: int, dtype: str):
    """Inputs of the recorded full sums (golden/sums.json): mixed signs and magnitudes from
    integer arithmetic and powers of ten only, so every NumPy version makes the same."""
    import numpy as np

    i = np.arange(n, dtype=np.int64)
    fraction = ((i * 2654435761) % 2**32) / 2**32 - 0.5
    scale = 10.0 ** ((i * 7919 % 13) - 6).astype(np.float64)
    return (fraction * scale).astype(dtype)
