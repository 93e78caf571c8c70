"""Householder QR in LAPACK's compact form: ``torch.geqrf`` and ``torch.ormqr``.

``geqrf`` follows LAPACK's unblocked ``xGEQR2``/``xLARFG`` column by column (vectorised
over the batch): each reflector is ``H = I - tau v v^H`` with ``v[0] = 1`` implicit,
``beta = -sign(Re alpha) * ||(alpha, x)||`` and ``tau = 0`` (``H = I``) when there is
nothing to annihilate. Its results feed :func:`torch.linalg.householder_product` (which
forms ``Q``) and :func:`ormqr` (which multiplies by ``Q`` without forming it).

NOTE: ``geqrf`` is computed in NumPy and recorded as an op whose derivative raises, as
PyTorch's does; ``ormqr`` is a composite of registered ops (``matmul``, ``where``,
``conj``) one reflector at a time, so its gradients for ``input``, ``tau`` and ``other``
follow from those entries.
"""

from __future__ import annotations

import numpy as np

import torch

from .. import _blas, _dtype
from .._return_types import _structseq
from .._tensor import Tensor
from . import decompositions as _dec
from ._dispatch import defop, register_op
from .out_variants import add_out, copy_into_out

__all__ = ["geqrf", "ormqr"]

_GEQRF = _structseq("geqrf", ("a", "tau"))


def _legacy(d) -> str:
    return d._legacy[:-6]


def _column_major(array, dtype) -> Tensor:
    """``array`` as a tensor whose matrices are stored column by column, with the strides
    PyTorch gives LAPACK results (also for empty and size-1 dims)."""
    shape = array.shape[:-2] + (array.shape[-1], array.shape[-2])
    memory = np.empty(shape, dtype=dtype.np_dtype, like=array)  # on the array's device
    result = Tensor._from_array(memory, dtype).mT
    result._np[...] = array
    return result


def _geqrf_numpy(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LAPACK's compact QR of every matrix of ``a`` (a copy is factorised)."""
    a = a.copy()  # a method: on a's device
    m, n = a.shape[-2:]
    k = min(m, n)
    tau = np.zeros(a.shape[:-2] + (k,), dtype=a.dtype, like=a)
    is_complex = np.iscomplexobj(a)
    for i in range(k):
        alpha = a[..., i, i].copy()
        x = a[..., i + 1 :, i]
        xnorm = (
            _blas.linalg.norm(x, axis=-1)
            if m > i + 1
            else np.zeros(alpha.shape, a.real.dtype, like=a)
        )
        if is_complex:
            keep = (xnorm == 0) & (alpha.imag == 0)
            norm = np.hypot(np.hypot(alpha.real, alpha.imag), xnorm)
            beta = -np.copysign(norm, alpha.real)
            safe_beta = np.where(keep, 1, beta)
            t = (beta - alpha.real) / safe_beta - 1j * (alpha.imag / safe_beta)
        else:
            keep = xnorm == 0
            beta = -np.copysign(np.hypot(alpha, xnorm), alpha)
            safe_beta = np.where(keep, 1, beta)
            t = (beta - alpha) / safe_beta
        denominator = np.where(keep, 1, alpha - beta)
        scale = np.where(keep, 1, 1 / denominator)
        a[..., i + 1 :, i] = x * scale[..., None]
        a[..., i, i] = np.where(keep, alpha, beta)
        t = np.where(keep, 0, t)
        tau[..., i] = t
        if i + 1 < n:
            # apply H^H = I - conj(tau) v v^H to the trailing columns
            v = a[..., i:, i].copy()
            v[..., 0] = 1
            trailing = a[..., i:, i + 1 :]
            w = _blas.einsum("...r,...rc->...c", v.conj(), trailing)
            trailing -= np.conj(t)[..., None, None] * v[..., :, None] * w[..., None, :]
    return a, tau


def _geqrf_op(A: Tensor):  # noqa: N803
    array, tau = _geqrf_numpy(A._np)
    outputs = (_column_major(array, A._dtype), Tensor._from_array(tau, A._dtype))
    return _dec.record(GEQRF, (A,), outputs)


GEQRF = register_op(
    "geqrf", _geqrf_op, "geqrf(Tensor self) -> (Tensor a, Tensor tau)", "decompositions"
)


def _check_float(op: str, kernel: str, *tensors: Tensor) -> None:
    for t in tensors:
        d = t._dtype
        if not (d.is_complex or d in (_dtype.float32, _dtype.float64)):
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{_legacy(d)}'")


@defop("geqrf", method=True)
def geqrf(input: Tensor, *, out=None):
    """The QR factorisation of each matrix of ``input`` in LAPACK's compact form.

    ``a`` holds ``R`` on and above the diagonal and, below it, the Householder vectors
    ``v_i`` (their leading 1 implicit); ``tau`` holds the scalars of the reflectors
    ``H_i = I - tau_i v_i v_i^H`` whose product ``H_1 ... H_k`` is ``Q``. No gradient:
    differentiate :func:`torch.linalg.qr` instead.

    Args:
        input (Tensor): matrices of shape ``(*, m, n)``, float or complex.
        out (tuple, optional): two tensors for ``(a, tau)``.

    Shape:
        ``a``: ``(*, m, n)``; ``tau``: ``(*, min(m, n))``.

    Examples::

        >>> A = torch.tensor([[3.0, 1.0], [4.0, 2.0]])
        >>> a, tau = torch.geqrf(A)
        >>> a
        tensor([[-5.0000, -2.2000],
                [ 0.5000,  0.4000]])
        >>> torch.linalg.householder_product(a, tau)
        tensor([[-0.6000, -0.8000],
                [-0.8000,  0.6000]])
    """
    if not isinstance(input, Tensor):
        raise TypeError(
            f"geqrf(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}"
        )
    if input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _check_float("geqrf", "geqrf_cpu", input)
    result = _GEQRF(*_geqrf_op(input))
    if out is not None:
        return _GEQRF(*copy_into_out(tuple(result), out, "geqrf", True))
    return result


def _check_ormqr(input: Tensor, tau: Tensor, other: Tensor, left: bool) -> None:
    for name, t in (("input", input), ("tau", tau), ("other", other)):
        if not isinstance(t, Tensor):
            position = ("input", "input2", "input3").index(name) + 1
            raise TypeError(
                f"ormqr(): argument '{name}' (position {position}) must be Tensor, not "
                f"{type(t).__name__}"
            )
    if input.dim() < 2:
        raise RuntimeError("torch.ormqr: input must have at least 2 dimensions.")
    if other.dim() < 2:
        raise RuntimeError("torch.ormqr: other must have at least 2 dimensions.")
    if tau.dim() == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    side = -2 if left else -1
    if other.shape[side] != input.shape[-2]:
        raise RuntimeError(f"torch.ormqr: other.shape[{side}] must be equal to input.shape[-2]")
    if tau.shape[-1] != min(other.shape[side], input.shape[-1]):
        raise RuntimeError(
            f"torch.ormqr: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])"
        )
    if tau.dim() != input.dim() - 1:
        raise RuntimeError(
            "torch.ormqr: Expected tau to have one dimension less than input, but got "
            f"tau.ndim equal to {tau.dim()} and input.ndim is equal to {input.dim()}"
        )
    if other.dim() != input.dim():
        raise RuntimeError(
            "torch.ormqr: Expected other to have the same number of dimensions as input, but "
            f"got other.ndim equal to {other.dim()} and input.ndim is equal to {input.dim()}"
        )
    batch = tuple(input.shape[:-2])
    if tuple(tau.shape[:-1]) != batch:
        raise RuntimeError(
            "torch.ormqr: Expected batch dimensions of tau to be equal to input.shape[:-2], "
            f"but got {list(tau.shape[:-1])}"
        )
    if tuple(other.shape[:-2]) != batch:
        raise RuntimeError(
            "torch.ormqr: Expected batch dimensions of other to be equal to input.shape[:-2], "
            f"but got {list(other.shape[:-2])}"
        )
    for name, t in (("tau", tau), ("other", other)):
        if t._dtype is not input._dtype:
            raise RuntimeError(
                f"torch.ormqr: Expected input and {name} to have the same dtype, but input "
                f"has dtype{_legacy(input._dtype)} and {name} has dtype {_legacy(t._dtype)}"
            )
    _check_float("ormqr", "ormqr_cpu", input)


def ormqr(
    input: Tensor, tau: Tensor, other: Tensor, left: bool = True, transpose: bool = False
) -> Tensor:
    """``other`` multiplied by the ``Q`` of a :func:`geqrf` factorisation, without
    forming ``Q``: ``op(Q) @ other`` when ``left`` else ``other @ op(Q)``, where
    ``op(Q)`` is ``Q^H`` when ``transpose`` (the conjugate transpose for complex) and
    ``Q`` otherwise.

    Args:
        input (Tensor): Householder vectors below the diagonal, shape ``(*, mn, k)``.
        tau (Tensor): reflector scalars, shape ``(*, min(mn, k))``.
        other (Tensor): the matrix to multiply, ``(*, mn, p)`` if ``left`` else
            ``(*, p, mn)``.
        left (bool, optional): multiply from the left. Default: ``True``.
        transpose (bool, optional): use ``Q^H`` instead of ``Q``. Default: ``False``.
        out (Tensor, optional): the result.

    Examples::

        >>> A = torch.tensor([[3.0, 1.0], [4.0, 2.0]])
        >>> a, tau = torch.geqrf(A)
        >>> torch.ormqr(a, tau, torch.eye(2), transpose=True) @ A  # Q^H A = R
        tensor([[-5.0000, -2.2000],
                [ 0.0000,  0.4000]])
    """
    _check_ormqr(input, tau, other, left)
    mn = input.shape[-2]
    rows = torch.arange(mn).unsqueeze(-1)
    count = tau.shape[-1]
    # Q = H_1 ... H_k: Q C applies H_k first, Q^H C applies H_1^H first; C Q applies
    # H_1 first and C Q^H applies H_k^H first.
    forward = transpose if left else not transpose
    order = range(count) if forward else range(count - 1, -1, -1)
    result = other
    for i in order:
        v = torch.where(rows > i, input[..., :, i : i + 1], (rows == i).to(input.dtype))
        t = tau[..., i].unsqueeze(-1).unsqueeze(-1)
        if transpose:
            t = t.conj()
        if left:  # H C = C - tau v (v^H C)
            result = result - torch.matmul(v, torch.matmul(v.mT.conj(), result)) * t
        else:  # C H = C - (C v) tau v^H
            result = result - torch.matmul(torch.matmul(result, v) * t, v.mT.conj())
    if count == 0:
        result = other.clone()
    return result.mT.contiguous().mT


ormqr = add_out(ormqr, "ormqr", exact=True)
defop("ormqr", ormqr, method=True)
