"""The engine against real PyTorch's gradients, and its error paths."""

import numpy as np
import pytest

import torch
from torch import _interface
from torch.autograd._derivatives import missing_formulas
from torch.autograd._engine import Engine


def test_engine_is_loaded_from_the_entry_point():
    _interface.set_grad_engine(None)
    assert isinstance(_interface.get_grad_engine(), Engine)


def test_every_differentiable_core_op_has_a_formula():
    assert missing_formulas(_interface.ops) == []


def test_gradients_match_pytorch(golden):
    expected = golden("engine")
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    b = torch.tensor(0.25, requires_grad=True)
    y = ((x @ w) * x.sum(1) / (b + 1) - x.mean()).sum()
    y.backward()
    assert y.item() == pytest.approx(expected["loss"])
    np.testing.assert_allclose(x.grad.numpy(), expected["x_grad"], rtol=1e-6)
    np.testing.assert_allclose(w.grad.numpy(), expected["w_grad"], rtol=1e-6)
    assert b.grad.item() == pytest.approx(expected["b_grad"])


def test_gradients_accumulate_and_broadcast():
    x = torch.ones(2, 3, requires_grad=True)
    bias = torch.zeros(3, requires_grad=True)
    for _ in range(2):
        (x * 2 + bias).sum().backward()
    assert x.grad.tolist() == [[4.0] * 3] * 2 and bias.grad.tolist() == [4.0] * 3


def test_grad_fn_names_and_edges():
    x = torch.ones(2, requires_grad=True)
    y = (x * 3).sum()
    assert type(y.grad_fn).__name__ == "SumBackward0"
    mul_node = y.grad_fn.next_functions[0][0]
    assert type(mul_node).__name__ == "MulBackward0"
    assert mul_node.next_functions[0][0].variable is x
    assert x.is_leaf and not y.is_leaf and y.requires_grad


def test_deep_graph_needs_no_recursion():
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(5000):
        y = y + 1
    y.backward()
    assert x.grad.item() == 1.0


def test_second_backward_raises_unless_retained():
    x = torch.tensor(2.0, requires_grad=True)
    y = x * x
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.item() == 8.0
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_non_scalar_needs_gradient():
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="implicitly created only for scalar outputs"):
        (x * 2).backward()
    (x * 2).backward(torch.tensor([1.0, 2.0, 3.0]))
    assert x.grad.tolist() == [2.0, 4.0, 6.0]


def test_backward_on_tensor_without_grad():
    with pytest.raises(RuntimeError, match="does not require grad"):
        torch.ones(1).backward()


def test_no_grad_stops_recording():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = x * 2
    assert y.grad_fn is None and not y.requires_grad


def test_autograd_grad_and_double_backward():
    x = torch.tensor(3.0, requires_grad=True)
    (g,) = torch.autograd.grad(x * x * x, x, create_graph=True)
    assert g.item() == 27.0
    (g2,) = torch.autograd.grad(g, x)
    assert g2.item() == 18.0
    assert x.grad is None


def test_autograd_grad_unused_input():
    x, z = torch.ones(1, requires_grad=True), torch.ones(1, requires_grad=True)
    with pytest.raises(RuntimeError, match="not have been used in the graph"):
        torch.autograd.grad((x * 2).sum(), [x, z])
    assert torch.autograd.grad((x * 2).sum(), [x, z], allow_unused=True)[1] is None


def test_backward_inputs_restricts_accumulation():
    x, z = torch.ones(1, requires_grad=True), torch.ones(1, requires_grad=True)
    (x * z).sum().backward(inputs=[z])
    assert x.grad is None and z.grad.item() == 1.0


def _numeric_grad(f, array, eps=1e-6):
    flat = array.reshape(-1)
    grad = np.zeros_like(flat)
    for i in range(flat.size):
        bumped = flat.copy()
        bumped[i] += eps
        grad[i] = (f(bumped.reshape(array.shape)) - f(array)) / eps
    return grad.reshape(array.shape)


@pytest.mark.parametrize(
    "a_shape,b_shape",
    [
        ((3,), (3,)),
        ((2, 3), (3,)),
        ((3,), (3, 4)),
        ((5, 2, 3), (3, 4)),
        ((4, 1, 2, 3), (3, 3, 2)),
    ],
)
def test_matmul_gradients_match_finite_differences(a_shape, b_shape):
    rng = np.random.default_rng(0)
    a_np, b_np = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
    a = torch.tensor(a_np, requires_grad=True)
    b = torch.tensor(b_np, requires_grad=True)
    (a @ b).sum().backward()
    np.testing.assert_allclose(
        a.grad.numpy(),
        _numeric_grad(lambda v: np.matmul(v, b_np).sum(), a_np),
        rtol=1e-4,
        atol=1e-5,
    )
    np.testing.assert_allclose(
        b.grad.numpy(),
        _numeric_grad(lambda v: np.matmul(a_np, v).sum(), b_np),
        rtol=1e-4,
        atol=1e-5,
    )


def test_requires_grad_rules():
    with pytest.raises(RuntimeError, match="floating point and complex"):
        torch.ones(2, dtype=torch.int64).requires_grad_()
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        x.add_(1)
    with torch.no_grad():
        x.add_(1)
    y = x * 1
    with pytest.raises(RuntimeError, match="only change requires_grad flags of leaf"):
        y.requires_grad_(False)


def test_variable_is_a_tensor():
    x = torch.ones(2)
    v = torch.autograd.Variable(x)  # as in PyTorch: a detached alias, not x itself
    assert type(v) is torch.Tensor and v.data_ptr() == x.data_ptr() and v is not x
    with pytest.warns(UserWarning, match="volatile"):
        torch.autograd.Variable(x, volatile=True)
    with pytest.raises(TypeError, match="has to be a tensor"):
        torch.autograd.Variable([1.0])


def test_repr_shows_autograd_state():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    assert repr(x) == "tensor([1., 2.], requires_grad=True)"
    assert repr(x * 2) == "tensor([2., 4.], grad_fn=<MulBackward0>)"


def test_integer_and_bool_results_never_require_grad():
    # as in PyTorch: casting to an integral dtype ends the graph
    x = torch.randn(3, requires_grad=True)
    for y in (x.int(), x.long(), x.to(torch.int64), x.bool(), x.type(torch.IntTensor)):
        assert not y.requires_grad and y.grad_fn is None
    assert x.double().requires_grad and x.half().grad_fn is not None
