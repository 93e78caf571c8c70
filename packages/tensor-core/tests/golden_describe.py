"""How golden expressions are evaluated and their results described, the same way under
real PyTorch (tools/golden/record.py) and under this project (the tests). It imports no
torch itself: the caller passes the module in."""

from __future__ import annotations

import math
import warnings


def evaluate(torch, code: str, setup: str = ""):
    """Run ``code`` (statements separated by "; ", the last one an expression), warnings
    silenced."""
    namespace = {"torch": torch}
    exec(setup, namespace)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run(code, namespace)


def run(code: str, namespace: dict, separator: str = "; "):
    """The value of ``code``'s last part (parts separated by ``separator``) after the
    statements before it ran in ``namespace``, one by one."""
    *statements, expression = code.split(separator)
    for statement in statements:
        exec(statement, namespace)
    return eval(expression, namespace)


def describe(torch, value, tensor=None):
    """A JSON-able description of ``value`` precise enough to compare two frameworks:
    tensors as ``tensor`` writes them (by default their repr, layout and dtype)."""
    if isinstance(value, torch.Tensor):
        return (tensor or _repr_and_layout)(value)
    if isinstance(value, torch.Size):
        return {"size": list(value)}
    if isinstance(value, (tuple, list)):
        return [describe(torch, v, tensor) for v in value]
    if isinstance(value, float):
        return repr(value) if math.isnan(value) or math.isinf(value) else value
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return repr(value)


def _repr_and_layout(value) -> dict:
    return {
        "repr": repr(value),
        "shape": list(value.shape),
        "stride": list(value.stride()),
        "offset": value.storage_offset(),
        "dtype": str(value.dtype),
    }


def outcome(torch, code: str, setup: str = ""):
    try:
        return {"value": describe(torch, evaluate(torch, code, setup))}
    except Exception as error:  # noqa: BLE001 - the exception is the recorded result
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}


def builtin_outcome(code: str, namespace: dict, describe) -> dict:
    """``{"value": describe(value)}`` of ``run(code, namespace)``, or the error as its
    builtin base type's name (PyTorch's own error classes differ from this project's) and
    the first line of its message, without the note PyTorch adds for Facebook employees."""
    try:
        return {"value": describe(run(code, namespace))}
    except Exception as error:  # noqa: BLE001 - the exception is the recorded result
        kind = next(k for k in type(error).__mro__ if k.__module__ == "builtins")
        message = str(error).split("\n")[0].split(" If you are a Facebook employee")[0]
        return {"error": kind.__name__, "message": message}


def warned_outcome(code: str, namespace: dict, describe) -> dict:
    """``builtin_outcome`` with the texts of the warnings raised (deprecation warnings left
    out), under the key "warnings"."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = builtin_outcome(code, namespace, describe)
    # PyTorch's C++ warnings end with where in its sources they were raised
    result["warnings"] = [
        str(w.message).split(" (Triggered internally at")[0]
        for w in caught
        if not issubclass(w.category, DeprecationWarning)
    ]
    return result


def sum_inputs(n: int, dtype: str):
    """Inputs of the recorded full sums (golden/sums.json): mixed signs and magnitudes from
    integer arithmetic and a fixed table of powers of ten, so every NumPy version makes the same."""
    import numpy as np

    i = np.arange(n, dtype=np.int64)
    fraction = ((i * 2654435761) % 2**32) / 2**32 - 0.5
    # powers of ten from -6 to 6 written out: NumPy's power rounds 10**-5 differently from
    # one version to the next; these are the values the goldens were recorded with
    powers = np.array([float(f"1e{e}") for e in range(-6, 7)])
    powers[1] = float.fromhex("0x1.4f8b588e368f0p-17")  # 10**-5 one ulp low, as NumPy 2.4
    scale = powers[i * 7919 % 13]
    return (fraction * scale).astype(dtype)
