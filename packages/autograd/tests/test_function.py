"""torch.autograd.Function beyond the golden snippets: error paths and graph details."""

import gc
import weakref

import pytest
from make_function import make_function

import torch
from torch.autograd import Function


class Scale(Function):
    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        return x * factor

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.factor, None


def _returns_grad(ctx, grad):
    return grad


def _saves_an_int(ctx, x):
    ctx.save_for_backward(x, 3)
    return x


def _dirties_a_new_tensor(ctx, x):
    y = x * 2
    ctx.mark_dirty(y)
    return y


@pytest.mark.parametrize(
    "forward, error, message",
    [
        (_saves_an_int, TypeError, "argument 1 is of type int"),  # save_for_backward
        (_dirties_a_new_tensor, RuntimeError, "mark_dirty only accepts input tensors"),
    ],
)
def test_ctx_refuses_what_it_cannot_keep(forward, error, message):
    bad = make_function("Bad", forward, _returns_grad)
    with pytest.raises(error, match=message):
        bad.apply(torch.ones(2, requires_grad=True))


def test_forward_must_be_implemented():
    class Empty(Function):
        pass

    with pytest.raises(NotImplementedError, match="forward"):
        Empty.apply(torch.ones(1))


def test_setup_context_style():
    class Square(Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    x = torch.tensor([3.0], requires_grad=True)
    Square.apply(x).sum().backward()
    assert x.grad.tolist() == [6.0]


def test_keyword_and_non_tensor_arguments_and_gradient_dtype():
    x = torch.ones(2, dtype=torch.float64, requires_grad=True)

    class ToFloat(Function):
        @staticmethod
        def forward(ctx, x, *, offset=0.0):
            return x.float() + offset

        @staticmethod
        def backward(ctx, grad):
            return grad  # float32: cast back to the input's float64

    ToFloat.apply(x, offset=1.0).sum().backward()
    assert x.grad.dtype is torch.float64


def test_graph_without_saved_output_is_freed():
    x = torch.ones(2, requires_grad=True)
    y = Scale.apply(x, 2.0)
    node = weakref.ref(y.grad_fn)
    del y
    gc.collect()
    assert node() is None


def test_retain_graph_allows_second_backward_of_saved_tensors():
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    square = make_function("Sq", forward, lambda ctx, grad: 2 * ctx.saved_tensors[0] * grad)
    x = torch.tensor([2.0], requires_grad=True)
    y = square.apply(x)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [8.0]


def test_function_under_no_grad_records_nothing():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = Scale.apply(x, 2.0)
    assert y.grad_fn is None and not y.requires_grad


def test_integer_outputs_are_not_differentiable():
    class Count(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, torch.tensor([1, 2])

        @staticmethod
        def backward(ctx, grad, _):
            return grad * 2

    y, n = Count.apply(torch.ones(2, requires_grad=True))
    assert y.requires_grad and not n.requires_grad
