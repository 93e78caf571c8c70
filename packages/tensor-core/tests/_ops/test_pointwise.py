"""Kernels of the pointwise family (``torch/_ops/pointwise.py``) that must not depend on
the installed NumPy version."""

import numpy as np
import pytest

import torch


def _values(dtype):
    rng = np.random.default_rng(0)
    values = rng.standard_normal(4096) * 10.0 ** rng.integers(-3, 4, 4096)
    special = [0.0, -0.0, 1.0, -1.0, float("inf"), float("-inf"), float("nan")]
    return torch.tensor(np.concatenate([values, special])).to(dtype)


def _bits(t):
    return t.view({2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]).numpy()


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
@pytest.mark.parametrize(
    ("exponent", "expected"),
    [
        (2, lambda x: x * x),
        (2.0, lambda x: x * x),
        (1.0, lambda x: x.clone()),
        (-1, torch.reciprocal),
    ],
)
def test_pow_by_a_scalar_two_one_or_minus_one_is_exact(dtype, exponent, expected):
    # as PyTorch (and NumPy 2): a product, a copy and a reciprocal, correctly rounded;
    # NumPy 1.x's np.power is off by an ulp on many float32 and float64 inputs
    x = _values(dtype)
    assert np.array_equal(_bits(torch.pow(x, exponent)), _bits(expected(x)))
    assert np.array_equal(_bits(x**exponent), _bits(expected(x)))
    inplace = x.clone()
    inplace.pow_(exponent)
    assert np.array_equal(_bits(inplace), _bits(expected(x)))
