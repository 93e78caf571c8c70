"""The outcome strings of tools/audit_bad_args.py, for the golden bad-argument tests of
torch-core and the sibling packages (tests/golden/bad_args.json of each)."""

from __future__ import annotations

import warnings

import torch

__all__ = ["describe", "outcome"]


def describe(value) -> str:
    """The outcome string of a result ("ok shape=[2, 3] dtype=float32", ...)."""
    if isinstance(value, torch.Tensor):
        return f"ok shape={list(value.shape)} dtype={str(value.dtype).replace('torch.', '')}"
    if isinstance(value, torch.Size):
        return f"ok {list(value)}"
    if isinstance(value, (tuple, list)):
        return "ok (" + ", ".join(describe(v)[3:] for v in value) + ")"
    if isinstance(value, torch.dtype):
        return f"ok {str(value).replace('torch.', '')}"
    return f"ok {value!r}"


def outcome(setup: str, source: str) -> str:
    """Run ``setup``, then evaluate ``source``: the result's :func:`describe` string, or
    the name of the exception type it raised (warnings silenced)."""
    env: dict = {}
    exec(setup, env)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(source, env)
        except Exception as error:  # noqa: BLE001  (the type is what is compared)
            return type(error).__name__
    return describe(value)
