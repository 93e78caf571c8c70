"""view_as_real / view_as_complex / real / imag share memory with their input; layout
errors (messages are compared with PyTorch in test_expressions' api_gaps group)."""

import pytest

import torch


def test_round_trip_shares_storage():
    x = torch.arange(8.0).reshape(4, 2)
    z = torch.view_as_complex(x)
    assert z.dtype is torch.complex64 and z.data_ptr() == x.data_ptr()
    r = torch.view_as_real(z)
    r[0, 1] = 10.0
    assert x[0, 1].item() == 10.0 and z[0].item() == 10j


def test_views_share_the_version_counter():
    z = torch.zeros(3, dtype=torch.complex128)
    before = z._version
    torch.view_as_real(z).fill_(1.0)
    assert z._version == before + 1 and z.real.dtype is torch.float64


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: torch.arange(6.0).reshape(2, 3), "last dimension of size 2"),
        (lambda: torch.arange(4.0).reshape(2, 2).t(), "last dimension with stride 1"),
        (lambda: torch.arange(7.0)[1:].reshape(3, 2), "storage_offset divisible by 2"),
        (lambda: torch.arange(4).reshape(2, 2), "half, float and double"),
    ],
)
def test_view_as_complex_layout_errors(make, message):
    with pytest.raises(RuntimeError, match=message):
        torch.view_as_complex(make())


def test_view_as_real_needs_complex_and_imag_needs_complex():
    with pytest.raises(RuntimeError, match="only supported for complex"):
        torch.view_as_real(torch.zeros(2))
    with pytest.raises(RuntimeError, match="non-complex"):
        torch.zeros(2).imag


def test_non_tensor_input_is_a_type_error():
    with pytest.raises(TypeError):
        torch.view_as_real([1j])


@pytest.mark.autograd
def test_gradient_through_complex_round_trip():
    x = torch.arange(4.0).reshape(2, 2).requires_grad_()
    torch.view_as_real(torch.view_as_complex(x)).mul(torch.tensor([1.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [[1.0, 3.0], [1.0, 3.0]]


def test_adjoint_of_0d_warns_once_and_of_1d_is_refused(monkeypatch):
    from torch._ops import _dispatch

    monkeypatch.setattr(_dispatch, "WARNED_ONCE", set())
    z = torch.tensor(1 + 2j)
    with pytest.warns(UserWarning, match="adjoint\\(\\) is deprecated on 0-D tensors"):
        assert torch.adjoint(z).item() == 1 - 2j
    with pytest.warns(UserWarning, match="Tensor.mH is deprecated on 0-D tensors"):
        assert z.mH.item() == 1 - 2j
    with pytest.raises(RuntimeError, match="tensor.adjoint\\(\\) is only supported on matrices"):
        torch.ones(3).adjoint()
    with pytest.raises(RuntimeError, match="tensor.mH is only supported on matrices"):
        torch.ones(3).mH
