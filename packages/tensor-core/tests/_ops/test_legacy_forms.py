"""Legacy functions and conversion methods PyTorch 2.13 still has: ``torch.frobenius_norm``
(deprecated, warned once) and ``Tensor.chalf()``."""

import pytest

import torch
from torch._ops import reduction


def test_frobenius_norm_is_the_2_norm_over_at_most_two_dims(monkeypatch):
    monkeypatch.setattr(reduction, "_FROBENIUS_WARNED", [])
    x = torch.arange(6.0).view(2, 3)
    with pytest.warns(UserWarning, match="frobenius_norm is deprecated"):
        rows = torch.frobenius_norm(x, (1,))
    torch.testing.assert_close(rows, torch.linalg.vector_norm(x, 2, 1))
    assert torch.frobenius_norm(x, [0, 1], True).shape == (1, 1)
    with pytest.raises(RuntimeError, match="Expected at most 2 dimensions, but got 3"):
        torch.frobenius_norm(x, (0, 1, 1))


def test_chalf_converts_to_complex32():
    assert torch.arange(3.0).chalf().dtype is torch.complex32
