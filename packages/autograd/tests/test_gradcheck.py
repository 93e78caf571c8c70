"""gradcheck and gradgradcheck."""

import warnings

import pytest

import torch
from torch.autograd import gradcheck, gradgradcheck
from torch.autograd.gradcheck import GradcheckError


def _x(*shape):
    torch.manual_seed(0)
    return torch.rand(*shape, dtype=torch.float64, requires_grad=True)


class WrongSecond(torch.autograd.Function):
    """Right first derivative, wrong second one (backward uses a constant slope)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2 * x.detach()


def test_passes_for_several_outputs_and_inputs():
    a, b = _x(2, 3), _x(3)
    assert gradcheck(lambda a, b: (a * b, (a @ b).exp()), (a, b))


def test_non_tensor_inputs_are_passed_through():
    assert gradcheck(lambda a, k: a * k, (_x(3), 2.5))


def test_mismatch_names_output_and_input():
    def f(a, b):
        return a.detach() * b + a  # d/da misses the b term

    with pytest.raises(GradcheckError, match="output 0 with respect to input 0"):
        gradcheck(f, (_x(2), _x(2)))
    assert issubclass(GradcheckError, RuntimeError)


def test_raise_exception_false_returns_false():
    assert gradcheck(lambda a: a.detach() * a, (_x(2),), raise_exception=False) is False


def test_tolerances_are_used():
    def f(a):
        return a * (1 + 1e-3 * a.detach())  # gradient off by about 1e-3 relative

    assert not gradcheck(f, (_x(3),), raise_exception=False, rtol=1e-5, atol=1e-8)
    assert gradcheck(f, (_x(3),), rtol=1e-2)


def test_single_precision_warns():
    x = torch.rand(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gradcheck(lambda a: a * 2, (x,), eps=1e-3, atol=1e-2, raise_exception=False)
    assert any("not a double precision" in str(w.message) for w in caught)


def test_no_input_requires_grad():
    with pytest.raises(ValueError, match="none of them have requires_grad=True"):
        gradcheck(torch.sin, (torch.ones(2, dtype=torch.float64),))


def test_gradgradcheck_catches_a_wrong_second_derivative():
    x = _x(3)
    assert gradcheck(WrongSecond.apply, (x,))
    with pytest.raises(GradcheckError):
        gradgradcheck(WrongSecond.apply, (x,))
    assert gradgradcheck(lambda a: a**2, (x,))


def test_gradgradcheck_with_given_grad_outputs():
    x = _x(2, 2)
    v = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)
    assert gradgradcheck(lambda a: (a @ a).tanh(), (x,), (v,))
