"""torch._sum_ref.cascade_sum reproduces PyTorch's float sums bit for bit; it is the oracle
of the native kernel (torch._C.cascade_sum) that full sums of small float tensors use."""

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


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_torch_sum_equals_pytorchs_bit_for_bit(dtype):
    for n, expected in GOLDEN[dtype].items():
        x = torch.from_numpy(sum_inputs(int(n), dtype))
        assert x.sum().item() == expected, f"n={n}"
        assert torch.sum(x).item() == expected, f"n={n}"


def test_rejects_other_dtypes():
    with pytest.raises(TypeError, match="float32 or float64"):
        cascade_sum(np.arange(3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_native_cascade_sum_is_the_reference_order(dtype):
    from torch import _C

    rng = np.random.default_rng(5)
    sizes = list(range(0, 200)) + [int(n) for n in rng.integers(200, 32768, 60)]
    for n in sizes:
        a = (rng.standard_normal(n) * rng.uniform(0.1, 1e4)).astype(dtype)
        assert np.float64(cascade_sum(a)) == _C.cascade_sum(a), n


def test_small_float_sums_use_pytorchs_order():
    a = np.full(1000, 0.1, dtype=np.float32)
    assert torch.from_numpy(a).sum().item() == float(cascade_sum(a))
    assert torch.sum(torch.from_numpy(a)).item() == float(cascade_sum(a))
