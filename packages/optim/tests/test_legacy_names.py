"""The 0.4-migration expressions of legacy_names_cases.py give what PyTorch 2.13 gave
(golden/legacy_names.json, recorded by tools/golden/record_legacy_api.py; that every case is
recorded, test_optim_snippets.py checks)."""

import legacy_names_cases as cases
import pytest
from optim_testing import needs_autograd

import torch

pytestmark = needs_autograd  # the cases compute gradients


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_pytorch(name, golden):
    expected = {k: v for k, v in golden("legacy_names")[name].items() if k != "code"}
    got = cases.outcome(torch, cases.CASES[name])
    if name in cases.PREFIX_ONLY:
        assert got.get("message", "").startswith(expected["message"]), got
        got["message"] = expected["message"]
    assert got == expected


def test_lower_case_optimizer_names_hint_the_class():
    with pytest.raises(AttributeError, match=r"Did you mean torch\.optim\.SGD\?"):
        torch.optim.sgd
    with pytest.raises(AttributeError, match=r"has no attribute 'foo'$"):
        torch.optim.foo
