import pytest

import torch
from torch.testing import assert_close


def test_close_values_pass():
    assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-6]))
    assert_close(torch.tensor([1, 2]), torch.tensor([1, 2]))
    assert_close(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)


@pytest.mark.parametrize(
    "actual,expected,match",
    [
        (torch.tensor([1.0]), torch.tensor([1.1]), "Tensor-likes are not close"),
        (torch.tensor([1, 2]), torch.tensor([1, 3]), "Mismatched elements: 1 / 2"),
        (torch.tensor([1.0]), torch.tensor([1.0, 2.0]), "'shape' do not match"),
        (torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64), "'dtype' do not match"),
    ],
)
def test_mismatches_raise(actual, expected, match):
    with pytest.raises(AssertionError, match=match):
        assert_close(actual, expected)


def test_tolerances_come_in_pairs():
    with pytest.raises(ValueError, match="Both 'rtol' and 'atol'"):
        assert_close(torch.ones(1), torch.ones(1), rtol=0.1)
