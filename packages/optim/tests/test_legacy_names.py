"""The 0.4-migration expressions of legacy_names_cases.py give what PyTorch 2.13 gave
(golden/legacy_names.json, recorded by tools/golden/record_legacy_api.py)."""

import json
import pathlib

import legacy_names_cases as cases
import pytest

import torch
from torch._interface import get_grad_engine

if not get_grad_engine().available:  # the cases compute gradients
    pytest.skip("needs torch-autograd, which is not installed", allow_module_level=True)

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "legacy_names.json").read_text())


def test_every_case_is_recorded():
    assert set(GOLDEN) == set(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name):
    expected = GOLDEN[name]
    got = cases.outcome(torch, cases.CASES[name])
    if name in cases.TYPE_ONLY:
        assert got.get("error") == expected.get("error"), got
        got.pop("message", None), expected.pop("message", None)
    if name in cases.PREFIX_ONLY:
        assert got.get("message", "").startswith(expected["message"]), got
        got["message"] = expected["message"]
    if name in cases.ANY_WARNINGS:
        got.pop("warnings"), expected.pop("warnings")
    expected.pop("code")
    assert got == expected


def test_lower_case_optimizer_names_hint_the_class():
    with pytest.raises(AttributeError, match=r"Did you mean torch\.optim\.SGD\?"):
        torch.optim.sgd
    with pytest.raises(AttributeError, match=r"has no attribute 'foo'$"):
        torch.optim.foo
