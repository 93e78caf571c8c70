"""The op database: for each core op, sample inputs over shapes and dtypes, a NumPy
reference and flags. torch-core's tests check every op against its reference;
torch-autograd's tests check every differentiable op's gradients numerically.

An entry's ``op`` and ``ref`` take the same arguments: the sample's tensors (as tensors
for ``op``, as NumPy arrays for ``ref``) followed by its other arguments.
"""

from __future__ import annotations

import numpy as np

import torch

__all__ = ["SampleInput", "OpInfo", "op_db", "FLOATING", "INTEGRAL"]

from ._opinfo_base import FLOATING, INTEGRAL, OpInfo, SampleInput, _make  # noqa: F401


def _binary_samples(positive=False):
    def samples(dtype):
        shapes = [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 1, 3), (4, 1)), ((), (3,)), ((5,), ())]
        return [
            SampleInput((_make(a, dtype, 1, positive), _make(b, dtype, 2, positive)))
            for a, b in shapes
        ]

    return samples


def _unary_samples(positive=False, domain=None, **kwargs):
    def samples(dtype):
        return [
            SampleInput((_make(s, dtype, 3, positive, domain),), (), dict(kwargs))
            for s in [(4,), (2, 3), ()]
        ]

    return samples


def _reduction_samples(dtype):
    x = _make((2, 3, 4), dtype, 4)
    return [
        SampleInput((x,)),
        SampleInput((x,), (1,)),
        SampleInput((x,), ((0, 2),)),
        SampleInput((x,), (-1, True)),
    ]


def _view_samples(dtype):
    x = _make((2, 3, 4), dtype, 5)
    return [
        SampleInput((x,), ((4, 6),)),
        SampleInput((x,), ((-1,),)),
        SampleInput((x.transpose(0, 1),), ((3, 8),)),
    ]


def _numpy_reduce(fn):
    def ref(a, dim=None, keepdim=False):
        axis = dim if dim is None or isinstance(dim, tuple) else (dim,)
        return fn(a, axis=axis, keepdims=keepdim)

    return ref


def _binary(name, torch_fn, np_fn, dtypes=FLOATING + INTEGRAL, differentiable=True, positive=False):
    return OpInfo(
        name, torch_fn, np_fn, _binary_samples(positive), dtypes, differentiable, positive
    )


def _unary(
    name,
    torch_fn,
    np_fn,
    dtypes=FLOATING,
    differentiable=True,
    positive=False,
    domain=None,
    **kwargs,
):
    return OpInfo(
        name,
        torch_fn,
        np_fn,
        _unary_samples(positive, domain, **kwargs),
        dtypes,
        differentiable,
        positive,
    )


def _special_ref(name):
    from torch._special_ref import special

    return lambda a: special(name, a)


def _ternary_samples(make_extra):
    def samples(dtype):
        x = _make((3, 4), dtype, 11)
        return [SampleInput((x, *make_extra(dtype)), ())]

    return samples


def _index_samples(dtype):
    x = _make((4, 3), dtype, 6)
    return [
        SampleInput((x,), ((torch.tensor([0, 2, 2]),),)),
        SampleInput((x,), ((slice(None), torch.tensor([1, 0])),)),
        SampleInput((x,), ((x > 0,),)),
    ]


def _as_numpy_index(index):
    if isinstance(index, tuple):
        return tuple(i.numpy() if isinstance(i, torch.Tensor) else i for i in index)
    return index


def _scatter_ref(accumulate):
    def ref(a, index, src, dim):
        out = a.copy()
        grid = list(np.indices(index.shape, sparse=True))
        grid[dim] = index
        src = src[tuple(slice(0, n) for n in index.shape)]
        if accumulate:
            np.add.at(out, tuple(grid), src)
        else:
            out[tuple(grid)] = src
        return out

    return ref


def _conv_ref(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """Direct N-d convolution: a loop over output positions (small samples only)."""
    nd = w.ndim - 2
    stride, padding, dilation = (
        (v,) * nd if isinstance(v, int) else v for v in (stride, padding, dilation)
    )
    x = np.pad(x, ((0, 0), (0, 0)) + tuple((p, p) for p in padding))
    n, c = x.shape[:2]
    c_out, cg = w.shape[:2]
    k = w.shape[2:]
    out = [(x.shape[2 + i] - dilation[i] * (k[i] - 1) - 1) // stride[i] + 1 for i in range(nd)]
    result = np.zeros((n, c_out) + tuple(out))
    for o in range(c_out):
        g = o // (c_out // groups)
        for pos in np.ndindex(*out):
            window = x[
                (slice(None), slice(g * cg, (g + 1) * cg))
                + tuple(
                    slice(p * s, p * s + d * (kk - 1) + 1, d)
                    for p, s, d, kk in zip(pos, stride, dilation, k)
                )
            ]
            result[(slice(None), o) + pos] = np.sum(window * w[o], axis=tuple(range(1, nd + 2)))
        if b is not None:
            result[:, o] += b[o]
    return result


def _pool_ref(kind, nd):
    def ref(x, kernel, stride=None, padding=0, *rest):
        kernel = (kernel,) * nd if isinstance(kernel, int) else kernel
        stride = (
            kernel if stride is None else ((stride,) * nd if isinstance(stride, int) else stride)
        )
        padding = (padding,) * nd if isinstance(padding, int) else padding
        fill = -np.inf if kind == "max" else 0.0
        xp = np.pad(x, ((0, 0), (0, 0)) + tuple((p, p) for p in padding), constant_values=fill)
        out = [(x.shape[2 + i] + 2 * padding[i] - kernel[i]) // stride[i] + 1 for i in range(nd)]
        result = np.zeros(x.shape[:2] + tuple(out))
        for pos in np.ndindex(*out):
            window = xp[
                (slice(None), slice(None))
                + tuple(slice(p * s, p * s + k) for p, s, k in zip(pos, stride, kernel))
            ]
            axes = tuple(range(2, 2 + nd))
            result[(slice(None), slice(None)) + pos] = (
                window.max(axis=axes) if kind == "max" else window.mean(axis=axes)
            )
        return result

    return ref


def _cell_samples(gates: int, states: int = 1):
    """The samples of a recurrent cell with 4 hidden units: an input (2, 3), ``states``
    states (2, 4) and the weights of ``gates`` gates, (4 * gates, 3) and (4 * gates, 4)."""

    def samples(d):
        state = [_make((2, 4), d, 2 + k) for k in range(states)]
        weights = [_make((4 * gates, 3), d, 4), _make((4 * gates, 4), d, 5)]
        return [SampleInput((_make((2, 3), d, 1), *state, *weights))]

    return samples


def _spd(n, dtype):
    """A well-conditioned symmetric positive-definite matrix."""
    a = _make((n, n), dtype, 4)
    return a @ a.mT + torch.eye(n, dtype=dtype) * n


def _square_samples(dtype):
    return [
        SampleInput((_spd(3, dtype) - torch.eye(3, dtype=dtype),)),
        SampleInput((_make((2, 3, 3), dtype, 10) + torch.eye(3, dtype=dtype) * 3,)),
    ]


def _index_put(x, value, index):
    y = x.clone()
    y[index] = value
    return y


def _index_put_ref(x, value, index):
    y = x.copy()
    y[_as_numpy_index(index)] = value
    return y


def _index_put_samples(dtype):
    x = _make((4, 3), dtype, 7)
    return [
        SampleInput((x, _make((3,), dtype, 8)), ((torch.tensor([1, 3]), slice(None)),)),
        SampleInput((x, _make((), dtype, 9)), ((slice(1, 3), 0),)),
    ]


op_db: list[OpInfo] = [
    _binary("add", torch.add, np.add),
    _binary("sub", torch.sub, np.subtract),
    _binary("mul", torch.mul, np.multiply),
    _binary("div", torch.div, np.true_divide, FLOATING),
    _binary("remainder", torch.remainder, np.remainder, FLOATING + INTEGRAL, True, True),
    _binary("floor_divide", torch.floor_divide, np.floor_divide, FLOATING + INTEGRAL, False, True),
    # recorded for autograd, but gradcheck does not apply: heaviside's backward raises (as
    # PyTorch's), nextafter's is PyTorch's convention (identity / zero), not a derivative
    _binary("nextafter", torch.nextafter, np.nextafter, FLOATING, False),
    _binary("heaviside", torch.heaviside, np.heaviside, FLOATING, False),
    _binary("pow", torch.pow, np.power, FLOATING, True, True),
    _binary("eq", torch.eq, np.equal, differentiable=False),
    _binary("ne", torch.ne, np.not_equal, differentiable=False),
    _binary("lt", torch.lt, np.less, differentiable=False),
    _binary("le", torch.le, np.less_equal, differentiable=False),
    _binary("gt", torch.gt, np.greater, differentiable=False),
    _binary("ge", torch.ge, np.greater_equal, differentiable=False),
    _binary("bitwise_and", torch.bitwise_and, np.bitwise_and, INTEGRAL, False),
    _binary("bitwise_or", torch.bitwise_or, np.bitwise_or, INTEGRAL, False),
    _binary("bitwise_xor", torch.bitwise_xor, np.bitwise_xor, INTEGRAL, False),
    _binary("bitwise_left_shift", torch.bitwise_left_shift, np.left_shift, INTEGRAL, False),
    _binary("bitwise_right_shift", torch.bitwise_right_shift, np.right_shift, INTEGRAL, False),
    _binary("logical_and", torch.logical_and, np.logical_and, differentiable=False),
    _binary("logical_or", torch.logical_or, np.logical_or, differentiable=False),
    _binary("logical_xor", torch.logical_xor, np.logical_xor, differentiable=False),
    _unary("neg", torch.neg, np.negative, FLOATING + INTEGRAL),
    _unary("abs", torch.abs, np.abs, FLOATING + INTEGRAL),
    _unary("sign", torch.sign, np.sign, FLOATING + INTEGRAL),
    _unary("exp", torch.exp, np.exp),
    _unary("log", torch.log, np.log, positive=True),
    _unary("bitwise_not", torch.bitwise_not, np.invert, INTEGRAL, False),
    _unary("sqrt", torch.sqrt, np.sqrt, positive=True),
    _unary("rsqrt", torch.rsqrt, lambda a: 1 / np.sqrt(a), positive=True),
    _unary("expm1", torch.expm1, np.expm1),
    _unary("log1p", torch.log1p, np.log1p, positive=True),
    _unary("log2", torch.log2, np.log2, positive=True),
    _unary("log10", torch.log10, np.log10, positive=True),
    _unary("sin", torch.sin, np.sin),
    _unary("cos", torch.cos, np.cos),
    _unary("tan", torch.tan, np.tan, domain=(-1.2, 1.2)),
    _unary("asin", torch.asin, np.arcsin, domain=(-0.9, 0.9)),
    _unary("acos", torch.acos, np.arccos, domain=(-0.9, 0.9)),
    _unary("atan", torch.atan, np.arctan),
    _unary("sinh", torch.sinh, np.sinh),
    _unary("cosh", torch.cosh, np.cosh),
    _unary("tanh", torch.tanh, np.tanh),
    _unary("asinh", torch.asinh, np.arcsinh),
    _unary("acosh", torch.acosh, np.arccosh, domain=(1.2, 3.0)),
    _unary("atanh", torch.atanh, np.arctanh, domain=(-0.9, 0.9)),
    _unary("sigmoid", torch.sigmoid, lambda a: 1 / (1 + np.exp(-a))),
    _unary("logit", torch.logit, lambda a: np.log(a / (1 - a)), domain=(0.1, 0.9)),
    _unary("erf", torch.erf, _special_ref("erf")),
    _unary("erfc", torch.erfc, _special_ref("erfc")),
    _unary("erfinv", torch.erfinv, _special_ref("erfinv"), domain=(-0.9, 0.9)),
    _unary("lgamma", torch.lgamma, _special_ref("lgamma"), positive=True),
    OpInfo(
        "digamma",
        torch.digamma,
        _special_ref("digamma"),
        _unary_samples(True),
        supports_gradgrad=False,
    ),
    _unary("reciprocal", torch.reciprocal, lambda a: 1 / a, positive=True),
    _unary("square", torch.square, np.square, FLOATING + INTEGRAL),
    _unary("floor", torch.floor, np.floor),
    _unary("ceil", torch.ceil, np.ceil),
    _unary("trunc", torch.trunc, np.trunc),
    _unary("frac", torch.frac, lambda a: a - np.trunc(a)),
    _unary("round", torch.round, np.round),
    _unary("nan_to_num", torch.nan_to_num, np.nan_to_num),
    _binary("maximum", torch.maximum, np.maximum),
    _binary("minimum", torch.minimum, np.minimum),
    _binary("fmax", torch.fmax, np.fmax),
    _binary("fmin", torch.fmin, np.fmin),
    _binary("atan2", torch.atan2, np.arctan2, FLOATING),
    _binary("hypot", torch.hypot, np.hypot, FLOATING),
    _binary("fmod", torch.fmod, np.fmod, FLOATING + INTEGRAL, True, True),
    OpInfo(
        "where",
        lambda x, c, y: torch.where(c, x, y),
        lambda a, c, b: np.where(c, a, b),
        _ternary_samples(lambda d: (_make((3, 4), d, 12) > 0, _make((4,), d, 13))),
    ),
    OpInfo(
        "clamp",
        lambda x, lo, hi: torch.clamp(x, lo, hi),
        lambda a, lo, hi: np.minimum(np.maximum(a, lo), hi),
        _ternary_samples(
            lambda d: (_make((4,), d, 14, domain=(-2, -0.5)), _make((3, 1), d, 15, domain=(0.5, 2)))
        ),
    ),
    OpInfo(
        "lerp",
        torch.lerp,
        lambda a, b, w: a + w * (b - a),
        _ternary_samples(lambda d: (_make((4,), d, 16), _make((3, 4), d, 17, domain=(0, 1)))),
    ),
    OpInfo(
        "addcmul",
        lambda x, a, b: torch.addcmul(x, a, b, value=0.5),
        lambda x, a, b: x + 0.5 * a * b,
        _ternary_samples(lambda d: (_make((4,), d, 18), _make((3, 1), d, 19))),
    ),
    OpInfo(
        "addcdiv",
        lambda x, a, b: torch.addcdiv(x, a, b, value=2),
        lambda x, a, b: x + 2 * a / b,
        _ternary_samples(lambda d: (_make((4,), d, 20), _make((3, 1), d, 21, True))),
    ),
    OpInfo(
        "prod",
        torch.prod,
        _numpy_reduce(np.prod),
        lambda d: [
            SampleInput((_make((2, 3, 4), d, 4),)),
            SampleInput((_make((2, 3, 4), d, 4),), (1,)),
            SampleInput((_make((3, 4), d, 4) * (torch.arange(4.0) != 2).to(d),), (1, True)),
        ],
    ),
    OpInfo("amax", torch.amax, _numpy_reduce(np.max), _reduction_samples),
    OpInfo("amin", torch.amin, _numpy_reduce(np.min), _reduction_samples),
    OpInfo(
        "var",
        lambda x, *a, **k: torch.var(x, *a, **k),
        lambda a, dim=None, keepdim=False: np.var(a, axis=dim, keepdims=keepdim, ddof=1),
        lambda d: [
            SampleInput((_make((2, 3, 4), d, 4),)),
            SampleInput((_make((2, 3, 4), d, 4),), (1,)),
            SampleInput((_make((2, 3, 4), d, 4),), ((0, 2),), {"keepdim": True}),
        ],
    ),
    OpInfo(
        "logsumexp",
        torch.logsumexp,
        lambda a, dim, keepdim=False: np.log(np.sum(np.exp(a), axis=dim, keepdims=keepdim)),
        lambda d: [
            SampleInput((_make((2, 3, 4), d, 4),), (1,)),
            SampleInput((_make((2, 3, 4), d, 4),), ((0, 2), True)),
        ],
    ),
    OpInfo(
        "cumsum",
        torch.cumsum,
        np.cumsum,
        lambda d: [
            SampleInput((_make((3, 4), d, 4),), (1,)),
            SampleInput((_make((3, 4), d, 4),), (0,)),
        ],
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "cumprod",
        torch.cumprod,
        np.cumprod,
        lambda d: [SampleInput((_make((3, 4), d, 4, True),), (1,))],
    ),
    OpInfo(
        "linalg_vector_norm",
        torch.linalg.vector_norm,
        lambda a, ord=2, dim=None, keepdim=False: (
            np.linalg.norm(a.reshape(-1) if dim is None else a, ord, dim, keepdim)
            if dim is None or isinstance(dim, int)
            else np.sum(np.abs(a) ** ord, axis=dim, keepdims=keepdim) ** (1 / ord)
        ),
        lambda d: [
            SampleInput((_make((2, 3), d, 4),)),
            SampleInput((_make((2, 3), d, 4),), (1, 1)),
            SampleInput((_make((2, 3), d, 4),), (3, (0, 1))),
            SampleInput((_make((2, 3), d, 4),), (float("inf"), 1)),
        ],
    ),
    OpInfo(
        "gather",
        lambda x, i, d: torch.gather(x, d, i),
        lambda a, i, d: np.take_along_axis(a, i, d),
        lambda d: [
            SampleInput((_make((3, 4), d, 4), torch.tensor([[0, 2], [1, 1], [3, 0]])), (1,))
        ],
    ),
    OpInfo(
        "scatter",
        lambda x, i, s, d: torch.scatter(x, d, i, s),
        _scatter_ref(False),
        lambda d: [
            SampleInput(
                (_make((3, 4), d, 4), torch.tensor([[0, 2], [1, 3]]), _make((2, 2), d, 5)), (1,)
            )
        ],
    ),
    OpInfo(
        "scatter_add",
        lambda x, i, s, d: torch.scatter_add(x, d, i, s),
        _scatter_ref(True),
        lambda d: [
            SampleInput(
                (_make((3, 4), d, 4), torch.tensor([[0, 0, 1], [2, 2, 2]]), _make((2, 3), d, 5)),
                (0,),
            )
        ],
    ),
    OpInfo(
        "flip",
        torch.flip,
        np.flip,
        lambda d: [SampleInput((_make((2, 3, 4), d, 4),), ((0, 2),))],
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "cat",
        lambda *ts: torch.cat(ts, 1),
        lambda *arrays: np.concatenate(arrays, 1),
        lambda d: [SampleInput((_make((2, 3), d, 1), _make((2, 1), d, 2), _make((2, 2), d, 3)))],
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "repeat",
        lambda x, r: x.repeat(*r),
        lambda a, r: np.tile(a, r),
        lambda d: [SampleInput((_make((2, 3), d, 1),), ((2, 1, 2),))],
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "roll",
        torch.roll,
        np.roll,
        lambda d: [SampleInput((_make((3, 4), d, 1),), ((1, -2), (0, 1)))],
        FLOATING + INTEGRAL,
    ),
    OpInfo(
        "tril",
        torch.tril,
        np.tril,
        lambda d: [
            SampleInput((_make((3, 4), d, 1),)),
            SampleInput((_make((2, 3, 3), d, 1),), (-1,)),
        ],
    ),
    OpInfo("triu", torch.triu, np.triu, lambda d: [SampleInput((_make((3, 4), d, 1),), (1,))]),
    OpInfo(
        "diag",
        torch.diag,
        np.diag,
        lambda d: [
            SampleInput((_make((3,), d, 1),)),
            SampleInput((_make((3, 4), d, 1),), (1,)),
            SampleInput((_make((4, 3), d, 1),), (-1,)),
        ],
    ),
    OpInfo(
        "einsum",
        lambda *ts: torch.einsum("ij,jk->ik", *ts),
        lambda *arrays: np.einsum("ij,jk->ik", *arrays),
        lambda d: [SampleInput((_make((2, 3), d, 1), _make((3, 4), d, 2)))],
    ),
    OpInfo(
        "convolution",
        lambda x, w, b, *a: torch.convolution(x, w, b, *a),
        _conv_ref,
        lambda d: [
            SampleInput((_make((2, 3, 7), d, 1), _make((4, 3, 3), d, 2), _make((4,), d, 3))),
            SampleInput(
                (_make((1, 4, 6, 5), d, 1), _make((6, 2, 3, 2), d, 2), _make((6,), d, 3)),
                ((2, 1), (1, 0), (1, 2), 2),
            ),
            SampleInput(
                (_make((1, 2, 4, 4, 3), d, 1), _make((2, 2, 2, 2, 2), d, 2), _make((2,), d, 3)),
                (1, 1, 1, 1),
            ),
        ],
        supports_gradgrad=False,
    ),
    OpInfo(
        "max_pool",
        lambda x, *a: torch.max_pool2d(x, *a),
        _pool_ref("max", 2),
        lambda d: [
            SampleInput((_make((2, 2, 6, 5), d, 1),), (2,)),
            SampleInput((_make((1, 3, 7, 7), d, 1),), ((3, 2), (2, 1), (1, 0))),
        ],
        supports_gradgrad=False,
    ),
    OpInfo(
        "avg_pool",
        lambda x, *a: torch._ops.nn_kernels.avg_pool2d(x, *a),
        _pool_ref("avg", 2),
        lambda d: [
            SampleInput((_make((2, 2, 6, 5), d, 1),), (2,)),
            SampleInput((_make((1, 3, 7, 7), d, 1),), ((3, 2), (2, 1))),
        ],
        supports_gradgrad=False,
    ),
    OpInfo(
        "softmax",
        torch.softmax,
        lambda a, d: np.exp(a) / np.exp(a).sum(d, keepdims=True),
        lambda d: [
            SampleInput((_make((3, 4), d, 1),), (1,)),
            SampleInput((_make((3, 4), d, 1),), (0,)),
        ],
    ),
    OpInfo(
        "log_softmax",
        torch.log_softmax,
        lambda a, d: a - np.log(np.exp(a).sum(d, keepdims=True)),
        lambda d: [SampleInput((_make((3, 4), d, 1),), (1,))],
    ),
    OpInfo(
        "layer_norm",
        lambda x, w, b: torch.layer_norm(x, (4,), w, b),
        lambda x, w, b: (
            (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * w + b
        ),
        lambda d: [SampleInput((_make((3, 4), d, 1), _make((4,), d, 2), _make((4,), d, 3)))],
    ),
    OpInfo(
        "batch_norm",
        lambda x, w, b: torch.batch_norm(x, None, None, w, b, True),
        lambda x, w, b: (
            (x - x.mean((0, 2), keepdims=True))
            / np.sqrt(x.var((0, 2), keepdims=True) + 1e-5)
            * w[None, :, None]
            + b[None, :, None]
        ),
        lambda d: [SampleInput((_make((4, 3, 5), d, 1), _make((3,), d, 2), _make((3,), d, 3)))],
    ),
    OpInfo(
        "group_norm",
        lambda x: torch.group_norm(x, 2),
        lambda x: (
            (x.reshape(2, 2, -1) - x.reshape(2, 2, -1).mean(-1, keepdims=True))
            / np.sqrt(x.reshape(2, 2, -1).var(-1, keepdims=True) + 1e-5)
        ).reshape(x.shape),
        lambda d: [SampleInput((_make((2, 4, 3), d, 1),))],
    ),
    OpInfo(
        "embedding",
        lambda w, i: torch.embedding(w, i),
        lambda w, i: w[i],
        lambda d: [SampleInput((_make((5, 3), d, 1), torch.tensor([[0, 4], [2, 0]])))],
    ),
    OpInfo("inv", torch.linalg.inv, np.linalg.inv, _square_samples),
    OpInfo("det", torch.linalg.det, np.linalg.det, _square_samples),
    OpInfo(
        "_slogdet",
        lambda a: torch.cat([t.reshape(-1) for t in torch.linalg.slogdet(a)]),
        lambda a: np.concatenate([t.reshape(-1) for t in np.linalg.slogdet(a)]),
        _square_samples,
    ),
    OpInfo(
        "solve",
        torch.linalg.solve,
        np.linalg.solve,
        lambda d: [
            SampleInput((_spd(3, d), _make((3, 2), d, 5))),
            SampleInput((_spd(3, d), _make((3,), d, 6))),
        ],
    ),
    OpInfo(
        # symmetrised inside the op: the factorisation reads one triangle, its gradient
        # is the symmetric one
        "cholesky",
        lambda a: torch.linalg.cholesky(a @ a.mH + 3 * torch.eye(3, dtype=a.dtype)),
        lambda a: np.linalg.cholesky(a @ a.T + 3 * np.eye(3)),
        lambda d: [SampleInput((_make((3, 3), d, 4),))],
    ),
    OpInfo(
        "_eigh_values",
        lambda a: torch.linalg.eigh(a + a.mH).eigenvalues,
        lambda a: np.linalg.eigvalsh(a + a.T),
        lambda d: [SampleInput((_make((3, 3), d, 7),))],
    ),
    OpInfo(
        "_eigh_vectors",
        lambda a: torch.linalg.eigh(a + a.mH).eigenvectors,
        lambda a: np.linalg.eigh(a + a.T)[1],
        lambda d: [SampleInput((_make((3, 3), d, 7),))],
    ),
    OpInfo(
        "_svd_values",
        torch.linalg.svdvals,
        lambda a: np.linalg.svd(a, compute_uv=False),
        lambda d: [SampleInput((_make((4, 3), d, 8),)), SampleInput((_make((2, 3), d, 9),))],
    ),
    # the multi-output decompositions: their outputs flattened into one tensor; absolute
    # values where a sign (or phase) of the vectors is arbitrary
    OpInfo(
        "_svd",
        lambda a: torch.cat([t.abs().reshape(-1) for t in torch.linalg.svd(a, False)]),
        None,
        lambda d: [SampleInput((_make((4, 3), d, 8),)), SampleInput((_make((2, 3), d, 9),))],
    ),
    OpInfo(
        "_qr",
        lambda a: torch.cat([t.reshape(-1) for t in torch.linalg.qr(a)]),
        None,
        lambda d: [SampleInput((_make((4, 3), d, 8),)), SampleInput((_make((2, 3), d, 9),))],
    ),
    OpInfo(
        "_eig",
        lambda a: torch.cat([t.abs().reshape(-1) for t in torch.linalg.eig(a)]),
        None,
        lambda d: [SampleInput((_make((3, 3), d, 10),))],
        # second derivatives through the complex eigenvectors still differ from PyTorch's
        supports_gradgrad=False,
    ),
    OpInfo(
        "_lu",
        lambda a: torch.cat([t.reshape(-1) for t in torch.linalg.lu(a)[1:]]),
        None,
        lambda d: [SampleInput((_make((4, 3), d, 8),)), SampleInput((_make((2, 3), d, 9),))],
    ),
    OpInfo(
        "_lu_factor",
        lambda a: torch.linalg.lu_factor(a).LU,
        None,
        lambda d: [SampleInput((_make((3, 3), d, 10),)), SampleInput((_make((2, 4, 3), d, 9),))],
    ),
    OpInfo(
        "_pinv",
        lambda a: torch.linalg.pinv(a, rtol=1e-12),
        None,
        lambda d: [SampleInput((_make((4, 3), d, 8),)), SampleInput((_make((2, 2, 3), d, 9),))],
    ),
    # values are checked against PyTorch's in the golden expressions; gradients here
    OpInfo(
        "adaptive_avg_pool",
        lambda x: torch._ops.resampling.adaptive_avg_pool(x, (2, 3)),
        None,
        lambda d: [SampleInput((_make((2, 2, 5, 7), d, 1),))],
    ),
    OpInfo(
        "adaptive_max_pool",
        lambda x: torch._ops.resampling.adaptive_max_pool(x, (2, 3)),
        None,
        lambda d: [SampleInput((_make((2, 2, 5, 7), d, 1),))],
        supports_gradgrad=False,
    ),
    OpInfo(
        "interpolate",
        lambda x, m: torch._ops.resampling.interpolate(
            x, size=(3, 5), mode=m, align_corners=None if m == "nearest" else False
        ),
        None,
        lambda d: [
            SampleInput((_make((1, 2, 4, 3), d, 1),), (m,))
            for m in ("nearest", "bilinear", "bicubic")
        ],
    ),
    OpInfo(
        "interpolate_antialias",
        lambda x, m, a, size: torch._ops.resampling.interpolate(
            x, size=size, mode=m, align_corners=a, antialias=True
        ),
        None,
        lambda d: [
            SampleInput((_make((1, 2, 7, 9), d, 1),), (m, a, size))
            for m in ("bilinear", "bicubic")
            for a in (False, True)
            for size in ((3, 4), (9, 5))
        ],
    ),
    OpInfo(
        "convolution_transpose",
        lambda x, w, b, *a: torch.conv_transpose2d(x, w, b, *a),
        None,
        lambda d: [
            SampleInput(
                (_make((2, 4, 3, 4), d, 1), _make((4, 3, 3, 2), d, 2), _make((6,), d, 3)),
                (2, 1, 1, 2),
            ),
            SampleInput(
                (_make((1, 2, 3, 3), d, 1), _make((2, 3, 2, 2), d, 2), _make((3,), d, 3)),
                (1, 0, 0, 1, 2),
            ),
        ],
        supports_gradgrad=False,
    ),
    OpInfo(
        "embedding_bag",
        lambda w: torch.embedding_bag(
            w, torch.tensor([0, 2, 1, 3, 2]), torch.tensor([0, 2]), False, 1
        )[0],
        None,
        lambda d: [SampleInput((_make((4, 3), d, 1),))],
    ),
    OpInfo(
        "lstm_cell",
        lambda x, h, c, wi, wh: torch.lstm_cell(x, (h, c), wi, wh)[1],
        None,
        _cell_samples(gates=4, states=2),
    ),
    OpInfo("gru_cell", torch.gru_cell, None, _cell_samples(gates=3)),
    OpInfo("rnn_tanh_cell", torch.rnn_tanh_cell, None, _cell_samples(gates=1)),
    OpInfo("rnn_relu_cell", torch.rnn_relu_cell, None, _cell_samples(gates=1)),
    OpInfo(
        "affine_grid_generator",
        lambda t: torch.affine_grid_generator(t, (2, 1, 3, 4), False),
        None,
        lambda d: [SampleInput((_make((2, 2, 3), d, 1),))],
    ),
    OpInfo(
        "grid_sampler",
        lambda x, g: torch.grid_sampler(x, g * 0.9, 0, 1, False),
        None,
        lambda d: [
            SampleInput(
                (_make((1, 2, 4, 5), d, 1), _make((1, 3, 2, 2), d, 2, domain=(-0.95, 0.95)))
            )
        ],
    ),
    OpInfo("sum", torch.sum, _numpy_reduce(np.sum), _reduction_samples, FLOATING),
    OpInfo("mean", torch.mean, _numpy_reduce(np.mean), _reduction_samples, FLOATING),
    OpInfo(
        "matmul",
        torch.matmul,
        np.matmul,
        lambda d: [
            SampleInput((_make((3, 4), d, 1), _make((4, 2), d, 2))),
            SampleInput((_make((4,), d, 1), _make((4, 2), d, 2))),
            SampleInput((_make((2, 3, 4), d, 1), _make((4,), d, 2))),
            SampleInput((_make((2, 1, 3, 4), d, 1), _make((5, 4, 2), d, 2))),
        ],
        FLOATING,
    ),
    OpInfo("view", lambda x, s: x.contiguous().view(s), lambda a, s: a.reshape(s), _view_samples),
    OpInfo("reshape", torch.reshape, np.reshape, _view_samples),
    OpInfo(
        "permute",
        torch.permute,
        np.transpose,
        lambda d: [SampleInput((_make((2, 3, 4), d, 1),), ((2, 0, 1),))],
    ),
    OpInfo(
        "expand",
        lambda x, s: x.expand(s),
        np.broadcast_to,
        lambda d: [SampleInput((_make((3, 1), d, 1),), ((2, 3, 4),))],
    ),
    OpInfo(
        "as_strided",
        torch.as_strided,
        lambda a, size, stride: np.lib.stride_tricks.as_strided(
            a, size, tuple(s * a.itemsize for s in stride)
        ),
        lambda d: [
            SampleInput((_make((12,), d, 1),), ((3, 3), (3, 1))),
            SampleInput((_make((12,), d, 1),), ((3, 3), (1, 1))),
        ],
    ),
    OpInfo("index", lambda x, i: x[i], lambda a, i: a[_as_numpy_index(i)], _index_samples),
    OpInfo("index_put_", _index_put, _index_put_ref, _index_put_samples),
    OpInfo("clone", torch.clone, np.copy, _unary_samples()),
    OpInfo(
        "fill",
        lambda x, v: torch.fill(x, v),
        lambda a, v: np.full_like(a, v),
        lambda d: [
            SampleInput((_make((2, 3), d, 1),), (1.5,)),
            SampleInput((_make((4,), d, 2), _make((), d, 3))),
        ],
        FLOATING + INTEGRAL,
    ),
    # pointwise composites (torch._ops.pointwise_composites)
    _unary("clamp_min", lambda x: torch.clamp_min(x, -0.5), lambda a: np.maximum(a, -0.5)),
    _unary("clamp_max", lambda x: torch.clamp_max(x, 0.5), lambda a: np.minimum(a, 0.5)),
    _unary("sgn", torch.sgn, np.sign, differentiable=False),
    _unary("exp2", torch.exp2, np.exp2),
    _unary("deg2rad", torch.deg2rad, np.deg2rad),
    _unary("rad2deg", torch.rad2deg, np.rad2deg),
    _unary("angle", torch.angle, np.angle),
    _unary("signbit", torch.signbit, np.signbit, differentiable=False),
    _unary("isreal", torch.isreal, np.isreal, differentiable=False),
    _binary("xlogy", torch.xlogy, lambda a, b: a * np.log(b), FLOATING, positive=True),
    _binary("logaddexp", torch.logaddexp, np.logaddexp, FLOATING),
    _binary("logaddexp2", torch.logaddexp2, np.logaddexp2, FLOATING),
    _binary("copysign", torch.copysign, np.copysign, FLOATING),
    _binary(
        "float_power",
        torch.float_power,
        lambda a, b: np.power(a.astype(np.float64), b),
        FLOATING,
        positive=True,
    ),
    _binary(
        "isclose",
        lambda x, y: torch.isclose(x, y, rtol=0.5),
        lambda a, b: np.isclose(a, b, rtol=0.5),
        FLOATING + INTEGRAL,
        differentiable=False,
    ),
    _binary(
        "allclose",
        lambda x, y: torch.tensor(torch.allclose(x, y, atol=3.0)),
        lambda a, b: np.array(np.allclose(a, b, atol=3.0)),
        FLOATING,
        differentiable=False,
    ),
    _binary(
        "equal",
        lambda x, y: torch.tensor(torch.equal(x, x.clone()) and not torch.equal(x, y)),
        lambda a, b: np.array(True),
        FLOATING,
        differentiable=False,
    ),
    # the complex views, as round trips through a complex tensor (gradients stay real)
    OpInfo(
        "view_as_complex",
        lambda x: torch.view_as_real(torch.view_as_complex(x)),
        lambda a: a,
        lambda d: [
            SampleInput((_make((3, 2), d, 1),)),
            SampleInput((_make((2, 3, 2), d, 2)[:, ::2],)),
        ],
    ),
    OpInfo(
        "view_as_real",
        lambda x: torch.view_as_real(torch.view_as_complex(x))[..., 1],
        lambda a: a[..., 1],
        lambda d: [SampleInput((_make((4, 2), d, 3),))],
    ),
    # the conjugate and the complex constructor, between real views (gradients stay real)
    OpInfo(
        "conj",
        lambda x: torch.view_as_real(torch.conj(torch.view_as_complex(x))),
        lambda a: a * np.array([1.0, -1.0], dtype=a.dtype),
        lambda d: [SampleInput((_make((3, 2), d, 1),)), SampleInput((_make((2, 2, 2), d, 2),))],
    ),
    OpInfo(
        "complex",
        lambda x, y: torch.view_as_real(torch.complex(x, y)),
        lambda a, b: np.stack(np.broadcast_arrays(a, b), -1),
        lambda d: [
            SampleInput((_make((2, 3), d, 1), _make((2, 3), d, 2))),
            SampleInput((_make((2, 3), d, 3), _make((3,), d, 4))),
        ],
    ),
    # float32 -> float64, and float64 -> a float64 copy (exact, so gradients can be checked)
    OpInfo(
        "_to_copy",
        lambda x: x.to(torch.float64, copy=True),
        lambda a: a.astype(np.float64),
        _unary_samples(),
    ),
    OpInfo(
        "copy_",
        lambda x, y: torch.zeros_like(x).copy_(y) + x * 0,
        lambda a, b: np.broadcast_to(b, a.shape).copy(),
        lambda d: [SampleInput((_make((2, 3), d, 1), _make((3,), d, 2)))],
    ),
]

# the sparse COO ops, built from the helpers above
from ._opinfo_sparse import SPARSE_OPS  # noqa: E402

op_db += SPARSE_OPS

# the math API's later families (index reductions, combining composites, extras)
from ._opinfo_math import MATH_OPS  # noqa: E402

op_db += MATH_OPS

# torch.fft's transforms, frequencies and shifts, against numpy.fft
from ._opinfo_fft import FFT_OPS  # noqa: E402

op_db += FFT_OPS

# grid_sample in every mode and the CTC loss, against point-by-point references
from ._opinfo_losses import entries as _loss_and_sampling_entries  # noqa: E402

op_db += _loss_and_sampling_entries()

#: the differentiable entries PyTorch also differentiates for complex inputs: autograd's
#: tests gradcheck them on complex128 samples (the float64 samples plus imaginary parts)
COMPLEX_GRAD = frozenset(
    """
    add sub mul div neg abs angle pow exp log sqrt rsqrt expm1 log1p log2 log10 exp2 sin cos
    tan asin acos atan sinh cosh tanh asinh acosh atanh sigmoid reciprocal square sinc
    float_power lerp addcmul addcdiv where sum mean prod logsumexp logaddexp logcumsumexp
    cumsum cumprod var
    linalg_vector_norm dist cross kron kron_1d einsum matmul inner vdot addr multi_dot
    matrix_power matrix_exp
    inv det _slogdet solve solve_triangular cholesky cholesky_solve _eigh_values _eig _svd
    _svd_values _qr _lu _lu_factor _pinv householder_product cond tensorinv convolution
    convolution_transpose view reshape permute expand as_strided index index_put_ clone
    _to_copy copy_ fill gather scatter scatter_add flip cat repeat roll tril triu diag
    diag_embed block_diag cartesian_prod combinations repeat_interleave take_along_dim
    index_add index_copy index_fill index_put_accumulate masked_scatter put_accumulate
    slice_scatter diagonal_scatter pad diff cov corrcoef trapezoid cumulative_trapezoid
    renorm pairwise_distance
    """.split()
)
for _info in op_db:
    if _info.name in COMPLEX_GRAD and _info.differentiable:
        _info.supports_complex_grad = True
