"""torch.fill, Tensor.fill_ and Tensor.zero_: writes into the tensor's memory, versions,
views, dtypes, autograd and error types (values are compared with PyTorch in
test_expressions' api_gaps group)."""

import pytest

import torch


def test_fill_writes_in_place_through_views_and_bumps_the_version():
    base = torch.zeros(3, 4)
    column = base[:, 1]
    before = base._version
    pointer = base.data_ptr()
    column.fill_(2.0)
    assert base.data_ptr() == pointer and base._version == before + 1
    assert base[:, 1].tolist() == [2.0, 2.0, 2.0] and base.sum().item() == 6.0


def test_zero_keeps_dtype_and_returns_self():
    x = torch.arange(6, dtype=torch.int16)
    assert x.zero_() is x and x.dtype is torch.int16 and not x.any()


def test_fill_value_tensor_must_be_zero_dim():
    with pytest.raises(RuntimeError, match="0-dimension value tensor"):
        torch.ones(2).fill_(torch.ones(2))


def test_fill_rejects_other_value_types():
    with pytest.raises(TypeError):
        torch.ones(2).fill_("a")


@pytest.mark.autograd
def test_fill_of_leaf_requiring_grad_raises():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        x.fill_(1.0)


@pytest.mark.autograd
def test_gradient_flows_to_value_not_to_filled_tensor():
    x = torch.ones(3, requires_grad=True)
    value = torch.tensor(2.0, requires_grad=True)
    y = (x * 1).fill_(value)
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0] and value.grad.item() == 6.0
