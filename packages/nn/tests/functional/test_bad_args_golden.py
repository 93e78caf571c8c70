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


@pytest.mark.parametrize("name", sorted(GOLDEN["cases"]))
def test_outcome_matches_pytorch(name):
    if name in PENDING:
        pytest.xfail(PENDING[name])
    case = GOLDEN["cases"][name]
    got = outcome(GOLDEN["setup"], case["source"])
    assert got == case["outcome"], f"{case['source']}: PyTorch {case['message'] or ''}"
