"""Gradients of the decompositions with several outputs (``_derivatives/decompositions.py``)
and the engine's multi-output nodes; values against PyTorch are in the golden snippets."""

import pytest

import torch
from torch._interface import ops

pytestmark = pytest.mark.skipif(
    "_svd" not in ops, reason="torch-core predates the multi-output decompositions"
)

D = torch.float64


def _matrix(*shape, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, dtype=D, generator=generator).requires_grad_()


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)])
def test_svd_vectors_gradcheck_and_gradgradcheck(shape):
    a = _matrix(*shape)

    def f(x):
        u, s, vh = torch.linalg.svd(x, full_matrices=False)
        return u.abs(), s, vh.abs()

    assert torch.autograd.gradcheck(f, (a,))
    assert torch.autograd.gradgradcheck(f, (a,))


def test_svd_full_matrices_ignores_the_undetermined_vectors():
    # as PyTorch: only the first min(m, n) columns of U carry a gradient
    a = _matrix(4, 2)
    (full,) = torch.autograd.grad(torch.linalg.svd(a)[0].abs().sum(), a)
    reduced = torch.linalg.svd(a, full_matrices=False)[0].abs().sum()
    (expected,) = torch.autograd.grad(reduced, a)
    torch.testing.assert_close(full, expected)


def test_torch_svd_returns_v_with_gradient():
    a = _matrix(3, 4)
    assert torch.autograd.gradcheck(lambda x: torch.svd(x)[2].abs(), (a,))


def test_svdvals_second_derivative():
    assert torch.autograd.gradgradcheck(torch.linalg.svdvals, (_matrix(4, 3),))


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 5)])
def test_qr_gradcheck_and_gradgradcheck(shape):
    a = _matrix(*shape)
    assert torch.autograd.gradcheck(torch.linalg.qr, (a,))
    assert torch.autograd.gradgradcheck(torch.linalg.qr, (a,))


def test_eig_gradcheck():
    a = _matrix(3, 3, seed=3)
    assert torch.autograd.gradcheck(lambda x: [t.abs() for t in torch.linalg.eig(x)], (a,))
    assert torch.autograd.gradcheck(lambda x: torch.linalg.eigvals(x).real, (a,))


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)])
def test_lu_gradcheck_and_gradgradcheck(shape):
    a = _matrix(*shape)
    assert torch.autograd.gradcheck(lambda x: torch.linalg.lu(x)[1:], (a,))
    assert torch.autograd.gradgradcheck(lambda x: torch.linalg.lu_factor(x)[0], (a,))


@pytest.mark.parametrize("kwargs", [{}, {"rtol": 1e-10}, {"hermitian": True}])
def test_pinv_gradcheck(kwargs):
    a = _matrix(2, 3, 3)

    def f(x):
        return torch.linalg.pinv(x + x.mT if kwargs.get("hermitian") else x, **kwargs)

    assert torch.autograd.gradcheck(f, (a,))


def test_outputs_share_one_node():
    a = _matrix(3, 2)
    u, s, vh = torch.linalg.svd(a)
    assert u.grad_fn is s.grad_fn is vh.grad_fn
    assert u.grad_fn.name() == "LinalgSvdBackward0"
    s.retain_grad()
    u.abs().sum().backward()
    assert s.grad is None  # S got no gradient of its own
    assert a.grad is not None


def test_modified_output_is_detected():
    a = _matrix(3, 3)
    q, r = torch.linalg.qr(a)
    loss = (q * q).sum() + r.sum()
    with torch.no_grad():
        r.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()
