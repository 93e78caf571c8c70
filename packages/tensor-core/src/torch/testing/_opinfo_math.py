"""Op-database entries of the math API's later families: index reductions
(``torch._ops.index_ops``), combining composites (``torch._ops.combining``), the math
extras and the linear-algebra extras. The composites' entries let torch-autograd check
their gradients (which come from the primitives they are built on) numerically."""

from __future__ import annotations

import itertools

import numpy as np

import torch

from ._opinfo_base import FLOATING, INTEGRAL, OpInfo, SampleInput, _make

__all__ = ["MATH_OPS"]


def _index(values) -> torch.Tensor:
    return torch.tensor(values, dtype=torch.int64)


# --------------------------------------------------------------- numpy references


def _scatter_reduce_ref(a, index, src, dim, reduce, include_self=True):
    result = a.copy()
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    grid = tuple(grid)
    ufunc = {
        "sum": np.add,
        "mean": np.add,
        "prod": np.multiply,
        "amax": np.maximum,
        "amin": np.minimum,
    }[reduce]
    if not include_self:
        start = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}[reduce]
        result[grid] = start
    ufunc.at(result, grid, src[tuple(slice(0, n) for n in index.shape)])
    if reduce == "mean":
        counts = np.zeros(a.shape)
        np.add.at(counts, grid, 1)
        result = result / np.maximum(counts + (1 if include_self else 0), 1)
    return result


def _index_add_ref(a, index, src, dim, alpha=1):
    result = a.copy()
    np.add.at(np.moveaxis(result, dim, 0), index, np.moveaxis(src, dim, 0) * alpha)
    return result


def _index_copy_ref(a, index, src, dim):
    result = a.copy()
    np.moveaxis(result, dim, 0)[index] = np.moveaxis(src, dim, 0)
    return result


def _index_fill_ref(a, dim):
    result = a.copy()
    np.moveaxis(result, dim, 0)[[0, 2]] = -1.5
    return result


def _masked_scatter_ref(a, source, mask):
    result = a.copy()
    result[mask] = source.reshape(-1)[: mask.sum()]
    return result


def _logcumsumexp_ref(a, dim):
    return np.logaddexp.accumulate(a, axis=dim)


def _cdist_ref(a, b, p):
    diff = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == np.inf:
        return diff.max(-1)
    return (diff**p).sum(-1) ** (1 / p)


def _block_diag_ref(*arrays):
    rows = sum(a.shape[0] for a in arrays)
    cols = sum(a.shape[1] for a in arrays)
    out = np.zeros((rows, cols), dtype=np.result_type(*arrays))
    r = c = 0
    for a in arrays:
        out[r : r + a.shape[0], c : c + a.shape[1]] = a
        r, c = r + a.shape[0], c + a.shape[1]
    return out


def _diag_embed_ref(a, offset=0):
    n = a.shape[-1] + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), dtype=a.dtype)
    rows = np.arange(a.shape[-1]) + max(-offset, 0)
    out[..., rows, rows + offset] = a
    return out


def _cartesian_ref(*arrays):
    return np.array(list(itertools.product(*arrays)))


def _matrix_power_ref(a, n):
    return np.linalg.matrix_power(a, n)


def _matrix_exp_ref(a):
    # eigendecomposition of a symmetric matrix: exp acts on the eigenvalues
    w, v = np.linalg.eigh(a)
    return (v * np.exp(w)[..., None, :]) @ np.swapaxes(v, -1, -2)


def _householder_ref(a, tau, full=False):
    m, n = a.shape
    q = np.eye(m)
    for i in range(tau.shape[0]):
        v = np.zeros(m)
        v[i] = 1
        v[i + 1 :] = a[i + 1 :, i]
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q if full else q[:, :n]


# ------------------------------------------------------------------------ samples


def _scatter_reduce_samples(reduce, include_self=True):
    def samples(dtype):
        index = _index([[0, 1, 0, 2], [1, 1, 0, 2]])
        return [
            SampleInput(
                (_make((3, 4), dtype, 21), index, _make((2, 4), dtype, 22)),
                (0, reduce),
                {"include_self": include_self},
            ),
            SampleInput(
                (
                    _make((2, 3), dtype, 23),
                    _index([[2, 0, 2], [1, 1, 1]]),
                    _make((2, 3), dtype, 24),
                ),
                (1, reduce),
                {"include_self": include_self},
            ),
        ]

    return samples


def _index_add_samples(dtype):
    return [
        SampleInput((_make((4, 3), dtype, 31), _index([0, 2, 0]), _make((3, 3), dtype, 32)), (0,)),
        SampleInput(
            (_make((2, 5), dtype, 33), _index([4, 4]), _make((2, 2), dtype, 34)), (1,), {"alpha": 2}
        ),
    ]


def _index_copy_samples(dtype):
    return [
        SampleInput((_make((4, 3), dtype, 35), _index([3, 0]), _make((2, 3), dtype, 36)), (0,)),
        SampleInput((_make((2, 5), dtype, 37), _index([1, 4, 2]), _make((2, 3), dtype, 38)), (1,)),
    ]


def _masked_scatter_samples(dtype):
    mask = torch.tensor([[True, False, True], [False, True, True]])
    return [SampleInput((_make((2, 3), dtype, 41), _make((2, 3), dtype, 42), mask))]


def _dim_samples(shape=(3, 4), dims=(0, 1, -1)):
    def samples(dtype):
        return [SampleInput((_make(shape, dtype, 50 + i),), (d,)) for i, d in enumerate(dims)]

    return samples


def _cdist_samples(p):
    def samples(dtype):
        return [
            SampleInput((_make((3, 2), dtype, 61), _make((4, 2), dtype, 62)), (p,)),
            SampleInput((_make((2, 3, 3), dtype, 63), _make((2, 2, 3), dtype, 64)), (p,)),
            # more than 25 rows: the matrix-product path for p = 2
            SampleInput((_make((26, 2), dtype, 65), _make((3, 2), dtype, 66)), (p,)),
        ]

    return samples


def _pair_samples(a_shape, b_shape):
    def samples(dtype):
        return [SampleInput((_make(a_shape, dtype, 71), _make(b_shape, dtype, 72)))]

    return samples


def _symmetric(n, dtype, seed, scale=0.3):
    a = _make((n, n), dtype, seed) * scale
    return a + a.t()


# ------------------------------------------------------------------------ entries


def _scatter_reduce(x, index, src, dim, reduce, **kwargs):
    return torch.scatter_reduce(x, dim, index, src, reduce, **kwargs)


def _by_dim(function):
    """``function(x, dim, index, source, **kw)`` called as the database calls ops: the
    tensors first, then ``dim``."""

    def op(x, index, source, dim, **kwargs):
        return function(x, dim, index, source, **kwargs)

    return op


def _scatter_reduce_entries():
    entries = []
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            entries.append(
                OpInfo(
                    "scatter_reduce",
                    _scatter_reduce,
                    _scatter_reduce_ref,
                    _scatter_reduce_samples(reduce, include_self),
                    FLOATING,
                    supports_gradgrad=False,
                )
            )
    return entries


MATH_OPS = [
    *_scatter_reduce_entries(),
    OpInfo(
        "scatter_reduce_int_sum",
        _scatter_reduce,
        _scatter_reduce_ref,
        _scatter_reduce_samples("sum"),
        INTEGRAL,
        differentiable=False,
    ),
    OpInfo(
        "index_add",
        _by_dim(torch.index_add),
        _index_add_ref,
        _index_add_samples,
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "index_copy",
        _by_dim(torch.index_copy),
        _index_copy_ref,
        _index_copy_samples,
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "index_fill",
        lambda x, dim: torch.index_fill(x, dim, _index([0, 2]), -1.5),
        _index_fill_ref,
        _dim_samples((3, 4), (0, 1)),
    ),
    OpInfo(
        "index_put_accumulate",
        lambda x, v: torch.index_put(x, (_index([0, 2, 0]),), v, accumulate=True),
        lambda a, v: _index_add_ref(a, np.array([0, 2, 0]), v, 0),
        lambda d: [SampleInput((_make((3, 4), d, 81), _make((3, 4), d, 82)))],
    ),
    OpInfo(
        "index_reduce",
        lambda x, i, s, dim, reduce: torch.index_reduce(x, dim, i, s, reduce),
        lambda a, i, s, dim, reduce: _scatter_reduce_ref(
            a, np.broadcast_to(i[:, None], s.shape), s, dim, reduce
        ),
        lambda d: [
            SampleInput((_make((4, 3), d, 83), _index([0, 3, 0]), _make((3, 3), d, 84)), (0, r))
            for r in ("prod", "mean", "amax", "amin")
        ],
        supports_gradgrad=False,
    ),
    OpInfo(
        "masked_scatter",
        lambda x, source, mask: torch.masked_scatter(x, mask, source),
        _masked_scatter_ref,
        _masked_scatter_samples,
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "take_along_dim",
        lambda x, dim: torch.take_along_dim(x, _index([[2], [0], [1]]), dim),
        lambda a, dim: np.take_along_axis(a, np.array([[2], [0], [1]]), dim),
        _dim_samples((3, 4), (1,)),
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "logcumsumexp",
        torch.logcumsumexp,
        _logcumsumexp_ref,
        _dim_samples((3, 4), (0, 1, -1)),
        supports_gradgrad=False,
    ),
    OpInfo(
        "repeat_interleave",
        lambda x, dim: torch.repeat_interleave(x, _index([2, 0, 1]), dim),
        lambda a, dim: np.repeat(a, [2, 0, 1], axis=dim),
        _dim_samples((3, 3), (0, 1)),
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "diag_embed",
        lambda x, offset: torch.diag_embed(x, offset),
        _diag_embed_ref,
        lambda d: [SampleInput((_make((2, 3), d, 91),), (o,)) for o in (0, 1, -2)],
        FLOATING + INTEGRAL,
    ),
    OpInfo("kron", torch.kron, np.kron, _pair_samples((2, 3), (3, 2)), FLOATING + INTEGRAL),
    OpInfo("kron_1d", torch.kron, np.kron, _pair_samples((3,), (2,)), FLOATING),
    OpInfo(
        "cross",
        lambda a, b: torch.cross(a, b, dim=-1),
        lambda a, b: np.cross(a, b),
        _pair_samples((4, 3), (4, 3)),
        FLOATING + INTEGRAL,
    ),
    *[
        OpInfo(f"cdist_p{p}", torch.cdist, _cdist_ref, _cdist_samples(p))
        for p in (1.0, 2.0, 3.0, float("inf"))
    ],
    OpInfo(
        "block_diag",
        lambda a, b: torch.block_diag(a, b),
        _block_diag_ref,
        _pair_samples((2, 2), (1, 3)),
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "cartesian_prod",
        torch.cartesian_prod,
        _cartesian_ref,
        _pair_samples((3,), (2,)),
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "combinations",
        lambda x: torch.combinations(x, 2),
        lambda a: np.array(list(itertools.combinations(a, 2))),
        lambda d: [SampleInput((_make((4,), d, 92),))],
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "quantile",
        lambda x, q: torch.quantile(x, q, dim=1),
        lambda a, q: np.quantile(a, q, axis=1),
        lambda d: [SampleInput((_make((3, 5), d, 93),), (q,)) for q in (0.0, 0.3, 0.5, 1.0)],
    ),
    OpInfo(
        "nanmedian",
        lambda x: torch.nanmedian(x, 1).values,
        lambda a: np.sort(a, 1)[:, (a.shape[1] - 1) // 2],
        lambda d: [SampleInput((_make((3, 5), d, 94),)), SampleInput((_make((2, 4), d, 95),))],
    ),
    OpInfo(
        "dist",
        lambda a, b, p: torch.dist(a, b, p),
        lambda a, b, p: np.linalg.norm((a - b).reshape(-1), p),
        lambda d: [
            SampleInput((_make((2, 3), d, 96), _make((3,), d, 97)), (p,)) for p in (1, 2, 3)
        ],
    ),
    OpInfo(
        "ldexp",
        lambda x: torch.ldexp(x, _index([1, -2, 3])),
        lambda a: np.ldexp(a, [1, -2, 3]),
        lambda d: [SampleInput((_make((2, 3), d, 98),))],
    ),
    OpInfo(
        "frexp_mantissa",
        lambda x: torch.frexp(x).mantissa,
        lambda a: np.frexp(a)[0],
        lambda d: [SampleInput((_make((2, 3), d, 99),))],
    ),
    OpInfo(
        "inner",
        torch.inner,
        np.inner,
        _pair_samples((2, 3), (4, 3)),
        FLOATING + INTEGRAL,
    ),
    OpInfo("vdot", torch.vdot, np.vdot, _pair_samples((4,), (4,)), FLOATING + INTEGRAL),
    OpInfo(
        "addr",
        lambda m, a, b: torch.addr(m, a, b, beta=0.5, alpha=2),
        lambda m, a, b: 0.5 * m + 2 * np.outer(a, b),
        lambda d: [SampleInput((_make((2, 3), d, 101), _make((2,), d, 102), _make((3,), d, 103)))],
    ),
    OpInfo(
        "matrix_power",
        torch.matrix_power,
        _matrix_power_ref,
        lambda d: [
            SampleInput((_symmetric(3, d, 104) + torch.eye(3, dtype=d) * 2,), (n,))
            for n in (1, 3, -2)
        ],
    ),
    OpInfo(
        "matrix_exp",
        torch.matrix_exp,
        _matrix_exp_ref,
        lambda d: [
            SampleInput((_symmetric(3, d, 105),)),
            SampleInput((_symmetric(2, d, 106, 2.0),)),
        ],
    ),
    OpInfo(
        "multi_dot",
        lambda a, b, c: torch.linalg.multi_dot([a, b, c]),
        lambda a, b, c: a @ b @ c,
        lambda d: [
            SampleInput((_make((3,), d, 107), _make((3, 4), d, 108), _make((4, 2), d, 109)))
        ],
    ),
    OpInfo(
        "solve_triangular",
        lambda a, b: torch.linalg.solve_triangular(a, b, upper=True),
        lambda a, b: np.linalg.solve(np.triu(a), b),
        lambda d: [
            SampleInput((_make((3, 3), d, 110) + torch.eye(3, dtype=d) * 4, _make((3, 2), d, 111)))
        ],
    ),
    OpInfo(
        "cholesky_solve",
        torch.cholesky_solve,
        lambda b, low: np.linalg.solve(np.tril(low) @ np.tril(low).T, b),
        lambda d: [
            SampleInput(
                (
                    _make((3, 2), d, 112),
                    torch.tril(_make((3, 3), d, 113)) + torch.eye(3, dtype=d) * 3,
                )
            )
        ],
    ),
    OpInfo(
        "householder_product",
        torch.linalg.householder_product,
        _householder_ref,
        lambda d: [SampleInput((_make((4, 2), d, 114), _make((2,), d, 115)))],
    ),
    OpInfo(
        "geqrf",
        lambda a: torch.geqrf(a).a.triu()[:3].abs(),  # R is unique up to the signs of its rows
        lambda a: np.abs(np.linalg.qr(a, mode="r")),
        lambda d: [SampleInput((_make((4, 3), d, 123),))],
        differentiable=False,  # PyTorch has no derivative for geqrf
    ),
    OpInfo(
        "ormqr",
        lambda a, tau, c: torch.ormqr(a, tau, c, transpose=True),
        lambda a, tau, c: _householder_ref(a, tau, full=True).T @ c,
        lambda d: [
            SampleInput((_make((4, 2), d, 118), _make((2,), d, 119), _make((4, 3), d, 120)))
        ],
    ),
    OpInfo(
        "ldl_solve",
        lambda a, b: torch.linalg.ldl_solve(*torch.linalg.ldl_factor(a + a.mT), b),
        lambda a, b: np.linalg.solve(a + a.T, b),
        lambda d: [SampleInput((_make((4, 4), d, 121), _make((4, 2), d, 122)))],
        differentiable=False,  # PyTorch has no derivative for ldl_factor / ldl_solve
    ),
    OpInfo(
        "vander",
        lambda x: torch.linalg.vander(x, N=4),
        lambda a: np.vander(a, 4, increasing=True),
        lambda d: [SampleInput((_make((3,), d, 116),))],
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "cond",
        torch.linalg.cond,
        np.linalg.cond,
        lambda d: [SampleInput((_make((3, 3), d, 117) + torch.eye(3, dtype=d) * 3,))],
        supports_gradgrad=False,  # through svdvals, whose second derivative is not built
    ),
    OpInfo(
        "tensorinv",
        lambda a: torch.linalg.tensorinv(a, ind=1),
        lambda a: np.linalg.tensorinv(a, ind=1),
        lambda d: [
            SampleInput(((_make((4, 4), d, 118) + torch.eye(4, dtype=d) * 4).reshape(4, 2, 2),))
        ],
    ),
    # numerical composites (torch._ops.calculus, statistics, view_scatter, norms)
    OpInfo(
        "diff",
        lambda x, n, dim: torch.diff(x, n, dim),
        lambda a, n, dim: np.diff(a, n, dim),
        lambda d: [SampleInput((_make((3, 5), d, 120),), (n, dim)) for n, dim in ((1, 1), (2, 0))],
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "gradient",
        lambda x, edge: torch.gradient(x, spacing=0.5, dim=1, edge_order=edge)[0],
        lambda a, edge: np.gradient(a, 0.5, axis=1, edge_order=edge),
        lambda d: [SampleInput((_make((3, 5), d, 121),), (e,)) for e in (1, 2)],
    ),
    OpInfo(
        "gradient_coordinates",
        lambda x, edge: torch.gradient(
            x,
            spacing=(torch.tensor([0.0, 0.5, 1.5, 1.75, 3.0], dtype=x.dtype),),
            dim=1,
            edge_order=edge,
        )[0],
        lambda a, edge: np.gradient(
            a, np.array([0.0, 0.5, 1.5, 1.75, 3.0]), axis=1, edge_order=edge
        ),
        lambda d: [SampleInput((_make((2, 5), d, 122),), (e,)) for e in (1, 2)],
    ),
    OpInfo(
        "cov",
        lambda x: torch.cov(x, correction=1),
        lambda a: np.cov(a),
        lambda d: [SampleInput((_make((3, 6), d, 123),))],
    ),
    OpInfo(
        "cov_weighted",
        lambda x: torch.cov(
            x,
            fweights=_index([1, 2, 1, 3]),
            aweights=torch.tensor([0.5, 1.0, 2.0, 1.5], dtype=x.dtype),
        ),
        lambda a: np.cov(a, fweights=[1, 2, 1, 3], aweights=[0.5, 1.0, 2.0, 1.5]),
        lambda d: [SampleInput((_make((2, 4), d, 124),))],
    ),
    OpInfo(
        "corrcoef", torch.corrcoef, np.corrcoef, lambda d: [SampleInput((_make((3, 6), d, 125),))]
    ),
    OpInfo(
        "trapezoid",
        lambda y, x: torch.trapezoid(y, x),
        lambda y, x: np.trapezoid(y, x) if hasattr(np, "trapezoid") else np.trapz(y, x),
        lambda d: [
            SampleInput((_make((3, 4), d, 126), torch.tensor([0.0, 0.5, 2.0, 2.5], dtype=d)))
        ],
    ),
    OpInfo(
        "cumulative_trapezoid",
        lambda y: torch.cumulative_trapezoid(y, dx=0.5, dim=0),
        lambda y: np.cumsum((y[1:] + y[:-1]) / 2 * 0.5, axis=0),
        lambda d: [SampleInput((_make((4, 3), d, 127),))],
    ),
    OpInfo(
        "renorm",
        lambda x: torch.renorm(x, 2, 0, 1.5),
        lambda a: (
            a
            * np.where(
                np.linalg.norm(a, axis=1, keepdims=True) > 1.5,
                1.5 / (np.linalg.norm(a, axis=1, keepdims=True) + 1e-7),
                1.0,
            )
        ),
        lambda d: [SampleInput((_make((3, 4), d, 128),))],
    ),
    OpInfo("sinc", torch.sinc, np.sinc, lambda d: [SampleInput((_make((5,), d, 129),))]),
    OpInfo(
        "put_accumulate",
        lambda x, v: torch.put(x, _index([0, 5, 0]), v, accumulate=True),
        lambda a, v: _index_add_ref(a.reshape(-1), np.array([0, 5, 0]), v, 0).reshape(a.shape),
        lambda d: [SampleInput((_make((2, 3), d, 130), _make((3,), d, 131)))],
    ),
    OpInfo(
        "slice_scatter",
        lambda x, v: torch.slice_scatter(x, v, 1, 0, 4, 2),
        lambda a, v: np.concatenate([v[:, :1], a[:, 1:2], v[:, 1:], a[:, 3:]], 1),
        lambda d: [SampleInput((_make((3, 4), d, 132), _make((3, 2), d, 133)))],
    ),
    OpInfo(
        "diagonal_scatter",
        lambda x, v: torch.diagonal_scatter(x, v, 1),
        lambda a, v: a * (1 - np.eye(3, k=1)) + np.diag(v, 1),
        lambda d: [SampleInput((_make((3, 3), d, 134), _make((2,), d, 135)))],
    ),
    # special functions (torch._ops.special_functions, torch.special)
    OpInfo("i0", torch.i0, np.i0, lambda d: [SampleInput((_make((6,), d, 140, domain=(-4, 4)),))]),
    OpInfo(
        "special_i1",
        torch.special.i1,
        None,
        lambda d: [SampleInput((_make((6,), d, 141, domain=(-4, 4)),))],
    ),
    OpInfo(
        "special_i0e",
        torch.special.i0e,
        lambda a: np.i0(a) * np.exp(-np.abs(a)),
        lambda d: [SampleInput((_make((6,), d, 142, domain=(-4, 4)),))],
    ),
    OpInfo(
        "special_i1e",
        torch.special.i1e,
        None,
        lambda d: [SampleInput((_make((6,), d, 143, domain=(-4, 4)),))],
    ),
    OpInfo(
        "polygamma",
        lambda x, n: torch.polygamma(n, x),
        None,
        lambda d: [SampleInput((_make((5,), d, 144, positive=True),), (n,)) for n in (0, 1, 2, 3)],
        supports_gradgrad=False,
    ),
    OpInfo(
        "special_ndtr",
        torch.special.ndtr,
        lambda a: 0.5 * (1 + np.vectorize(__import__("math").erf)(a / np.sqrt(2))),
        lambda d: [SampleInput((_make((6,), d, 145, domain=(-3, 3)),))],
    ),
    OpInfo(
        "special_log_ndtr",
        torch.special.log_ndtr,
        lambda a: np.log(0.5 * (1 + np.vectorize(__import__("math").erf)(a / np.sqrt(2)))),
        lambda d: [SampleInput((_make((6,), d, 146, domain=(-3, 3)),))],
    ),
    OpInfo(
        "special_erfcx",
        torch.special.erfcx,
        lambda a: np.exp(a * a) * np.vectorize(__import__("math").erfc)(a),
        lambda d: [SampleInput((_make((6,), d, 147, domain=(-2, 3)),))],
    ),
    OpInfo(
        "special_entr",
        torch.special.entr,
        lambda a: -a * np.log(a),
        lambda d: [SampleInput((_make((5,), d, 148, positive=True),))],
    ),
    OpInfo(
        "special_xlog1py",
        torch.special.xlog1py,
        lambda a, b: a * np.log1p(b),
        lambda d: [SampleInput((_make((4,), d, 149), _make((4,), d, 150, positive=True)))],
    ),
    OpInfo(
        "mvlgamma",
        lambda x: torch.mvlgamma(x, 3),
        lambda a: (
            sum(np.vectorize(__import__("math").lgamma)(a - i / 2) for i in range(3))
            + 3 * 2 / 4 * np.log(np.pi)
        ),
        lambda d: [SampleInput((_make((4,), d, 151, domain=(1.5, 4)),))],
    ),
    # torch.* spellings of nn functions (torch._ops.distances, losses, nn_functional, ...)
    OpInfo(
        "cosine_similarity",
        torch.cosine_similarity,
        lambda a, b: (a * b).sum(1) / np.sqrt((a * a).sum(1) * (b * b).sum(1)),
        _pair_samples((3, 4), (3, 4)),
    ),
    OpInfo(
        "pairwise_distance",
        lambda a, b: torch.pairwise_distance(a, b, 3.0),
        lambda a, b: (np.abs(a - b + 1e-6) ** 3).sum(-1) ** (1 / 3),
        _pair_samples((3, 4), (3, 4)),
    ),
    OpInfo(
        "pdist",
        torch.pdist,
        lambda a: np.array(
            [np.linalg.norm(a[i] - a[j]) for i in range(len(a)) for j in range(i + 1, len(a))]
        ),
        lambda d: [SampleInput((_make((4, 3), d, 160),))],
    ),
    OpInfo(
        "margin_ranking_loss",
        lambda a, b: torch.margin_ranking_loss(
            a, b, torch.tensor([1.0, -1, 1, -1], dtype=a.dtype), 0.3, 0
        ),
        lambda a, b: np.maximum(0, -np.array([1.0, -1, 1, -1]) * (a - b) + 0.3),
        _pair_samples((4,), (4,)),
    ),
    OpInfo(
        "cosine_embedding_loss",
        lambda a, b: torch.cosine_embedding_loss(
            a, b, torch.tensor([1.0, -1, 1], dtype=a.dtype), 0.1, 0
        ),
        lambda a, b: np.where(
            np.array([1.0, -1, 1]) == 1,
            1 - (a * b).sum(1) / np.sqrt(((a * a).sum(1) + 1e-12) * ((b * b).sum(1) + 1e-12)),
            np.maximum(
                0,
                (a * b).sum(1) / np.sqrt(((a * a).sum(1) + 1e-12) * ((b * b).sum(1) + 1e-12)) - 0.1,
            ),
        ),
        _pair_samples((3, 4), (3, 4)),
    ),
    OpInfo(
        "poisson_nll_loss",
        lambda a, b: torch.poisson_nll_loss(a, b, True, False, 1e-8, 0),
        lambda a, b: np.exp(a) - b * a,
        _pair_samples((2, 3), (2, 3)),
    ),
    OpInfo(
        "triplet_margin_loss",
        lambda a, b, c: torch.triplet_margin_loss(a, b, c, 1.0, 2.0, 1e-6, False, 0),
        lambda a, b, c: np.maximum(
            0, 1.0 + np.linalg.norm(a - b + 1e-6, axis=-1) - np.linalg.norm(a - c + 1e-6, axis=-1)
        ),
        lambda d: [
            SampleInput((_make((3, 4), d, 161), _make((3, 4), d, 162), _make((3, 4), d, 163)))
        ],
    ),
    OpInfo(
        "native_layer_norm",
        lambda x, w, b: torch.native_layer_norm(x, [4], w, b, 1e-5)[0],
        lambda x, w, b: (
            (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * w + b
        ),
        lambda d: [SampleInput((_make((3, 4), d, 164), _make((4,), d, 165), _make((4,), d, 166)))],
    ),
]
