# ruff: noqa: N806
"""geqrf / ormqr (torch._ops.householder) and the LDL factorisation (torch._ops.ldl):
properties on random batches; PyTorch's exact values are in the lapack_forms goldens."""

import numpy as np
import pytest

import torch


def _random(shape, seed, complex_=False):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(shape)
    if complex_:
        values = values + 1j * rng.standard_normal(shape)
    return torch.tensor(values)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (3, 1, 6, 2)])
@pytest.mark.parametrize("complex_", [False, True])
def test_geqrf_gives_q_and_r(shape, complex_):
    A = _random(shape, 1, complex_)
    a, tau = torch.geqrf(A)
    m, n = shape[-2:]
    assert tau.shape == shape[:-2] + (min(m, n),)
    assert a.mT.is_contiguous()
    eye = torch.eye(m, dtype=A.dtype).expand(shape[:-2] + (m, m))
    Q = torch.ormqr(a, tau, eye)
    R = a.triu()
    assert torch.allclose(Q @ R, A)
    assert torch.allclose(Q.mH @ Q, eye)
    if m >= n:
        assert torch.allclose(torch.linalg.householder_product(a, tau), Q[..., :n])
    # the four ormqr modes against the explicit Q
    C = _random(shape[:-2] + (m, 2), 2, complex_)
    assert torch.allclose(torch.ormqr(a, tau, C, transpose=True), Q.mH @ C)
    assert torch.allclose(torch.ormqr(a, tau, C.mT, left=False), C.mT @ Q)
    assert torch.allclose(torch.ormqr(a, tau, C.mT, left=False, transpose=True), C.mT @ Q.mH)


def test_geqrf_has_no_gradient_but_ormqr_does():
    pytest.importorskip("torch.autograd", reason="needs torch-autograd")
    x = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
    a, _ = torch.geqrf(x)
    with pytest.raises(NotImplementedError, match="derivative for 'geqrf' is not implemented"):
        a.sum().backward()
    a, tau = torch.geqrf(x.detach())
    a.requires_grad_()
    tau.requires_grad_()
    c = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, t, c: torch.ormqr(a, t, c, False, True), (a, tau, c))


def test_geqrf_errors():
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        torch.geqrf(torch.ones(3))
    with pytest.raises(NotImplementedError, match="geqrf_cpu"):
        torch.geqrf(torch.ones(2, 2, dtype=torch.long))
    a, tau = torch.geqrf(torch.ones(4, 3))
    with pytest.raises(RuntimeError, match="same dtype"):
        torch.ormqr(a, tau, torch.ones(4, 2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"other.shape\[-2\] must be equal"):
        torch.ormqr(a, tau, torch.ones(5, 2))


def _symmetric(batch, n, seed, kind):
    X = _random(batch + (n, n), seed, kind != "real")
    X = X + (X.mH if kind == "hermitian" else X.mT)
    # small diagonals force 2x2 pivots
    return X - torch.diag_embed(torch.diagonal(X, 0, -2, -1) * 0.99)


@pytest.mark.parametrize("kind", ["real", "symmetric", "hermitian"])
@pytest.mark.parametrize("batch,n", [((), 1), ((), 5), ((4,), 6), ((2, 3), 3)])
def test_ldl_solve_inverts_the_factorisation(kind, batch, n):
    A = _symmetric(batch, n, 3, kind)
    hermitian = kind == "hermitian"
    LD, pivots, info = torch.linalg.ldl_factor_ex(A, hermitian=hermitian)
    assert pivots.dtype == torch.int32 and info.shape == batch and not info.any()
    assert torch.equal(LD, LD.tril())
    B = _random(batch + (n, 3), 4, kind != "real")
    X = torch.linalg.ldl_solve(LD, pivots, B, hermitian=hermitian)
    assert torch.allclose(A @ X, B)


def test_ldl_two_by_two_pivots_and_singular_input():
    LD, pivots = torch.linalg.ldl_factor(torch.tensor([[0.0, 1], [1, 0]]))
    assert pivots.tolist() == [-2, -2]
    r = torch.linalg.ldl_factor_ex(torch.zeros(2, 3, 3))
    assert r.info.tolist() == [1, 1]
    with pytest.raises(RuntimeError, match="Unknown error code: 1"):
        torch.linalg.ldl_factor(torch.zeros(3, 3))


def test_ldl_errors():
    with pytest.raises(RuntimeError, match="square matrices"):
        torch.linalg.ldl_factor(torch.ones(3, 2))
    with pytest.raises(RuntimeError, match="floating point or complex"):
        torch.linalg.ldl_factor(torch.ones(2, 2, dtype=torch.long))
    LD, pivots = torch.linalg.ldl_factor(torch.eye(3))
    with pytest.raises(RuntimeError, match="same dtype"):
        torch.linalg.ldl_solve(LD, pivots, torch.ones(3, 1, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="Incompatible matrix sizes"):
        torch.linalg.ldl_solve(LD, pivots, torch.ones(4, 1))
    pytest.importorskip("torch.autograd", reason="needs torch-autograd")
    x = torch.eye(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="linalg_ldl_factor_ex is not implemented"):
        torch.linalg.ldl_factor(x).LD.sum().backward()
