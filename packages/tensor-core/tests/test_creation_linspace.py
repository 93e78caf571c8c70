"""linspace/logspace arithmetic (values against PyTorch are in golden/math_api.json, group
"linspace"): the emulated fused multiply-add rounds once, as a hardware fma does."""

from fractions import Fraction

import numpy as np
import pytest

import torch
from torch import _creation


def _exact_fma(a, b, c, dtype):
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    if dtype == np.float64:
        return np.float64(float(exact))  # float(Fraction) rounds correctly
    # float32: pick the nearest of the two float32 neighbours of the exact value (ties even)
    guess = np.float32(float(exact))
    candidates = [
        np.nextafter(guess, np.float32(-np.inf)),
        guess,
        np.nextafter(guess, np.float32(np.inf)),
    ]
    return min(
        candidates, key=lambda v: (abs(Fraction(float(v)) - exact), int(v.view(np.int32)) & 1)
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_multiply_add_rounds_once(dtype):
    rng = np.random.default_rng(4)
    a = (rng.normal(size=400) * 10.0 ** rng.integers(-3, 4, 400)).astype(dtype)
    b = rng.integers(0, 5000, 400).astype(dtype)
    c = (rng.normal(size=400) * 10.0 ** rng.integers(-3, 4, 400)).astype(dtype)
    got = _creation._fused_multiply_add(a, b, c)
    expected = np.array([_exact_fma(x, y, z, dtype) for x, y, z in zip(a, b, c)], dtype=dtype)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, expected)


def test_linspace_ends_exact_and_halves():
    for steps in (2, 3, 10, 11, 1000):
        values = torch.linspace(-1.3, 7.9, steps)
        assert values[0].item() == np.float32(-1.3)
        assert values[-1].item() == np.float32(7.9)
    assert torch.linspace(0, 1, 0).shape == (0,)
    with pytest.raises(RuntimeError, match="number of steps must be non-negative"):
        torch.logspace(0, 1, -2)


def test_logspace_overflow_is_inf():
    assert torch.logspace(1, 400, 3, dtype=torch.float64)[-1].item() == float("inf")
