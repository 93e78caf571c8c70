"""Bad-argument calls of core ops raise the exception type real PyTorch raises (or give
the result it gives): the cases and PyTorch's outcomes are recorded by
tools/golden/record_bad_args.py from the survey tools/audit_bad_args.py."""

import json
import pathlib
import warnings

import pytest

import torch

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "bad_args.json").read_text())

# known differences, each with what is missing
PENDING: dict[str, str] = {}


def describe(value) -> str:
    """The outcome string of tools/audit_bad_args.py for a result."""
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
    env: dict = {}
    exec(setup, env)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(source, env)
        except Exception as error:  # noqa: BLE001  (the type is what is compared)
            return type(error).__name__
    return describe(value)


@pytest.mark.parametrize("name", sorted(GOLDEN["cases"]))
def test_outcome_matches_pytorch(name):
    if name in PENDING:
        pytest.xfail(PENDING[name])
    case = GOLDEN["cases"][name]
    got = outcome(GOLDEN["setup"], case["source"])
    assert got == case["outcome"], f"{case['source']}: PyTorch {case['message'] or ''}"
