"""Derivatives of the matrix functions and decompositions.

The decompositions with several outputs (``linalg.svd``, ``linalg.qr``, ``linalg.eig``)
are multi-output ops: their one formula gets every output's gradient (``None`` for an
output that got none) and the saved outputs, and is written with recorded ops, so double
backward follows from it."""

from __future__ import annotations

import torch

from ._entry import Derivative, conj, sum_to_shape


def _batch_scalar(g):
    return g.unsqueeze(-1).unsqueeze(-1)


def _inv(grad, inputs, saved):
    a_inv_h = _adjoint(torch.linalg.inv(inputs[0]))
    return -a_inv_h @ grad @ a_inv_h


def _det(grad, inputs, saved):
    a = inputs[0]
    det = torch.linalg.det(a)
    if bool((det == 0).any()):  # singular: the cofactors, which inv cannot give
        return _batch_scalar(grad) * _cofactors(a)
    return _batch_scalar(grad * conj(det)) * _adjoint(torch.linalg.inv(a))


def _cofactors(a):
    """The cofactor matrix (the transposed adjugate) of real square matrices through the
    SVD A = U S Vh: det(U) det(Vh) U diag(prod of the other s_j) Vh, defined for
    singular A too."""
    u, s, vh = torch.linalg.svd(a)
    n = s.shape[-1]
    eye = torch.eye(n, dtype=torch.bool)
    others = torch.where(eye, torch.ones((), dtype=s.dtype), s.unsqueeze(-2).expand(*s.shape, n))
    sign = torch.linalg.det(u) * torch.linalg.det(vh)
    return _batch_scalar(sign) * ((u * others.prod(-1).unsqueeze(-2)) @ vh)


def _slogdet(grads, inputs, saved, outputs):
    # d log|det A| = re tr(A^-1 dA) and d sign = i sign im tr(A^-1 dA): both gradients are
    # a scalar times A^-H, the sign's through the imaginary part of conj(g_sign) sign (a
    # real sign is locally constant: no gradient)
    a = inputs[0]
    sign, logabsdet = outputs
    grad_sign, grad_logabsdet = grads
    g = torch.zeros_like(logabsdet) if grad_logabsdet is None else grad_logabsdet
    if g.is_complex():  # the value is real: only the real part of its gradient counts
        g = g.real
    if a.is_complex():
        g = g.to(a.dtype)
        if grad_sign is not None:
            g = g - 1j * (conj(grad_sign) * sign).imag
    elif grad_logabsdet is None:
        return torch.zeros_like(a)
    return _batch_scalar(g) * _adjoint(torch.linalg.inv(a))


def _solve_a(grad, inputs, saved):
    a, b = inputs
    vector = saved.vector
    x = torch.linalg.solve(a, b)
    gb = torch.linalg.solve(_adjoint(a), grad)
    if vector:
        gb, x = gb.unsqueeze(-1), x.unsqueeze(-1)
    return sum_to_shape(-gb @ _adjoint(x), tuple(a.shape))


def _solve_b(grad, inputs, saved):
    a, b = inputs
    return sum_to_shape(torch.linalg.solve(_adjoint(a), grad), tuple(b.shape))


def _cholesky(grad, inputs, saved):
    # the adjoint of A = L L^H: S = L^-H Phi(L^H G) L^-1, made Hermitian (Phi: the lower
    # triangle with the diagonal halved; ^H is the transpose for real A)
    upper = saved.upper
    lower = torch.linalg.cholesky(inputs[0])
    lower_h = _adjoint(lower)
    if upper:  # U = L^H: its gradient is the conjugate transpose of L's
        grad = _adjoint(grad)
    product = lower_h @ grad
    phi = torch.tril(product) - 0.5 * (product * torch.eye(product.shape[-1], dtype=grad.dtype))
    left = torch.linalg.solve(lower_h, phi)
    s = _adjoint(torch.linalg.solve(lower_h, _adjoint(left)))
    return 0.5 * (s + _adjoint(s))


def _eigh_values(grad, inputs, saved):
    uplo = saved.uplo
    vectors = torch.linalg.eigh(inputs[0], uplo).eigenvectors
    return (vectors * grad.unsqueeze(-2).to(vectors.dtype)) @ _adjoint(vectors)


def _eigh_vectors(grad, inputs, saved):
    uplo = saved.uplo
    values, vectors = torch.linalg.eigh(inputs[0], uplo)
    vectors_h = _adjoint(vectors)
    gaps = values.unsqueeze(-2) - values.unsqueeze(-1)  # w_j - w_i
    on_diagonal = torch.eye(values.shape[-1]) > 0  # a real mask: values may be complex here
    inverse_gaps = torch.where(on_diagonal, 0.0, 1.0 / torch.where(on_diagonal, 1.0, gaps))
    projected = vectors_h @ grad
    if projected.is_complex():  # each vector is fixed only up to a phase e^{i phi}
        diagonal = projected.diagonal(0, -2, -1)
        _check_phase_invariant(diagonal.imag, diagonal.abs(), _EIGH_PHASE)
    result = vectors @ (inverse_gaps * projected) @ vectors_h
    return 0.5 * (result + _adjoint(result))


def _svd_values(grad, inputs, saved):
    # NOTE: the singular vectors are recomputed by the recorded svd (not plain arrays), so
    # that under create_graph the second derivative flows through them
    u, _, vh = torch.linalg.svd(inputs[0], full_matrices=False)
    return (u * grad.unsqueeze(-2).to(u.dtype)) @ vh


def _pinv(grad, inputs, saved, result):
    # d pinv(A) = -X dA X + X X^H dA^H (I - A X) + (I - X A) dA^H X^H X (constant rank)
    a, x = inputs[0], result
    x_h = _adjoint(x)
    rows, cols = a.shape[-2], a.shape[-1]
    left = torch.eye(rows, dtype=a.dtype) - a @ x  # I - A X
    right = torch.eye(cols, dtype=a.dtype) - x @ a  # I - X A
    grad_h = _adjoint(grad)
    return -x_h @ grad @ x_h + left @ grad_h @ (x @ x_h) + (x_h @ x) @ grad_h @ right


# ------------------------------------------------- shared helpers of the vector formulas


def _adjoint(x):
    """The conjugate transpose (the plain transpose of a real matrix)."""
    return x.mT.conj().resolve_conj() if x.is_complex() else x.mT


def _off_diagonal_inverse(gaps):
    """``1 / gaps`` off the diagonal, 0 on it (the diagonal of ``gaps`` is 0 or junk)."""
    eye = torch.eye(gaps.shape[-1], dtype=torch.bool)
    return 1 / torch.where(eye, torch.full((), float("inf"), dtype=gaps.dtype), gaps)


def _or_zeros(grad, like):
    return torch.zeros_like(like) if grad is None else grad


_PHASE = "are specified up to multiplication by e^{i phi}. The specified loss function depends on"
_SVD_PHASE = (
    f"svd_backward: The singular vectors in the complex case {_PHASE} this phase term, "
    "making it ill-defined."
)
_EIG_PHASE = (
    f"linalg_eig_backward: The eigenvectors in the complex case {_PHASE} this quantity, "
    "so it is ill-defined."
)


_EIGH_PHASE = (
    f"linalg_eigh_backward: The eigenvectors in the complex case {_PHASE} this quantity, "
    "so it is ill-defined."
)


def _check_phase_invariant(imag_diagonal, scale, message: str) -> None:
    """Complex singular/eigen vectors are fixed only up to a phase e^{i phi} per vector: a
    loss that depends on the phase has no gradient, and PyTorch refuses it. ``scale``: the
    size of the terms whose imaginary parts should cancel (for a rounding tolerance)."""
    tolerance = torch.finfo(scale.dtype).eps ** 0.5 * (1 + float(scale.abs().amax()))
    if bool((imag_diagonal.abs() > tolerance).any()):
        raise RuntimeError(message)


# ------------------------------------------------------------------------------- SVD


def _svd(grads, inputs, saved, outputs):
    """The gradient of A = U diag(S) Vh from those of U, S and Vh (real or complex)."""
    grad_u, grad_s, grad_vh = grads
    u, s, vh = outputs
    full_matrices = saved.full_matrices
    k = s.shape[-1]
    if full_matrices:
        # only the first k singular vectors are determined by A: the rest of U (or Vh)
        # gets no gradient, as in PyTorch
        u, vh = u[..., :k], vh[..., :k, :]
        grad_u = None if grad_u is None else grad_u[..., :k]
        grad_vh = None if grad_vh is None else grad_vh[..., :k, :]
    grad_s = _or_zeros(grad_s, s)
    if grad_u is None and grad_vh is None:
        return (u * grad_s.unsqueeze(-2).to(u.dtype)) @ vh
    grad_u, grad_vh = _or_zeros(grad_u, u), _or_zeros(grad_vh, vh)
    j = _adjoint(u) @ grad_u  # U^H gU
    k_ = vh @ _adjoint(grad_vh)  # V^H gV
    if u.is_complex():
        j_diagonal, k_diagonal = j.diagonal(0, -2, -1), k_.diagonal(0, -2, -1)
        scale = torch.cat([j_diagonal.abs(), k_diagonal.abs()], -1)
        _check_phase_invariant(j_diagonal.imag + k_diagonal.imag, scale, _SVD_PHASE)
    return _svd_core(grad_u, grad_s, grad_vh, u, s, vh, j, k_)


def _svd_core(grad_u, grad_s, grad_vh, u, s, vh, j, k_):
    # U^H dA V = dP S + dS - S dQ with dP = U^H dU, dQ = V^H dV skew-Hermitian: solving
    # for dP, dQ off the diagonal gives the 1 / (s_j^2 - s_i^2) terms below
    squares = s * s
    inverse_gaps = _off_diagonal_inverse(squares.unsqueeze(-2) - squares.unsqueeze(-1))
    skew_j, skew_k = j - _adjoint(j), k_ - _adjoint(k_)
    inner = (skew_j * inverse_gaps) * s.unsqueeze(-2) + s.unsqueeze(-1) * (skew_k * inverse_gaps)
    inner = inner + torch.diag_embed(grad_s.to(inner.dtype))
    if u.is_complex():  # the phase of U's columns: the imaginary part of diag(U^H gU)
        inner = inner + torch.diag_embed(skew_j.diagonal(0, -2, -1) / (2 * s))
    result = u @ inner @ vh
    m, n = u.shape[-2], vh.shape[-1]
    if m > s.shape[-1]:  # the part of gU outside the span of U
        result = result + ((grad_u - u @ j) / s.unsqueeze(-2)) @ vh
    if n > s.shape[-1]:  # the part of gV outside the span of V
        result = result + u @ ((grad_vh - _adjoint(k_) @ vh) / s.unsqueeze(-1))
    return result


# -------------------------------------------------------------------------------- QR


def _qr(grads, inputs, saved, outputs):
    """The gradient of A = Q R (reduced; complete only when Q is square)."""
    mode = saved.mode
    q, r = outputs
    if mode == "r":
        raise RuntimeError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
            "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
            "through linalg.qr."
        )
    m, n = q.shape[-2], r.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
        )
    grad_q, grad_r = _or_zeros(grads[0], q), _or_zeros(grads[1], r)
    if m >= n:
        return _qr_tall(grad_q, grad_r, q, r)
    # a wide A = Q [X | Y]: X = Q R1 is square, Y = Q R2 only adds a linear term
    r1, r2 = r[..., :m], r[..., m:]
    grad_r1, grad_r2 = grad_r[..., :m], grad_r[..., m:]
    grad_x = _qr_tall(grad_q + q @ (r2 @ _adjoint(grad_r2)), grad_r1, q, r1)
    return torch.cat([grad_x, q @ grad_r2], -1)


def _qr_tall(grad_q, grad_r, q, r):
    # Q^H dA R^-1 = Q^H dQ + dR R^-1: the strictly lower part fixes the skew-Hermitian
    # Q^H dQ, so the Hermitian matrix built from the lower triangle of M enters
    m = r @ _adjoint(grad_r) - _adjoint(grad_q) @ q
    lower = torch.tril(m, -1)
    diagonal = m.diagonal(0, -2, -1)
    if m.is_complex():
        diagonal = diagonal.real.to(m.dtype)
    hermitian = lower + _adjoint(lower) + torch.diag_embed(diagonal)
    b = grad_q + q @ hermitian
    # b R^-H, through a triangular solve with R
    return _adjoint(torch.linalg.solve_triangular(r, _adjoint(b), upper=True))


# ------------------------------------------------------------------------------- eig


def _eig(grads, inputs, saved, outputs):
    """The gradient of A = V diag(L) V^-1 (eigenvectors of unit norm, as LAPACK gives)."""
    grad_values, grad_vectors = grads
    values, vectors = outputs
    vectors_h = _adjoint(vectors)
    inner = torch.diag_embed(_or_zeros(grad_values, values))
    if grad_vectors is not None:
        w = vectors_h @ grad_vectors
        diagonal = w.diagonal(0, -2, -1)
        _check_phase_invariant(diagonal.imag, diagonal.abs(), _EIG_PHASE)
        # the unit norm of each vector fixes the real part of the diagonal of V^-1 dV
        w = w - (vectors_h @ vectors) * w.diagonal(0, -2, -1).real.unsqueeze(-2)
        conj_values = values.conj().resolve_conj()
        gaps = conj_values.unsqueeze(-2) - conj_values.unsqueeze(-1)  # conj(l_j - l_i)
        inner = inner + w * _off_diagonal_inverse(gaps)
    result = torch.linalg.solve(vectors_h, inner @ vectors_h)  # V^-H inner V^H
    complex_input = saved.complex_input
    return result if complex_input else result.real


# -------------------------------------------------------------------------------- LU


def _lu(grads, inputs, saved, outputs):
    """The gradient of A = P L U (L unit lower, U upper; P constant)."""
    perm = saved.perm
    lower, upper = outputs
    grad_l, grad_u = _or_zeros(grads[0], lower), _or_zeros(grads[1], upper)
    return _lu_backward(grad_l, grad_u, lower, upper, perm)


def _lu_factor(grad, inputs, saved, result):
    """The gradient of the compact LU (L below the diagonal, U on and above it)."""
    perm = saved.perm
    m, n = result.shape[-2], result.shape[-1]
    k = min(m, n)
    lower = torch.tril(result[..., :, :k], -1) + torch.eye(m, k, dtype=result.dtype)
    upper = torch.triu(result[..., :k, :])
    grad_l = torch.tril(grad[..., :, :k], -1)
    grad_u = torch.triu(grad[..., :k, :])
    return _lu_backward(grad_l, grad_u, lower, upper, perm)


def _lu_backward(grad_l, grad_u, lower, upper, perm):
    m, n = lower.shape[-2], upper.shape[-1]
    perm = torch.as_tensor(perm, dtype=lower.dtype)
    if m < n:  # A = P L [U1 | U2]: U2 = L^-1 P^T A2 also moves with L
        upper1, upper2 = upper[..., :m], upper[..., m:]
        grad_u2 = grad_u[..., m:]
        grad_a2 = _solve_unit_lower_adjoint(lower, grad_u2)
        grad_l = grad_l - grad_a2 @ _adjoint(upper2)
        grad_a1 = _lu_square(grad_l, grad_u[..., :m], lower, upper1)
        return perm @ torch.cat([grad_a1, grad_a2], -1)
    if m > n:  # P^T A = [L1; L2] U: L2 = B2 U^-1 also moves with U
        lower1, lower2 = lower[..., :n, :], lower[..., n:, :]
        grad_b2 = _times_upper_inverse_adjoint(grad_l[..., n:, :], upper)
        grad_u = grad_u - _adjoint(lower2) @ grad_b2
        grad_b1 = _lu_square(grad_l[..., :n, :], grad_u, lower1, upper)
        return perm @ torch.cat([grad_b1, grad_b2], -2)
    return perm @ _lu_square(grad_l, grad_u, lower, upper)


def _lu_square(grad_l, grad_u, lower, upper):
    # L^-1 P^T dA U^-1 = L^-1 dL + dU U^-1 splits into a strictly lower and an upper part
    inner = torch.tril(_adjoint(lower) @ grad_l, -1) + torch.triu(grad_u @ _adjoint(upper))
    return _times_upper_inverse_adjoint(_solve_unit_lower_adjoint(lower, inner), upper)


def _solve_unit_lower_adjoint(lower, b):
    """L^-H b for a unit lower-triangular L."""
    return torch.linalg.solve_triangular(_adjoint(lower), b, upper=True, unitriangular=True)


def _times_upper_inverse_adjoint(b, upper):
    """b U^-H for an upper-triangular U."""
    return torch.linalg.solve_triangular(_adjoint(upper), b, upper=False, left=False)


DECOMPOSITIONS = {
    "inv": Derivative("LinalgInvExBackward0", (_inv,)),
    "det": Derivative("LinalgDetBackward0", (_det,)),
    "_slogdet": Derivative("LinalgSlogdetBackward0", (_slogdet,), saved_inputs=(0,), outputs=2),
    "solve": Derivative("LinalgSolveExBackward0", (_solve_a, _solve_b)),
    "cholesky": Derivative("LinalgCholeskyExBackward0", (_cholesky,)),
    "_eigh_values": Derivative("LinalgEighBackward0", (_eigh_values,)),
    "_eigh_vectors": Derivative("LinalgEighBackward0", (_eigh_vectors,)),
    "_svd_values": Derivative("LinalgSvdBackward0", (_svd_values,)),
    "_svd": Derivative("LinalgSvdBackward0", (_svd,), saved_inputs=(), outputs=3),
    "_qr": Derivative("LinalgQrBackward0", (_qr,), saved_inputs=(), outputs=2),
    "_eig": Derivative("LinalgEigBackward0", (_eig,), saved_inputs=(), outputs=2),
    "_pinv": Derivative("LinalgPinvBackward0", (_pinv,), saves_output=True),
    "_lu": Derivative("LinalgLuBackward0", (_lu,), saved_inputs=(), outputs=2),
    "_lu_factor": Derivative(
        "LinalgLuFactorExBackward0", (_lu_factor,), saved_inputs=(), saves_output=True
    ),
}
