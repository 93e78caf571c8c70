"""torch._sum_ref.cascade_sum reproduces PyTorch's float sums bit for bit (the oracle for a
native kernel); how often torch.sum agrees today is printed, not asserted."""

import json
import pathlib

import numpy as np
import pytest
from golden_describe import sum_inputs

import torch
from torch._sum_ref import cascade_sum

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sums.json").read_text())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cascade_sum_matches_pytorch_bit_for_bit(dtype):
    for n, expected in GOLDEN[dtype].items():
        got = cascade_sum(sum_inputs(int(n), dtype))
        assert got.dtype == np.dtype(dtype)
        assert float(got) == expected, f"n={n}"


def test_agreement_of_torch_sum(capsys):
    sizes = GOLDEN["float32"]
    same = sum(
        torch.from_numpy(sum_inputs(int(n), "float32")).sum().item() == v for n, v in sizes.items()
    )
    with capsys.disabled():
        print(f"\ntorch.sum equals PyTorch's float32 sum for {same} of {len(sizes)} sizes")


def test_rejects_other_dtypes():
    with pytest.raises(TypeError, match="float32 or float64"):
        cascade_sum(np.arange(3))
