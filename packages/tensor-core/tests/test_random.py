"""Random numbers against real PyTorch's, on the native and the NumPy path."""

import numpy as np
import pytest

import torch
from torch import _C, _mt19937_ref


@pytest.fixture(params=["native", "reference"])
def engine_path(request, monkeypatch):
    """Run a test with generators built on either kernel implementation."""
    module = _C if request.param == "native" else _mt19937_ref
    monkeypatch.setattr(torch._random, "kernels", module)
    fresh = torch.Generator()
    monkeypatch.setattr(torch._random, "default_generator", fresh)
    return request.param


@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 + 7, -5])
def test_rand_matches_pytorch(golden, engine_path, seed):
    expected = golden("random")
    torch.manual_seed(seed)
    assert torch.rand(40).tolist() == expected[f"rand_f32_seed{seed}"]
    assert torch.rand(20, dtype=torch.float64).tolist() == expected[f"rand_f64_seed{seed}_after"]
    assert torch.initial_seed() == expected[f"initial_seed{seed}"]


def test_fresh_generator_matches_pytorch(golden, engine_path):
    expected = golden("random")
    g = torch.Generator()
    assert g.initial_seed() == expected["fresh_generator_initial_seed"]
    assert torch.rand(10, generator=g).tolist() == expected["fresh_generator_rand"]


@pytest.mark.parametrize(
    "dtype,low,high,key",
    [
        (np.float32, -3.3, 7.1, "uniform_f32_range_seed3"),
        (np.float64, -2.5, 0.1, "uniform_f64_range_seed3"),
    ],
)
def test_uniform_range_matches_pytorch(golden, engine_path, dtype, low, high, key):
    expected = golden("random")[key]
    g = torch.Generator().manual_seed(3)
    out = np.empty(len(expected), dtype)
    g._fill_uniform(out, low, high)
    assert out.tolist() == expected


def test_generators_are_independent():
    g1, g2 = torch.Generator().manual_seed(5), torch.Generator().manual_seed(5)
    a = torch.rand(3, generator=g1)
    torch.rand(100)  # the global generator does not disturb g2
    assert torch.rand(3, generator=g2).tolist() == a.tolist()


def test_seed_out_of_range():
    with pytest.raises(RuntimeError, match="Overflow"):
        torch.manual_seed(2**64)


def test_rand_rejects_integer_dtype():
    with pytest.raises(RuntimeError, match="not implemented for"):
        torch.rand(2, dtype=torch.int64)


def test_seed_is_random_and_reported():
    s = torch.seed()
    assert torch.initial_seed() == s


def test_complex_random_fills_the_real_view_as_pytorch():
    # values printed by PyTorch 2.13 for the same seeds: the real view (re, im pairs) is
    # filled as a float tensor, with std / sqrt(2) per part for normal draws
    torch.manual_seed(0)
    assert torch.randn(3, dtype=torch.complex64).tolist() == [
        (1.0896488428115845 - 0.20748557150363922j),
        (-1.5406367778778076 + 0.40194159746170044j),
        (-0.7668731212615967 - 0.9889562726020813j),
    ]
    torch.manual_seed(0)
    assert torch.rand(2, dtype=torch.complex128).tolist() == [
        (0.9700530018065531 + 0.707819864399788j),
        (0.45938294312745087 + 0.9207476841219603j),
    ]
    torch.manual_seed(1)  # 34 doubles: PyTorch's 16-at-a-time normal path
    assert torch.randn(17, dtype=torch.complex128)[-1].item() == (
        0.3438838121856179 + 0.503616908427861j
    )
    assert torch.randn(2, 3, dtype=torch.complex64).stride() == (3, 1)
