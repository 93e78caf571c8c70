"""In-place pointwise and ternary ops write straight into the tensor's memory: same values
as the out-of-place op cast to the tensor's dtype, PyTorch's in-place promotion and
errors, views and aliasing, version counters and autograd recording."""

import numpy as np
import pytest

import torch

F32, F64 = torch.float32, torch.float64


def _data(shape, dtype, seed):
    return torch.tensor(np.random.default_rng(seed).uniform(0.5, 2.0, shape)).to(dtype)


BINARY = [
    ("add_", torch.add, {"alpha": -0.1}),
    ("add_", torch.add, {}),
    ("sub_", torch.sub, {"alpha": 3}),
    ("mul_", torch.mul, {}),
    ("div_", torch.div, {}),
    ("eq_", torch.eq, {}),
    ("lt_", torch.lt, {}),
]


@pytest.mark.parametrize("name,function,kwargs", BINARY)
@pytest.mark.parametrize("other_dtype", [F32, F64])
@pytest.mark.parametrize("other_shape", [(3, 4), (4,), ()])
def test_binary_matches_out_of_place(name, function, kwargs, other_dtype, other_shape):
    x, y = _data((3, 4), F32, 1), _data(other_shape, other_dtype, 2)
    expected = function(x, y, **kwargs).to(F32)
    result = getattr(x.clone(), name)(y, **kwargs)
    assert result.dtype is F32
    np.testing.assert_array_equal(result.numpy(), expected.numpy())


@pytest.mark.parametrize("scalar", [0.3, 2, True])
def test_binary_with_python_scalar(scalar):
    x = _data((5,), F32, 3)
    np.testing.assert_array_equal(x.clone().mul_(scalar).numpy(), (x * scalar).numpy())


def test_writes_into_the_same_memory_and_bumps_version():
    x = _data((4, 6), F32, 4)
    pointer, version = x.data_ptr(), x._version
    x.add_(torch.ones(6), alpha=2).mul_(0.5).sqrt_()
    assert x.data_ptr() == pointer and x._version == version + 3


def test_non_contiguous_view_is_updated_in_its_base():
    base = torch.zeros(3, 4)
    view = base.t()[1:3]
    view.add_(torch.arange(3.0))
    assert base[:, 1:3].tolist() == [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]


def test_aliased_operand():
    x = torch.tensor([1.0, 2.0, 3.0])
    x.mul_(x).add_(x, alpha=2)
    assert x.tolist() == [3.0, 12.0, 27.0]


def test_promotion_errors():
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired"):
        torch.ones(2, dtype=torch.int64).add_(torch.ones(2))
    with pytest.raises(RuntimeError, match="result type Float can't be cast"):
        torch.ones(2, dtype=torch.int64).div_(2)
    with pytest.raises(RuntimeError, match="alpha must not be a floating point"):
        torch.ones(2, dtype=torch.int64).add_(1, alpha=0.5)
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator"):
        torch.ones(2, dtype=torch.bool).sub_(torch.ones(2, dtype=torch.bool))


def test_shape_errors_leave_the_tensor_unchanged():
    x = torch.ones(3)
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast"):
        x.add_(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        x.mul_(torch.ones(4))
    assert x.tolist() == [1.0, 1.0, 1.0] and x._version == 0


def test_integer_in_place_keeps_integers():
    x = torch.tensor([5, 7], dtype=torch.int32)
    x.mul_(3).sub_(torch.tensor([1, 1], dtype=torch.int16))
    assert x.dtype is torch.int32 and x.tolist() == [14, 20]


TERNARY = [
    ("lerp_", torch.lerp, lambda: (_data((3, 4), F32, 5), 0.25)),
    ("lerp_", torch.lerp, lambda: (_data((4,), F32, 5), 0.75)),
    ("addcmul_", torch.addcmul, lambda: (_data((3, 1), F32, 6), _data((4,), F32, 7))),
    ("addcdiv_", torch.addcdiv, lambda: (_data((3, 4), F32, 6), _data((4,), F32, 7))),
    ("clamp_", torch.clamp, lambda: (0.8, 1.5)),
    ("clamp_", torch.clamp, lambda: (_data((4,), F32, 8), None)),
]


@pytest.mark.parametrize("name,function,make", TERNARY)
def test_ternary_matches_out_of_place(name, function, make):
    x, args = _data((3, 4), F32, 9), make()
    kwargs = {"value": -0.1} if name.startswith("addc") else {}
    expected = function(x, *args, **kwargs)
    result = getattr(x.clone(), name)(*args, **kwargs)
    np.testing.assert_array_equal(result.numpy(), expected.numpy())


def test_ternary_falls_back_for_other_dtypes_and_tensor_weights():
    x = torch.zeros(2, dtype=F64)
    x.addcmul_(torch.ones(2, dtype=F32), torch.ones(2, dtype=F32), value=2)
    assert x.tolist() == [2.0, 2.0]
    y = torch.zeros(2)
    y.lerp_(torch.ones(2), torch.tensor([0.25, 0.75]))
    assert y.tolist() == [0.25, 0.75]
    with pytest.raises(RuntimeError, match="Integer division with addcdiv"):
        ones = torch.ones(2, dtype=torch.int64)
        ones.addcdiv_(ones, ones)


def test_ternary_broadcast_error():
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        torch.ones(4).addcmul_(torch.ones(3, 1), torch.ones(4))


@pytest.mark.autograd
def test_recorded_in_place_ops_still_have_gradients():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    y = w * 1
    y.add_(w, alpha=2).addcmul_(w, w, value=0.5).sqrt_()
    y.sum().backward()
    expected = (3 + w.detach()) / (2 * torch.sqrt(3 * w.detach() + 0.5 * w.detach() ** 2))
    np.testing.assert_allclose(w.grad.numpy(), expected.numpy(), rtol=1e-6)
