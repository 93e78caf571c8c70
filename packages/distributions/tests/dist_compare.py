"""How an outcome of ours is compared with PyTorch's recorded one."""

from __future__ import annotations

import math


def _close(a, b, rtol: float, atol: float) -> bool:
    if isinstance(a, str) or isinstance(b, str) or isinstance(a, bool) or isinstance(b, bool):
        return a == b or (_nan(a) and _nan(b))
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=rtol, abs_tol=atol)


def _nan(x) -> bool:
    return x == "nan" or (isinstance(x, float) and math.isnan(x))


def differences(ours, theirs, path="", rtol=1e-9, atol=1e-12) -> list:
    """Where ``ours`` differs from ``theirs`` (numbers within ``rtol``/``atol``)."""
    if isinstance(theirs, dict) and isinstance(ours, dict):
        if set(theirs) != set(ours):
            return [f"{path}: keys {sorted(ours)} != {sorted(theirs)}"]
        found = []
        for key in theirs:
            if key == "grad_fn":
                continue  # node names are compared where a test asks for them
            found += differences(ours[key], theirs[key], f"{path}.{key}", rtol, atol)
        return found
    if isinstance(theirs, list) and isinstance(ours, list):
        if len(theirs) != len(ours):
            return [f"{path}: length {len(ours)} != {len(theirs)}"]
        found = []
        for i, (a, b) in enumerate(zip(ours, theirs)):
            found += differences(a, b, f"{path}[{i}]", rtol, atol)
        return found
    if not _close(ours, theirs, rtol, atol):
        return [f"{path}: {ours!r} != {theirs!r}"]
    return []
