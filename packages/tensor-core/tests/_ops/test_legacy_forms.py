"""Legacy functions, argument forms and conversion methods PyTorch 2.13 still has:
``torch.frobenius_norm`` (deprecated, warned once), ``Tensor.chalf()`` and
``torch.linalg.pinv``'s ``rcond``."""

import pytest

import torch
from torch._ops import _dispatch


def test_frobenius_norm_is_the_2_norm_over_at_most_two_dims(monkeypatch):
    monkeypatch.setattr(_dispatch, "WARNED_ONCE", set())
    x = torch.arange(6.0).view(2, 3)
    with pytest.warns(UserWarning, match="frobenius_norm is deprecated"):
        rows = torch.frobenius_norm(x, (1,))
    torch.testing.assert_close(rows, torch.linalg.vector_norm(x, 2, 1))
    assert torch.frobenius_norm(x, [0, 1], True).shape == (1, 1)
    with pytest.raises(RuntimeError, match="Expected at most 2 dimensions, but got 3"):
        torch.frobenius_norm(x, (0, 1, 1))


def test_chalf_converts_to_complex32():
    assert torch.arange(3.0).chalf().dtype is torch.complex32


def test_linalg_pinv_takes_the_older_rcond_by_position_or_keyword():
    torch.manual_seed(0)
    a = torch.randn(2, 3, 3, dtype=torch.float64)
    expected = torch.linalg.pinv(a, rtol=0.5)
    torch.testing.assert_close(torch.linalg.pinv(a, 0.5), expected)
    torch.testing.assert_close(torch.linalg.pinv(a, rcond=0.5), expected)
    torch.testing.assert_close(
        torch.linalg.pinv(a, torch.tensor(0.5, dtype=torch.float64)), expected
    )
    sym = a @ a.mT
    torch.testing.assert_close(
        torch.linalg.pinv(sym, 0.5, True), torch.linalg.pinv(sym, rtol=0.5, hermitian=True)
    )
    with pytest.raises(TypeError, match="rcond cannot be given with atol or rtol"):
        torch.linalg.pinv(a, 0.5, rtol=0.5)
