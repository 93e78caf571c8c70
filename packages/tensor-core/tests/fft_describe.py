"""How the golden ``torch.fft`` expressions (tools/golden/cases_fft.py) are described, the
same way under real PyTorch (tools/golden/record_fft.py) and under this project
(tests/_ops/test_fft.py). Values are kept as numbers, not reprs: the tests compare them
with a tolerance (PyTorch's MKL and NumPy's pocketfft round differently, and a zero may
come out as -0.0 in one and 0.0 in the other). It imports no torch itself."""

from __future__ import annotations

import math

from golden_describe import evaluate


def _number(value):
    return repr(value) if isinstance(value, float) and not math.isfinite(value) else value


def _values(torch, tensor) -> list:
    tensor = tensor.detach()
    if tensor.is_complex():
        if hasattr(tensor, "resolve_conj"):  # PyTorch's conjugate views cannot be viewed as real
            tensor = tensor.resolve_conj()
        tensor = torch.view_as_real(tensor)
    flat = tensor.reshape(-1).tolist()
    return [_number(v) for v in flat]


def describe(torch, value):
    """A JSON-able description of ``value``: a tensor's dtype, shape and values (complex
    ones as (real, imaginary) pairs), anything else as it is or its repr."""
    if isinstance(value, torch.Tensor):
        return {
            "dtype": str(value.dtype),
            "shape": list(value.shape),
            "requires_grad": value.requires_grad,
            "values": _values(torch, value),
        }
    if isinstance(value, (tuple, list)):
        return [describe(torch, v) for v in value]
    plain = value is None or isinstance(value, (bool, int, float, str))
    return _number(value) if plain else repr(value)


def outcome(torch, code: str, setup: str = ""):
    """``{"value": description}``, or the exception's type and first message line."""
    try:
        value = evaluate(torch, code, setup)
    except Exception as error:  # noqa: BLE001 - the exception is the recorded result
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    return {"value": describe(torch, value)}


def close(actual, expected, tol: float = 1e-4) -> bool:
    """Whether two descriptions agree: the same structure and exact fields, the values
    within ``tol`` (relative to the largest magnitude of the expected values)."""
    if isinstance(expected, dict) and "values" in expected:
        if not isinstance(actual, dict) or {k: v for k, v in actual.items() if k != "values"} != {
            k: v for k, v in expected.items() if k != "values"
        }:
            return False
        a, e = actual["values"], expected["values"]
        if len(a) != len(e):
            return False
        scale = max([abs(v) for v in e if isinstance(v, float | int)] + [1.0])
        return all(_near(x, y, tol * scale) for x, y in zip(a, e))
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(close(actual[k], expected[k], tol) for k in expected)
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(close(a, e, tol) for a, e in zip(actual, expected))
        )
    if isinstance(expected, float) and isinstance(actual, float | int):
        return _near(actual, expected, tol * max(1.0, abs(expected)))
    return actual == expected


def _near(x, y, tol: float) -> bool:
    if isinstance(x, str) or isinstance(y, str):  # inf and nan, kept as reprs
        return x == y
    return abs(x - y) <= tol
