"""LDL factorisation of symmetric / Hermitian matrices: ``torch.linalg.ldl_factor``,
``ldl_factor_ex`` and ``ldl_solve``.

The factorisation is Bunch-Kaufman's diagonal pivoting as LAPACK's unblocked
``xSYTF2`` / ``xHETF2`` computes it on the lower triangle (``alpha = (1 + sqrt(17)) / 8``,
1x1 and 2x2 pivot blocks, ``cabs1 = |re| + |im|`` as the size of complex entries), and
the result has LAPACK's compact layout: ``D``'s blocks on the diagonal (and the first
subdiagonal of a 2x2 block), the multipliers of ``L`` below, zeros above; ``pivots``
1-based, positive for a 1x1 block (row ``k`` was swapped with row ``pivots[k]``) and
negative and equal for both columns of a 2x2 block (row ``k + 1`` swapped with
``-pivots[k]``). Every matrix of a batch pivots on its own, so the step loop runs over
the columns while each batch element keeps its own position in it.

NOTE: LAPACK's ``xSYTRF`` switches to a blocked form for matrices larger than its block
size (64 here); the blocked form chooses the same pivots, but its roundings differ in
the last bits. Neither function is differentiable, as in PyTorch: the recorded ops'
derivatives raise.
"""

from __future__ import annotations

import numpy as np

from .. import _blas, _dispatcher, _dtype
from .._return_types import _structseq
from .._tensor import Tensor
from . import decompositions as _dec
from ._dispatch import as_array, register_op
from .householder import _column_major, _legacy
from .out_variants import add_out

__all__: list[str] = []

_ALPHA = (1.0 + np.sqrt(17.0)) / 8.0
_LDL_FACTOR = _structseq("linalg_ldl_factor", ("LD", "pivots"))
_LDL_FACTOR_EX = _structseq("linalg_ldl_factor_ex", ("LD", "pivots", "info"))


def _first_max(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """BLAS ``i?amax`` over the ``valid`` entries of each row: the first index of the
    largest value (a NaN counts only where it comes first)."""
    first = np.argmax(valid, axis=-1)
    cleaned = np.where(valid & ~np.isnan(values), values, -np.inf)
    best = np.argmax(cleaned, axis=-1)
    rows = np.arange(values.shape[0], like=values)
    first_nan = np.isnan(values[rows, first])
    empty = ~np.isfinite(cleaned[rows, best]) & ~np.isinf(values[rows, best])
    return np.where(first_nan | empty, first, best)


def _ldl_numpy(a: np.ndarray, hermitian: bool):
    """``(LD, pivots, info)`` of every matrix of ``a`` (batch dims flattened and restored)."""
    *batch, n, _ = a.shape
    count = int(np.prod(batch)) if batch else 1
    lower = np.tril(a.reshape(count, n, n))
    hermitian = hermitian and np.iscomplexobj(a)
    strict = np.tril(lower, -1)
    full = lower + (strict.conj() if hermitian else strict).swapaxes(-1, -2)
    # every array below made by a's array module (on its device)
    index = np.arange(n, like=a)
    if hermitian:
        full[:, index, index] = full[:, index, index].real
    complex_ = np.iscomplexobj(a)

    def size_off(x):
        return np.abs(x.real) + np.abs(x.imag) if complex_ else np.abs(x)

    def size_diag(x):
        return np.abs(x.real) if hermitian else size_off(x)

    def conj(x):
        return x.conj() if hermitian else x

    ld = np.zeros_like(full)
    pivots = np.zeros((count, n), dtype=np.int32, like=a)
    info = np.zeros(count, dtype=np.int32, like=a)
    k = np.zeros(count, dtype=np.int64, like=a)
    b = np.arange(count, like=a)
    while np.any(k < n):  # one element read back per block column
        active = k < n
        kc = np.minimum(k, n - 1)
        akk = full[b, kc, kc]
        absakk = size_diag(akk)
        column = full[b, :, kc]
        below = index[None, :] > kc[:, None]
        imax = _first_max(size_off(column), below)
        colmax = np.where(kc < n - 1, size_off(column[b, imax]), 0.0)
        zero = active & ((np.maximum(absakk, colmax) == 0) | np.isnan(absakk))
        info = np.where(zero & (info == 0), kc + 1, info)
        pivoting = active & ~zero & ~(absakk >= _ALPHA * colmax)
        # the largest off-diagonal entry of row/column imax of the trailing matrix
        row = size_off(full[b, imax, :])
        in_row = (index[None, :] >= kc[:, None]) & (index[None, :] != imax[:, None])
        jmax = _first_max(row, in_row)
        rowmax = row[b, jmax]
        with np.errstate(divide="ignore", invalid="ignore"):
            keep_k = absakk >= _ALPHA * colmax * (colmax / rowmax)
        take_imax = size_diag(full[b, imax, imax]) >= _ALPHA * rowmax
        two = pivoting & ~keep_k & ~take_imax
        kp = np.where(pivoting & ~keep_k, imax, kc)
        step = np.where(two, 2, 1)
        kk = kc + step - 1
        # symmetric interchange of kk and kp in the trailing matrix
        perm = np.broadcast_to(index, (count, n)).copy()
        perm[b, kk] = kp
        perm[b, kp] = kk
        full = full[b[:, None, None], perm[:, :, None], perm[:, None, :]]
        update = active & ~zero
        one = update & ~two
        # 1x1 pivot: L[:, k] = x / d, trailing -= x x^T / d
        d = full[b, kc, kc]
        d = d.real if hermitian else d
        x = np.where(index[None, :] > kc[:, None], full[b, :, kc], 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            r1 = np.where(one, 1 / np.where(one, d, 1), 0)
        full = full - (r1[:, None, None] * x[:, :, None]) * conj(x)[:, None, :]
        column_one = x * r1[:, None]
        # 2x2 pivot with LAPACK's formulas
        k1 = np.minimum(kc + 1, n - 1)
        rest = index[None, :] > k1[:, None]
        x0 = np.where(rest & two[:, None], full[b, :, kc], 0)
        x1 = np.where(rest & two[:, None], full[b, :, k1], 0)
        a21 = np.where(two, full[b, k1, kc], 1)
        a11, a22 = full[b, kc, kc], full[b, k1, k1]
        with np.errstate(divide="ignore", invalid="ignore"):
            if hermitian:
                size = np.abs(a21)
                d11 = a22.real / size
                d22 = a11.real / size
                tt = 1 / (d11 * d22 - 1)
                d21 = a21 / size
                scale = tt / size
                wk = scale[:, None] * (d11[:, None] * x0 - d21[:, None] * x1)
                wkp1 = scale[:, None] * (d22[:, None] * x1 - d21.conj()[:, None] * x0)
            else:
                d11 = a22 / a21
                d22 = a11 / a21
                t = 1 / (d11 * d22 - 1)
                d21 = t / a21
                wk = d21[:, None] * (d11[:, None] * x0 - x1)
                wkp1 = d21[:, None] * (d22[:, None] * x1 - x0)
        wk = np.where(two[:, None], wk, 0)
        wkp1 = np.where(two[:, None], wkp1, 0)
        full = full - (
            x0[:, :, None] * conj(wk)[:, None, :] + x1[:, :, None] * conj(wkp1)[:, None, :]
        )
        if hermitian:
            full[:, index, index] = full[:, index, index].real
        # write the columns of LD
        diagonal = full[b, kc, kc]
        new_k = np.where(one[:, None], column_one, np.where(two[:, None], wk, 0))
        new_k = np.where(zero[:, None], full[b, :, kc] * below, new_k)
        new_k[b, kc] = diagonal
        new_k1 = wkp1.copy()
        new_k1[b, k1] = full[b, k1, k1]
        new_k[b, k1] = np.where(two, full[b, k1, kc], new_k[b, k1])
        ld[b[active], :, kc[active]] = new_k[active]
        ld[b[two], :, k1[two]] = new_k1[two]
        pivots[b[active & ~two], kc[active & ~two]] = (kp + 1)[active & ~two]
        pivots[b[two], kc[two]] = -(kp + 1)[two]
        pivots[b[two], k1[two]] = -(kp + 1)[two]
        k = k + np.where(active, step, 0)
    if hermitian:
        ld[:, index, index] = ld[:, index, index].real
    ld = np.tril(ld)
    return (
        ld.reshape(*batch, n, n),
        pivots.reshape(*batch, n),
        info.reshape(tuple(batch)),
    )


def _ldl_factor_op(A: Tensor, hermitian: bool = False):  # noqa: N803
    ld, pivots, info = _ldl_numpy(A._np, hermitian)
    LD = _column_major(ld, A._dtype)  # noqa: N806
    _dec.record(LDL_FACTOR, (A,), LD)
    return LD, pivots, info


def _factor(A: Tensor, hermitian: bool):  # noqa: N803
    """``_ldl_factor`` through the dispatcher: on a device, its host round trip."""
    return _dispatcher.call_op("_ldl_factor", _ldl_factor_op, A, hermitian)


LDL_FACTOR = register_op(
    "_ldl_factor",
    _ldl_factor_op,
    "_ldl_factor(Tensor A, bool hermitian) -> Tensor",
    "decompositions",
)


def _check_factor_input(name: str, A: Tensor, caller: str = "") -> None:  # noqa: N803
    if not isinstance(A, Tensor):
        raise TypeError(
            f"linalg_{caller or name}(): argument 'input' (position 1) must be Tensor, not "
            f"{type(A).__name__}"
        )
    if A.dim() < 2:
        raise RuntimeError(
            f"torch.linalg.{name}: The input tensor A must have at least 2 dimensions."
        )
    rows, cols = A.shape[-2:]
    if rows != cols:
        raise RuntimeError(
            f"torch.linalg.{name}: A must be batches of square matrices, but they are "
            f"{rows} by {cols} matrices"
        )
    d = A._dtype
    if not (d.is_floating_point or d.is_complex):
        raise RuntimeError(
            f"torch.linalg.{name}: Expected a floating point or complex tensor as input. "
            f"Got {_legacy(d)}"
        )
    if d not in (_dtype.float32, _dtype.float64) and not d.is_complex:
        raise NotImplementedError(f"\"ldl_factor_kernel_cpu\" not implemented for '{_legacy(d)}'")


def _raise_info(name: str, info: np.ndarray) -> None:
    if np.any(info):
        code = int(info.reshape(-1)[np.flatnonzero(info.reshape(-1))[0]])
        raise RuntimeError(f"torch.linalg.{name}: Unknown error code: {code}.")


def _int32(array) -> Tensor:
    return Tensor._from_array(as_array(array, np.int32, "C"), _dtype.int32)


def ldl_factor_ex(A: Tensor, *, hermitian: bool = False, check_errors: bool = False):  # noqa: N803
    """``(LD, pivots, info)``: the Bunch-Kaufman LDL factorisation of symmetric (or, with
    ``hermitian``, Hermitian) matrices, read from their lower triangle.

    ``A = P L D L^T P^T`` (``L^H`` when ``hermitian``) with ``L`` unit lower triangular
    and ``D`` block diagonal with 1x1 and 2x2 blocks, stored compactly as LAPACK's
    ``sytrf`` stores them (see this module's notes). ``info`` is 0, or the 1-based
    column where a zero column made ``D`` singular (the factorisation still finishes).

    Args:
        A (Tensor): matrices of shape ``(*, n, n)``, float or complex.
        hermitian (bool, optional): treat complex ``A`` as Hermitian, not symmetric.
            Default: ``False``.
        check_errors (bool, optional): raise when ``info`` is nonzero. Default: ``False``.
        out (tuple, optional): three tensors for the results.

    Shape:
        ``LD``: ``(*, n, n)``; ``pivots``: ``(*, n)`` int32; ``info``: ``(*)`` int32.

    Examples::

        >>> A = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
        >>> torch.linalg.ldl_factor_ex(A)
        torch.return_types.linalg_ldl_factor_ex(
        LD=tensor([[0., 0.],
                [1., 0.]]),
        pivots=tensor([-2, -2], dtype=torch.int32),
        info=tensor(0, dtype=torch.int32))
    """
    _check_factor_input("ldl_factor_ex", A)
    LD, pivots, info = _factor(A, hermitian)  # noqa: N806
    if check_errors:
        _raise_info("ldl_factor_ex", info)
    return _LDL_FACTOR_EX(LD, _int32(pivots), _int32(info))


def ldl_factor(A: Tensor, *, hermitian: bool = False):  # noqa: N803
    """``(LD, pivots)``: :func:`ldl_factor_ex` that raises a ``RuntimeError`` when a zero
    column is met (``info > 0``), as PyTorch 2.13 does.

    Args:
        A (Tensor): symmetric (or Hermitian) matrices ``(*, n, n)``; only the lower
            triangle is read.
        hermitian (bool, optional): complex ``A`` is Hermitian. Default: ``False``.
        out (tuple, optional): two tensors for the results.

    Examples::

        >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]], dtype=torch.float64)
        >>> LD, pivots = torch.linalg.ldl_factor(A)
        >>> LD
        tensor([[4.0000, 0.0000],
                [0.5000, 2.0000]], dtype=torch.float64)
        >>> torch.linalg.ldl_solve(LD, pivots, torch.ones(2, 1, dtype=torch.float64))
        tensor([[0.1250],
                [0.2500]], dtype=torch.float64)
    """
    _check_factor_input("ldl_factor_ex", A, "ldl_factor")
    LD, pivots, info = _factor(A, hermitian)  # noqa: N806
    _raise_info("ldl_factor", info)
    return _LDL_FACTOR(LD, _int32(pivots))


def _block_kinds(pivots: np.ndarray) -> np.ndarray:
    """Per column: 1 for a 1x1 block, 2 for the first and 0 for the second column of a
    2x2 block."""
    kinds = np.zeros(pivots.shape, dtype=np.int8, like=pivots)
    second = np.zeros(pivots.shape[:-1], dtype=bool, like=pivots)
    for j in range(pivots.shape[-1]):
        kinds[..., j] = np.where(second, 0, np.where(pivots[..., j] < 0, 2, 1))
        second = ~second & (pivots[..., j] < 0)
    return kinds


def _swap_rows(x: np.ndarray, r1: np.ndarray, r2: np.ndarray) -> None:
    b = np.arange(x.shape[0], like=x)
    first = x[b, r1].copy()
    x[b, r1] = x[b, r2]
    x[b, r2] = first


def _ldl_solve_numpy(ld: np.ndarray, pivots: np.ndarray, rhs: np.ndarray, hermitian: bool):
    """LAPACK ``xSYTRS`` / ``xHETRS`` (lower) on broadcast, batch-flattened operands."""
    count, n, _ = ld.shape
    hermitian = hermitian and np.iscomplexobj(ld)
    x = rhs.copy()  # a method: on rhs's device
    piv = pivots.astype(np.int64)
    kinds = _block_kinds(piv)
    index = np.arange(n, like=ld)
    L = np.tril(ld, -1)  # noqa: N806
    Lc = L.conj() if hermitian else L  # noqa: N806
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in range(n):  # L D y = P^T b, block by block
            one, two = kinds[:, j] == 1, kinds[:, j] == 2
            target = np.where(one, j, np.where(two, min(j + 1, n - 1), j))
            source = np.where(one | two, np.abs(piv[:, j]) - 1, j)
            source = np.clip(source, 0, n - 1)
            _swap_rows(x, target, source)
            below = (index > j)[None, :, None] * one[:, None, None]
            x = x - below * L[:, :, j, None] * x[:, j : j + 1, :]
            d = ld[:, j, j].real if hermitian else ld[:, j, j]
            x[one, j] = x[one, j] / d[one, None]
            if j + 1 < n and np.any(two):
                below = (index > j + 1)[None, :, None] * two[:, None, None]
                x = x - below * (
                    L[:, :, j, None] * x[:, j : j + 1, :]
                    + L[:, :, j + 1, None] * x[:, j + 1 : j + 2, :]
                )
                a21 = np.where(two, ld[:, j + 1, j], 1)
                a21c = a21.conj() if hermitian else a21
                a11 = ld[:, j, j].real if hermitian else ld[:, j, j]
                a22 = ld[:, j + 1, j + 1].real if hermitian else ld[:, j + 1, j + 1]
                akm1 = (a11 / a21c)[:, None]
                ak = (a22 / a21)[:, None]
                denom = akm1 * ak - 1
                bkm1 = x[:, j] / a21c[:, None]
                bk = x[:, j + 1] / a21[:, None]
                first = (ak * bkm1 - bk) / denom
                second = (akm1 * bk - bkm1) / denom
                x[two, j] = first[two]
                x[two, j + 1] = second[two]
        for j in range(n - 1, -1, -1):  # L^T P^T x = y
            one, last = kinds[:, j] == 1, kinds[:, j] == 0
            tail = (index > j)[None, :, None] * x
            x[one | last, j] -= _blas.einsum("bi,bir->br", Lc[:, :, j], tail)[one | last]
            if j > 0:
                x[last, j - 1] -= _blas.einsum("bi,bir->br", Lc[:, :, j - 1], tail)[last]
            source = np.where(one | last, np.abs(piv[:, j]) - 1, j)
            _swap_rows(x, np.full(count, j, like=x), np.clip(source, 0, n - 1))
    return x


def _ldl_solve_op(LD: Tensor, pivots: Tensor, B: Tensor, hermitian: bool = False) -> Tensor:  # noqa: N803
    batch = np.broadcast_shapes(tuple(LD.shape[:-2]), tuple(B.shape[:-2]))
    n, rhs = B.shape[-2:]
    count = int(np.prod(batch)) if batch else 1
    ld = np.broadcast_to(LD._np, batch + (n, n)).reshape(count, n, n)
    piv = np.broadcast_to(pivots._np, batch + (n,)).reshape(count, n)
    b = np.broadcast_to(B._np, batch + (n, rhs)).reshape(count, n, rhs)
    x = _ldl_solve_numpy(ld, piv, b, hermitian).reshape(batch + (n, rhs))
    result = _column_major(x, B._dtype)
    return _dec.record(LDL_SOLVE, (LD, pivots, B), result)


LDL_SOLVE = register_op(
    "_ldl_solve",
    _ldl_solve_op,
    "_ldl_solve(Tensor LD, Tensor pivots, Tensor B, bool hermitian) -> Tensor",
    "decompositions",
)


def ldl_solve(LD: Tensor, pivots: Tensor, B: Tensor, *, hermitian: bool = False) -> Tensor:  # noqa: N803
    """The solution ``X`` of ``A X = B`` from ``(LD, pivots)`` of :func:`ldl_factor`.

    Batch dims of ``B`` broadcast with those of ``LD`` (``pivots`` must have ``LD``'s).

    Args:
        LD (Tensor): the compact factorisation, ``(*, n, n)``.
        pivots (Tensor): its pivots, ``(*, n)``, integer.
        B (Tensor): right-hand sides ``(*, n, k)`` of ``LD``'s dtype.
        hermitian (bool, optional): the factorisation was of a Hermitian matrix (must match
            the flag given to :func:`ldl_factor`). Default: ``False``.
        out (Tensor, optional): the result.

    Examples::

        >>> A = torch.tensor([[0.0, 2.0], [2.0, 1.0]], dtype=torch.float64)
        >>> LD, pivots = torch.linalg.ldl_factor(A)
        >>> torch.linalg.ldl_solve(LD, pivots, torch.tensor([[2.0], [3.0]], dtype=torch.float64))
        tensor([[1.],
                [1.]], dtype=torch.float64)
    """
    for name, t in (("LD", LD), ("pivots", pivots), ("B", B)):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"linalg_ldl_solve(): argument '{name}' must be Tensor, not {type(t).__name__}"
            )
    if LD.dim() < 2:
        raise RuntimeError(
            "torch.linalg.ldl_solve: The input tensor A must have at least 2 dimensions."
        )
    if B._dtype is not LD._dtype:
        raise RuntimeError(
            "Expected b and A to have the same dtype, but found b of type "
            f"{_legacy(B._dtype)} and A of type {_legacy(LD._dtype)} instead."
        )
    if B.dim() < 2:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(B.dim(), 1)}, "
            f"{max(B.dim(), 1) - 1}], but got -2)"
        )
    n = LD.shape[-1]
    if LD.shape[-2] != n:
        raise RuntimeError(
            "torch.linalg.ldl_solve: A must be batches of square matrices, but they are "
            f"{LD.shape[-2]} by {n} matrices"
        )
    if B.shape[-2] != n:
        raise RuntimeError(
            "Incompatible matrix sizes for torch.linalg.ldl_solve: each A matrix is "
            f"{n} by {n} but each b matrix is {B.shape[-2]} by {B.shape[-1]}"
        )
    if tuple(pivots.shape) != tuple(LD.shape[:-1]):
        raise RuntimeError(
            "torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape to be the same, "
            f"but got pivots with shape {list(pivots.shape)} instead"
        )
    if pivots._dtype.is_floating_point or pivots._dtype.is_complex or pivots._dtype is _dtype.bool_:
        raise RuntimeError(
            f"torch.linalg.ldl_solve: Expected pivots to be integers. Got {_legacy(pivots._dtype)}"
        )
    _check_factor_input("ldl_solve", LD)
    # through the dispatcher: on a device, the op's host round trip (torch.cuda)
    return _dispatcher.call_op("_ldl_solve", _ldl_solve_op, LD, pivots, B, hermitian)


#: functions of ``torch.linalg`` defined here (name there -> function)
LINALG = {
    "ldl_factor": add_out(ldl_factor, "linalg_ldl_factor", exact=True),
    "ldl_factor_ex": add_out(ldl_factor_ex, "linalg_ldl_factor_ex", exact=True),
    "ldl_solve": add_out(ldl_solve, "linalg_ldl_solve", exact=True),
}
