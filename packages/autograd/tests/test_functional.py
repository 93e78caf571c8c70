"""torch.autograd.functional against NumPy-computed derivatives."""

import numpy as np
import pytest

import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def _x():
    return torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)


def test_jacobian_shape_is_output_then_input():
    a = torch.ones(2, 3, dtype=torch.float64)
    j = jacobian(lambda t: t.sum(0), a)
    assert tuple(j.shape) == (3, 2, 3)
    np.testing.assert_allclose(j[1].numpy(), [[0, 1, 0], [0, 1, 0]])


def test_jacobian_of_matmul():
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
    np.testing.assert_allclose(jacobian(lambda t: w @ t, _x()[:2]).numpy(), w.numpy())


def test_hessian_of_quadratic_form():
    a = torch.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 0.0], [0.0, 0.0, 1.0]], dtype=torch.float64)
    h = hessian(lambda t: t @ a @ t, _x())
    np.testing.assert_allclose(h.numpy(), (a + a.t()).numpy())


def test_products_agree_with_the_hessian():
    def f(t):
        return (t**3).sum() + t.prod()

    x, v = _x(), torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
    h = hessian(f, x).numpy()
    np.testing.assert_allclose(hvp(f, x, v)[1].numpy(), h @ v.numpy())
    np.testing.assert_allclose(vhp(f, x, v)[1].numpy(), v.numpy() @ h)


def test_jvp_and_vjp_agree_with_the_jacobian():
    def f(t):
        return torch.sin(t) * t.sum()

    x, v = _x(), torch.tensor([1.0, 0.0, -1.0], dtype=torch.float64)
    j = jacobian(f, x).numpy()
    np.testing.assert_allclose(jvp(f, x, v)[1].numpy(), j @ v.numpy())
    np.testing.assert_allclose(vjp(f, x, v)[1].numpy(), v.numpy() @ j)


def test_create_graph_gives_differentiable_results():
    x = _x().requires_grad_()
    j = jacobian(lambda t: t**3, x, create_graph=True)
    j.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 6 * x.detach().numpy())


def test_bad_arguments():
    x = _x()
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        jacobian(lambda t: t, [x, 3])
    with pytest.raises(RuntimeError, match="v is a tuple of invalid length"):
        vjp(lambda t: t, x, (x, x))
    with pytest.raises(RuntimeError, match="Entry 0 in v has invalid size"):
        jvp(lambda t: t, x, torch.ones(2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="The vector v can only be None if the input"):
        jvp(lambda t: t, x)
    with pytest.raises(RuntimeError, match="should return a single Tensor"):
        hvp(lambda t: (t.sum(), t.sum()), x, x)
    with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
        jacobian(lambda t: t, x, strategy="forward-mode")
