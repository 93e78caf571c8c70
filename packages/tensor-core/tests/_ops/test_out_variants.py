"""out= added by torch._ops.out_variants: resizing (with PyTorch's warning), dtype rules,
tuple results, autograd refusal and argument errors (values are compared with PyTorch in
test_expressions' out_argument group)."""

import inspect
import warnings

import numpy as np
import pytest

import torch


def test_resizes_with_a_warning_only_when_out_held_elements():
    x = torch.arange(6.0).reshape(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.sum(x, 0, out=torch.empty(0))
    with pytest.warns(UserWarning, match="was resized since it had shape \\[5\\]"):
        torch.sum(x, 0, out=torch.empty(5))


def test_keeps_out_memory_when_shape_matches():
    out = torch.empty(3)
    pointer = out.data_ptr()
    torch.amax(torch.ones(2, 3), 0, out=out)
    assert out.data_ptr() == pointer and out.tolist() == [1.0, 1.0, 1.0]


def test_index_results_need_integer_out():
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype long int"):
        torch.argmax(torch.ones(3), out=torch.empty(0))


def test_linalg_out_needs_the_exact_dtype():
    with pytest.raises(RuntimeError, match="dtype float, but got double"):
        torch.linalg.det(torch.eye(2), out=torch.empty((), dtype=torch.float64))


def test_tuple_results_fill_each_out_and_name_the_out_variant():
    values, indices = torch.empty(0), torch.empty(0, dtype=torch.long)
    result = torch.topk(torch.tensor([1.0, 3.0, 2.0]), 2, out=(values, indices))
    assert result.values is values and result.indices is indices
    assert type(result).__name__ == "topk_out" and indices.tolist() == [1, 2]
    with pytest.raises(TypeError, match="tuple of 2 Tensors"):
        torch.topk(torch.ones(3), 2, out=values)


@pytest.mark.autograd
def test_refuses_inputs_that_require_grad():
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        torch.mm(torch.ones(2, 2, requires_grad=True), torch.ones(2, 2), out=torch.empty(0))
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        torch.mm(torch.ones(2, 2), torch.ones(2, 2), out=torch.empty(0, requires_grad=True))
    with torch.no_grad():
        torch.mm(torch.ones(2, 2, requires_grad=True), torch.ones(2, 2), out=torch.empty(0))


@pytest.mark.autograd
@pytest.mark.parametrize(
    "call",
    [
        lambda x, out: torch.add(x, torch.ones(2), out=out),
        lambda x, out: torch.mul(torch.ones(2), x, out=out),
        lambda x, out: torch.exp(x, out=out),
    ],
    ids=["add", "mul-second-operand", "exp"],
)
def test_pointwise_out_refuses_inputs_that_require_grad(call):
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        call(x, torch.empty(2))
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        call(x.detach(), torch.empty(2, requires_grad=True))  # out itself requires grad
    with torch.no_grad():
        out = torch.empty(2)
        assert call(x, out) is out


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name,ref", [("add", np.add), ("sub", np.subtract), ("mul", np.multiply)])
def test_big_float_arithmetic_into_out_and_in_place(dtype, name, ref):
    # big enough for the threaded kernel, which then writes into out or self directly
    a, b = torch.rand(300, 300, dtype=dtype), torch.rand(300, 300, dtype=dtype)
    expected = ref(a.numpy(), b.numpy())
    out = torch.empty(300, 300, dtype=dtype)
    version = out._version
    assert getattr(torch, name)(a, b, out=out) is out
    assert np.array_equal(out.numpy(), expected) and out._version > version
    x = a.clone()
    assert getattr(torch, name)(x, b, out=x) is x  # out is an operand
    assert np.array_equal(x.numpy(), expected)
    x = a.clone()
    getattr(x, name + "_")(b)
    assert np.array_equal(x.numpy(), expected)
    # out overlapping an operand a row further on: computed apart, then copied
    x = torch.cat([a, b[:1]])
    getattr(torch, name)(x[1:], b, out=x[:-1])
    assert np.array_equal(x[:-1].numpy(), ref(torch.cat([a, b[:1]])[1:].numpy(), b.numpy()))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_big_float_fill_and_zero(dtype):
    x = torch.empty(300, 300, dtype=dtype)
    x.fill_(0.1)
    assert np.array_equal(x.numpy(), np.full((300, 300), 0.1, dtype=x.numpy().dtype))
    x.fill_(2**60)
    assert (x.numpy() == 2.0**60).all()
    x.zero_()
    assert not x.numpy().any()


def test_out_must_be_a_tensor():
    with pytest.raises(TypeError, match="argument 'out' must be Tensor, not list"):
        torch.cumsum(torch.ones(2), 0, out=[1])


def test_signature_shows_out():
    assert "out" in inspect.signature(torch.matmul).parameters
    assert "out" in inspect.signature(torch.linalg.solve).parameters
