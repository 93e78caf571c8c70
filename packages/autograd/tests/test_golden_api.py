"""The autograd API snippets of autograd_cases.py against what real PyTorch gave
(golden/autograd_api.json, written by tools/golden/record_autograd.py)."""

import json

import autograd_cases
import pytest


def _cases(golden):
    return golden("autograd_api")


@pytest.mark.parametrize("name", sorted(autograd_cases.CASES))
def test_matches_pytorch(name, golden):
    expected = _cases(golden)[name]
    assert expected["code"] == autograd_cases.CASES[name], "re-record the golden file"
    got = autograd_cases.outcome(autograd_cases.CASES[name])
    if "error" in expected:
        assert got.get("error") == expected["error"], got
        if name.endswith("!"):
            assert got["message"] == expected["message"]
        return
    # through JSON: NaN equals NaN there
    assert json.dumps(got.get("value")) == json.dumps(expected["value"]), got
