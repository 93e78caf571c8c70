"""Bad-argument calls of ``nn.functional`` raise the exception type real PyTorch raises
(or give the result it gives): the cases and PyTorch's outcomes are recorded by
tools/golden/record_bad_args.py from the survey tools/audit_bad_args.py."""

import json
import pathlib

import pytest

from torch.testing._bad_args import outcome

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "bad_args.json").read_text())

# known differences, each with what is missing
PENDING = {
    "conv_tbc_pad": "conv_tbc refuses a negative pad, which PyTorch crops with",
}


CASES = [
    pytest.param(name, marks=[pytest.mark.xfail(reason=PENDING[name])] if name in PENDING else [])
    for name in sorted(GOLDEN["cases"])
]


@pytest.mark.parametrize("name", CASES)
def test_outcome_matches_pytorch(name):
    case = GOLDEN["cases"][name]
    expected = f"{case['source']}: PyTorch {case['message'] or ''}"
    assert outcome(GOLDEN["setup"], case["source"]) == case["outcome"], expected
