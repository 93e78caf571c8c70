"""The hot paths in torch._fastpath give exactly what the general implementations give."""

import operator

import numpy as np
import pytest

import torch
from torch._indexing import getitem
from torch._ops import pointwise, views

DTYPES = [
    torch.float32,
    torch.float64,
    torch.float16,
    torch.bfloat16,
    torch.int64,
    torch.int32,
    torch.uint8,
    torch.bool,
    torch.complex64,
]
OPERATORS = [
    (operator.add, pointwise.add),
    (operator.sub, pointwise.sub),
    (operator.mul, pointwise.mul),
    (operator.truediv, pointwise.div),
]


def _same(a, b):
    assert a.dtype is b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(
        np.asarray(a._np, dtype=np.complex128), np.asarray(b._np, dtype=np.complex128)
    )


def _sample(dtype, shape, seed):
    values = np.random.default_rng(seed).uniform(1, 5, shape)
    return torch.tensor(values).to(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fast,general", OPERATORS)
def test_tensor_operators(dtype, fast, general):
    a, b = _sample(dtype, (3, 4), 0), _sample(dtype, (4,), 1)
    try:
        expected = general(a, b)
    except RuntimeError as error:
        with pytest.raises(type(error)):
            fast(a, b)
        return
    _same(fast(a, b), expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fast,general", OPERATORS)
@pytest.mark.parametrize("scalar", [2.5, 1e39, -0.0, 3, -7, 2**30])
def test_float_scalar_operators(dtype, fast, general, scalar):
    if type(scalar) is int and not dtype.is_floating_point:
        pytest.skip("int scalars take the fast path with float tensors only")
    a = _sample(dtype, (5,), 2)
    _same(fast(a, scalar), general(a, scalar))
    _same(fast(scalar, a), general(scalar, a))


@pytest.mark.parametrize(
    "index",
    [
        1,
        -1,
        (1, 2),
        slice(1, 3),
        (slice(None), 1),
        (2, slice(0, 4, 2)),
        (slice(1, None), slice(None, None, 3)),
    ],
)
def test_basic_indexing(index):
    x = torch.arange(24.0).reshape(4, 6)
    fast, general = x[index], getitem(x, index)
    _same(fast, general)
    assert fast.stride() == general.stride()
    assert fast.storage_offset() == general.storage_offset()
    assert fast.untyped_storage() is x.untyped_storage()


@pytest.mark.parametrize("shape", [(64,), (8, 8), (2, -1), (4, 2, 8), (-1,)])
def test_view(shape):
    x = torch.arange(64.0)[None].expand(1, 64).reshape(8, 8)
    fast, general = x.view(*shape), views.view(x, *shape)
    _same(fast, general)
    assert fast.stride() == general.stride() and fast.data_ptr() == general.data_ptr()


def test_fast_paths_step_aside_for_autograd_shapes_and_errors():
    with pytest.raises(RuntimeError, match="must match the size"):
        torch.ones(2) + torch.ones(3)
    with pytest.raises(RuntimeError, match="invalid for input of size"):
        torch.ones(4).view(3)
    with pytest.raises(IndexError, match="out of bounds for dimension 0"):
        torch.ones(4)[7]
    with pytest.raises(TypeError):
        torch.ones(2) + None


def test_numpy_float_warnings_are_silenced_for_torch_only():
    import subprocess
    import sys

    code = "import torch, numpy; torch.ones(2) / 0; torch.tensor([3e38]).half(); numpy.ones(1) / 0"
    result = subprocess.run(
        [sys.executable, "-W", "default", "-c", code], capture_output=True, text=True, check=True
    )
    # the last division is the user's own NumPy code: its warning stays
    assert result.stderr.count("RuntimeWarning") == 1, result.stderr


def test_zero_dim_results_are_tensors_of_arrays():
    for result in (torch.tensor(2.0) * 1.5, 1.5 * torch.tensor(2.0), torch.tensor(2.0) / 4.0):
        assert isinstance(result._np, np.ndarray) and result.shape == ()


def test_large_tensors_agree_between_operators_and_functions():
    a, b = torch.rand(300_000), torch.rand(300_000)
    assert (a + b).tolist() == torch.add(a, b).tolist()
    assert (a * b).tolist() == torch.mul(a, b).tolist()
    assert a.sum().item() == torch.sum(a).item()
    exact = float(np.sum(a.numpy().astype(np.float64)))
    assert abs(a.sum().item() - exact) <= 1e-6 * exact


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["tanh", "sigmoid", "exp"])
@pytest.mark.parametrize("shape", [(3, 4), (4, 1), (1,), ()])
def test_unary_functions(name, dtype, shape):
    from torch._ops import pointwise, unary_math

    general = getattr(unary_math, name, None) or getattr(pointwise, name)
    x = _sample(dtype, shape, 3) - 3
    expected = general(x)
    for fast in (getattr(torch, name)(x), getattr(x, name)()):
        _same(fast, expected)
        assert fast.stride() == expected.stride()
    transposed = _sample(dtype, (3, 4), 4).t()
    _same(getattr(torch, name)(transposed), general(transposed))
    with pytest.raises(TypeError):
        getattr(torch, name)([1.0])
    _same(getattr(torch, name)(x, out=torch.empty(shape, dtype=expected.dtype)), expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((1, 4), (4, 1)), ((2, 3, 4), (4, 2))])
def test_matmul_operator(dtype, shapes):
    from torch._ops import linalg

    a, b = _sample(dtype, shapes[0], 5), _sample(dtype, shapes[1], 6)
    try:
        expected = linalg.matmul(a, b)
    except (RuntimeError, TypeError) as error:
        with pytest.raises(type(error)):
            a @ b
        return
    fast = a @ b
    _same(fast, expected)
    assert fast.stride() == expected.stride()
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        a @ _sample(dtype, (7, 2), 7)
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype"):
        torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)


@pytest.mark.autograd
def test_unary_and_matmul_fast_paths_record_for_autograd():
    x = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    for name in ("tanh", "sigmoid", "exp"):
        y = getattr(torch, name)(x)
        assert y.requires_grad and y.grad_fn.name().lower().startswith(name)
    assert (x @ x).grad_fn.name() == "MmBackward0"
    with torch.no_grad():
        assert (torch.tanh(x) @ x).grad_fn is None


@pytest.mark.autograd
@pytest.mark.parametrize("fast,general", OPERATORS)
@pytest.mark.parametrize("scalar", [2.5, 3])
def test_scalar_operators_record_as_the_general_path(fast, general, scalar):
    def grads(op):
        x = torch.tensor([0.5, 2.0, -1.5], requires_grad=True)
        y = op(x, scalar) * op(scalar, x)
        y.sum().backward()
        return y, x.grad, y.grad_fn.next_functions[0][0].name()

    got, expected = grads(fast), grads(general)
    _same(got[0].detach(), expected[0].detach())
    _same(got[1], expected[1])
    assert got[2] == expected[2]


def test_fast_paths_are_declared_by_their_ops():
    from torch._interface import ops

    declared = {(op.name, target) for op in ops.everything() for target in op.fast}
    assert declared == {
        *((name, f"Tensor.__{attr}__") for name, attr in _OPERATOR_OPS),
        *((name, f"Tensor.__r{attr}__") for name, attr in _OPERATOR_OPS),
        ("index", "Tensor.__getitem__"),
        ("matmul", "Tensor.__matmul__"),
        ("sum", "Tensor.sum"),
        ("view", "Tensor.view"),
        ("t", "Tensor.t"),
        ("tanh", "binding"),
        ("sigmoid", "binding"),
        ("exp", "binding"),
    }
    for _name, target in declared:
        if target.startswith("Tensor."):  # installed by the binder in place of the general
            assert getattr(torch.Tensor, target[7:]).__module__ == "torch._fastpath", target
    for name in ("tanh", "sigmoid", "exp"):  # one object, wrapping the general function
        assert getattr(torch, name) is getattr(torch.Tensor, name)
        assert hasattr(getattr(torch, name), "__wrapped__")


_OPERATOR_OPS = [("add", "add"), ("sub", "sub"), ("mul", "mul"), ("div", "truediv")]


@pytest.mark.autograd
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_recorded_fast_paths_give_the_general_gradients(dtype):
    from torch._ops import linalg, reduction, unary_math

    def grads(sum_of, matmul, tanh):
        a = _sample(dtype, (3, 3), 8).requires_grad_()
        b = _sample(dtype, (3, 3), 9).requires_grad_()
        y = sum_of(tanh(matmul(a, b)) * 2.0 + a)
        y.backward()
        return y.detach(), a.grad, b.grad

    fast = grads(torch.Tensor.sum, operator.matmul, torch.tanh)
    general = grads(reduction.sum, linalg.matmul, unary_math.tanh)
    for got, expected in zip(fast, general):
        _same(got, expected)
