"""Derivatives of the matrix functions (real inputs)."""

from __future__ import annotations

import torch

from ._entry import Derivative, sum_to_shape


def _batch_scalar(g):
    return g.unsqueeze(-1).unsqueeze(-1)


def _inv(grad, inputs, saved):
    a_inv = torch.linalg.inv(inputs[0])
    return -a_inv.mT @ grad @ a_inv.mT


def _det(grad, inputs, saved):
    a = inputs[0]
    return _batch_scalar(grad * torch.linalg.det(a)) * torch.linalg.inv(a).mT


def _logabsdet(grad, inputs, saved):
    return _batch_scalar(grad) * torch.linalg.inv(inputs[0]).mT


def _solve_a(grad, inputs, saved):
    a, b = inputs
    (vector,) = saved
    x = torch.linalg.solve(a, b)
    gb = torch.linalg.solve(a.mT, grad)
    if vector:
        gb, x = gb.unsqueeze(-1), x.unsqueeze(-1)
    return sum_to_shape(-gb @ x.mT, tuple(a.shape))


def _solve_b(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(torch.linalg.solve(a.mT, grad), tuple(b.shape))


def _cholesky(grad, inputs, saved):
    # the adjoint of A = L L^T: S = L^-T Phi(L^T G) L^-1, symmetrised (Phi: the lower
    # triangle with the diagonal halved)
    (upper,) = saved
    lower = torch.linalg.cholesky(inputs[0])
    if upper:  # U = L^T: its gradient is the transpose of L's
        grad = grad.mT
    product = lower.mT @ grad
    phi = torch.tril(product) - 0.5 * (product * torch.eye(product.shape[-1], dtype=grad.dtype))
    left = torch.linalg.solve(lower.mT, phi)
    s = torch.linalg.solve(lower.mT, left.mT).mT
    return 0.5 * (s + s.mT)


def _eigh_values(grad, inputs, saved):
    (uplo,) = saved
    vectors = torch.linalg.eigh(inputs[0], uplo).eigenvectors
    return (vectors * grad.unsqueeze(-2)) @ vectors.mT


def _eigh_vectors(grad, inputs, saved):
    (uplo,) = saved
    values, vectors = torch.linalg.eigh(inputs[0], uplo)
    gaps = values.unsqueeze(-2) - values.unsqueeze(-1)  # w_j - w_i
    eye = torch.eye(values.shape[-1], dtype=grad.dtype)
    inverse_gaps = torch.where(eye > 0, 0.0, 1.0 / torch.where(eye > 0, 1.0, gaps))
    inner = inverse_gaps * (vectors.mT @ grad)
    result = vectors @ inner @ vectors.mT
    return 0.5 * (result + result.mT)


def _svd_values(grad, inputs, saved):
    u, _, vh = torch.linalg.svd(inputs[0], full_matrices=False)
    return (u * grad.unsqueeze(-2)) @ vh


DECOMPOSITIONS = {
    "inv": Derivative("LinalgInvExBackward0", (_inv,)),
    "det": Derivative("LinalgDetBackward0", (_det,)),
    "_logabsdet": Derivative("LinalgSlogdetBackward0", (_logabsdet,)),
    "solve": Derivative("LinalgSolveExBackward0", (_solve_a, _solve_b)),
    "cholesky": Derivative("LinalgCholeskyExBackward0", (_cholesky,)),
    "_eigh_values": Derivative("LinalgEighBackward0", (_eigh_values,)),
    "_eigh_vectors": Derivative("LinalgEighBackward0", (_eigh_vectors,)),
    "_svd_values": Derivative("LinalgSvdBackward0", (_svd_values,)),
}
