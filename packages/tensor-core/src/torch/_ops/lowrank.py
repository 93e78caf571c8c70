"""Randomized low-rank decompositions: ``torch.svd_lowrank`` and ``torch.pca_lowrank``
(Halko, Martinsson and Tropp, 2009: a random projection refined by ``niter`` power
iterations, then the SVD of the small projected matrix). The random matrix comes from
``torch.randn``, so a seeded call gives PyTorch's result up to the signs of singular
vectors. Composed of core ops: differentiable."""

from __future__ import annotations

from .._tensor import Tensor
from ._dispatch import defop

__all__ = ["svd_lowrank", "pca_lowrank"]


def _t():
    import torch

    return torch


def _approximate_basis(A: Tensor, q: int, niter: int, M=None) -> Tensor:
    """An orthonormal basis Q (columns) whose range approximates that of ``A - M``."""
    torch = _t()
    dtype = A.dtype if A.is_floating_point() or A.is_complex() else torch.float32
    R = torch.randn(A.shape[-1], q, dtype=dtype, device=A.device)
    centered = A if M is None else A - M
    Q = torch.linalg.qr(centered @ R).Q
    for _ in range(niter):
        Q = torch.linalg.qr(centered.mH @ Q).Q
        Q = torch.linalg.qr(centered @ Q).Q
    return Q


def _svd_lowrank(A: Tensor, q, niter: int, M=None):
    torch = _t()
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    transposed = m < n
    if transposed:  # the basis of the smaller side
        A = A.mH
        M = None if M is None else M.mH
    Q = _approximate_basis(A, q, niter, M)
    B = Q.mH @ (A if M is None else A - M)
    U, S, Vh = torch.linalg.svd(B, full_matrices=False)
    U, V = Q @ U, Vh.mH
    return (V, S, U) if transposed else (U, S, V)


@defop("svd_lowrank")
def svd_lowrank(A: Tensor, q: int | None = 6, niter: int | None = 2, M: Tensor | None = None):
    """``(U, S, V)`` with ``A ~ U diag(S) V^H`` of rank ``q`` (default 6), computed from a
    random projection and ``niter`` (default 2) power iterations; with ``M``, the SVD of
    ``A - M``. Batched over leading dims.

    Examples::

        >>> A = torch.randn(6, 2) @ torch.randn(2, 4)  # rank 2
        >>> U, S, V = torch.svd_lowrank(A, q=2)
        >>> torch.allclose(U @ torch.diag(S) @ V.T, A, atol=1e-5)
        True
    """
    return _svd_lowrank(A, q, 2 if niter is None else niter, M)


@defop("pca_lowrank")
def pca_lowrank(A: Tensor, q: int | None = None, center: bool = True, niter: int = 2):
    """``(U, S, V)``: the principal components of the rows of ``A`` (its columns centred
    when ``center``) as a rank-``q`` SVD (``q`` defaults to ``min(6, m, n)``); ``V``'s
    columns are the principal directions.

    Examples::

        >>> U, S, V = torch.pca_lowrank(torch.randn(10, 3), q=2)
        >>> V.shape
        torch.Size([3, 2])
    """
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(
            f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}"
        )
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter)
    return _svd_lowrank(A - A.mean(dim=-2, keepdim=True), q, niter)
