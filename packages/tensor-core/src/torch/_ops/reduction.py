"""Reductions: sums and means, products, extrema (with indices), statistics, norms,
cumulative ops, logical reductions, order statistics. Integer inputs follow PyTorch:
``sum``/``prod``/``cumsum`` of integers give int64, ``mean``/``std`` refuse them."""

from __future__ import annotations

import builtins  # this module defines sum, max, min, all, any
import math
import warnings

import numpy as np

from .. import _dtype, _fastpath, _return_types
from .._native import native_sum
from .._tensor import Tensor
from ._dispatch import (
    SparseLayoutError,
    check_tensor,
    defop,
    kernel_refusal,
    record,
    refuse_complex,
    register_op,
    sparse_kernel,
    warn_once,
    wrap_array,
)

__all__ = [
    "sum",
    "mean",
    "prod",
    "amax",
    "amin",
    "max",
    "min",
    "argmax",
    "argmin",
    "std",
    "var",
    "std_mean",
    "var_mean",
    "logsumexp",
    "cumsum",
    "cumprod",
    "cummax",
    "cummin",
    "all",
    "any",
    "count_nonzero",
    "norm",
    "vector_norm",
    "median",
    "mode",
    "kthvalue",
    "nansum",
    "nanmean",
    "aminmax",
]


def _refuses_complex(name: str):
    return (RuntimeError, f"{name}(): does not support complex input")


_NANSUM_REFUSES_COMPLEX = (RuntimeError, "nansum on CPU does not support complex inputs")


#: the schema of a reduction over dims with an accumulation dtype (sum, mean)
_OVER_DIMS = (
    "{}(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
)


def _register(name, function, signature, differentiable=True, saved=("dim", "keepdim")):
    return register_op(
        name, function, signature, "reduction", differentiable=differentiable, saved=saved
    )


def normalize_dims(input: Tensor, dim) -> tuple[int, ...]:
    """``dim`` (None, an int, or a sequence of ints) as a sorted tuple of wrapped dims."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(input._np.ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    wrapped = tuple(input._wrap_dim(d) for d in dims)
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError(f"dim {wrapped} appears multiple times in the list of dims")
    if input._np.ndim == 0:
        return ()  # a 0-dim tensor's dim 0 (or -1) is its one element: nothing to reduce
    return tuple(sorted(wrapped))


def _integral_to_long(dtype):
    return dtype if dtype.is_floating_point or dtype.is_complex else _dtype.int64


def _floating_only(input: Tensor, name: str, dtype=None):
    target = dtype or input._dtype
    if not (target.is_floating_point or target.is_complex):
        raise RuntimeError(
            f"{name}(): could not infer output dtype. Input dtype must be either "
            f"a floating point or complex dtype. Got: {input._dtype._legacy[:-6]}"
        )
    return target


_wrap = wrap_array


# ------------------------------------------------------------------------ sums


@defop("sum", method=True, out=True, fast={"Tensor.sum": _fastpath.sum_all})
def sum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Sum of ``input`` over ``dim`` (all dims by default). Integer and bool inputs sum
    to ``torch.int64``.

    Examples::

        >>> x = torch.tensor([[1, 2], [3, 4]])
        >>> torch.sum(x), torch.sum(x, 0), torch.sum(x, dim=1, keepdim=True)
        (tensor(10), tensor([4, 6]), tensor([[3],
                [7]]))
    """
    check_tensor(input, "sum")
    try:
        dims = normalize_dims(input, dim)
    except SparseLayoutError as error:
        return sparse_kernel("sum", error)(input, dim, keepdim, dtype)
    dtype = dtype or _integral_to_long(input._dtype)
    if dtype is input._dtype and len(dims) == input._np.ndim:
        big = native_sum(input._np)  # PyTorch's order, or threaded when big
        if big is not None:
            result = np.full((1,) * input._np.ndim if keepdim else (), big, dtype.np_dtype)
            return record(SUM, (input,), _wrap(result, dtype), (dims, keepdim))
    result = np.sum(input._np, axis=dims, keepdims=keepdim, dtype=dtype.np_dtype)
    return record(SUM, (input,), _wrap(result, dtype), (dims, keepdim))


SUM = _register("sum", sum, _OVER_DIMS.format("sum"))


@defop("nansum", method=True, out=True, refuses_complex=_NANSUM_REFUSES_COMPLEX)
def nansum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Sum treating NaN as zero."""
    mask = np.isnan(input._np) if input._dtype.is_floating_point else None
    if mask is None:
        return sum(input, dim, keepdim, dtype=dtype)
    from .ternary import where

    return sum(where(Tensor._from_array(mask, _dtype.bool_), 0.0, input), dim, keepdim, dtype=dtype)


@defop("mean", method=True, out=True)
def mean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Mean of ``input`` over ``dim`` (all dims by default); needs a floating or complex
    dtype.

    Examples::

        >>> torch.mean(torch.tensor([[1.0, 2.0], [3.0, 5.0]]), dim=0)
        tensor([2.0000, 3.5000])
    """
    check_tensor(input, "mean")
    target = _floating_only(input, "mean", dtype)
    dims = normalize_dims(input, dim)
    with np.errstate(all="ignore"):
        result = np.mean(input._np, axis=dims, keepdims=keepdim, dtype=target.np_dtype)
    return record(MEAN, (input,), _wrap(result, target), (dims, keepdim))


MEAN = _register("mean", mean, _OVER_DIMS.format("mean"))


@defop("nanmean", method=True, out=True, refuses_complex=_NANSUM_REFUSES_COMPLEX)
def nanmean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Mean over the non-NaN elements."""
    if not (input._dtype.is_floating_point or input._dtype.is_complex):
        raise RuntimeError(
            "nanmean(): expected input to have floating point or complex dtype but got "
            f"{input._dtype._legacy[:-6]}"
        )
    _floating_only(input, "nanmean", dtype)
    from .unary_math import isnan

    present = (~isnan(input)).to(input._dtype)
    return nansum(input, dim, keepdim, dtype=dtype) / sum(present, dim, keepdim)


@defop("prod", method=True, out=True)
def prod(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Product of the elements (over one ``dim`` if given); integers give int64."""
    check_tensor(input, "prod")
    dims = normalize_dims(input, dim)
    dtype = dtype or _integral_to_long(input._dtype)
    with np.errstate(all="ignore"):
        result = np.prod(input._np, axis=dims, keepdims=keepdim, dtype=dtype.np_dtype)
    return record(PROD, (input,), _wrap(result, dtype), (dims, keepdim))


PROD = _register("prod", prod, "prod(Tensor self, int? dim=None, bool keepdim=False) -> Tensor")


# --------------------------------------------------------------------- extrema


def _nan_aware(fn, array, axis, keepdims):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(array, axis=axis, keepdims=keepdims)


def _check_nonempty(input: Tensor, name: str, dims) -> None:
    if input._np.size == 0 and builtins.any(input._np.shape[d] == 0 for d in dims):
        raise IndexError(
            f"{name}(): Expected reduction dim {dims[0] if dims else 0} to have non-zero size."
        )


def _check_specified(input: Tensor, name: str, dim) -> None:
    if input._np.size == 0 and (dim is None or dim == ()):
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() "
            f"== 0. Specify the reduction dim with the 'dim' argument."
        )


@defop("amax", method=True, out=True, refuses_complex=kernel_refusal("max_values_cpu"))
def amax(input: Tensor, dim=(), keepdim: bool = False) -> Tensor:
    """The largest value over ``dim`` (all dims by default); NaN if any is NaN."""
    return _extreme_values("amax", np.max, AMAX, input, dim, keepdim)


@defop("amin", method=True, out=True, refuses_complex=kernel_refusal("min_values_cpu"))
def amin(input: Tensor, dim=(), keepdim: bool = False) -> Tensor:
    """The smallest value over ``dim`` (all dims by default); NaN if any is NaN."""
    return _extreme_values("amin", np.min, AMIN, input, dim, keepdim)


def _extreme_values(name: str, reduce, op, input: Tensor, dim, keepdim: bool) -> Tensor:
    """amax/amin: ``reduce`` (``np.max``/``np.min``) over ``dim``, a NaN propagating."""
    _check_specified(input, name, dim)
    dims = normalize_dims(input, dim)
    _check_nonempty(input, name, dims)
    result = _nan_aware(reduce, input._np, dims, keepdim)
    return record(op, (input,), _wrap(result, input._dtype), (dims, keepdim))


AMAX = _register("amax", amax, "amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor")
AMIN = _register("amin", amin, "amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor")


def _arg_extreme(array: np.ndarray, axis, largest: bool) -> np.ndarray:
    """Index of the first extreme along ``axis``, a NaN counting as the extreme."""
    nan = np.isnan(array) if array.dtype.kind in "fc" else None
    picked = np.argmax(array, axis=axis) if largest else np.argmin(array, axis=axis)
    if nan is not None and nan.any():
        picked = np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), picked)
    return picked


def _with_indices(name, input: Tensor, dim, keepdim, largest: bool):
    d = input._wrap_dim(dim)
    if input._np.ndim and input._np.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    array = input._np if input._np.ndim else input._np.reshape(1)
    indices = _arg_extreme(array, d if input._np.ndim else 0, largest)
    values = np.take_along_axis(
        array, np.expand_dims(indices, d if input._np.ndim else 0), axis=d if input._np.ndim else 0
    )
    if not keepdim or not input._np.ndim:
        values = np.squeeze(values, axis=d if input._np.ndim else 0)
    else:
        indices = np.expand_dims(indices, d)
    return _indexed_result(name, input, values, indices, d, keepdim)


def _indexed_result(name, input, values, indices, d, keepdim):
    index_tensor = _wrap(indices, _dtype.int64)
    value_tensor = record(
        SELECT_ALONG, (input,), _wrap(values, input._dtype), (index_tensor, d, keepdim)
    )
    return getattr(_return_types, name)(value_tensor, index_tensor)


def _select_along(input: Tensor, indices: Tensor, dim: int, keepdim: bool) -> Tensor:
    """The values at ``indices`` along ``dim`` (what max/min/median/... with a dim pick)."""
    idx = indices._np if keepdim else np.expand_dims(indices._np, dim)
    values = np.take_along_axis(input._np, idx, axis=dim)
    if not keepdim:
        values = np.squeeze(values, axis=dim)
    return record(SELECT_ALONG, (input,), _wrap(values, input._dtype), (indices, dim, keepdim))


SELECT_ALONG = _register(
    "_select_along",
    _select_along,
    "_select_along(Tensor self, Tensor indices, int dim, bool keepdim) -> Tensor",
    saved=("indices", "dim", "keepdim"),
)


def _extreme_refusals(name: str) -> dict:
    """max/min's complex refusals: of the whole tensor, and along a dim."""
    return {"": kernel_refusal(f"{name}_all"), "dim": _refuses_complex(name)}


@defop("max", method=True, refuses_complex=_extreme_refusals("max"))
def max(input: Tensor, dim=None, keepdim: bool = False, *, out=None):  # noqa: A001
    """The largest element; with ``dim``, the named tuple ``(values, indices)`` along it;
    with a tensor as second argument, the elementwise ``maximum``.

    Examples::

        >>> x = torch.tensor([[1.0, 3.0], [4.0, 2.0]])
        >>> torch.max(x)
        tensor(4.)
        >>> torch.max(x, 1)
        torch.return_types.max(
        values=tensor([3., 4.]),
        indices=tensor([1, 0]))
    """
    return _extreme("max", input, dim, keepdim, largest=True)


@defop("min", method=True, refuses_complex=_extreme_refusals("min"))
def min(input: Tensor, dim=None, keepdim: bool = False, *, out=None):  # noqa: A001
    """The smallest element; with ``dim``, ``(values, indices)``; with a tensor, the
    elementwise ``minimum``."""
    return _extreme("min", input, dim, keepdim, largest=False)


def _extreme(name: str, input: Tensor, dim, keepdim: bool, largest: bool):
    """max/min's three forms: of everything, along ``dim``, or against another tensor."""
    if isinstance(dim, Tensor):
        from .binary_math import maximum, minimum

        return (maximum if largest else minimum)(input, dim)
    if input._dtype._category == 3:
        refuse_complex(name if dim is None else name + ".dim", input._dtype)
    if dim is None:
        if input._np.size == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return amax(input) if largest else amin(input)
    return _with_indices(name, input, dim, keepdim, largest=largest)


@defop("aminmax", method=True, out=True, refuses_complex=kernel_refusal("aminmax_cpu"))
def aminmax(input: Tensor, *, dim=None, keepdim: bool = False):
    """``(amin, amax)`` in one call."""
    dims = () if dim is None else dim
    return amin(input, dims, keepdim), amax(input, dims, keepdim)


def _arg_extreme_index(name: str, input: Tensor, dim, keepdim: bool, largest: bool) -> Tensor:
    """argmax (``largest``) or argmin: the index of the first extreme element."""
    if input._dtype is _dtype.bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if input._np.size == 0:
            raise IndexError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
            )
        index = _arg_extreme(input._np.reshape(-1), 0, largest)
        result = np.reshape(index, (1,) * input._np.ndim if keepdim else ())
        return _wrap(result, _dtype.int64)
    return _with_indices("max" if largest else "min", input, dim, keepdim, largest=largest).indices


@defop("argmax", method=True, out=True, refuses_complex=_refuses_complex("argmax"))
def argmax(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    """Index of the (first) largest element, of the flattened tensor unless ``dim``."""
    return _arg_extreme_index("argmax", input, dim, keepdim, largest=True)


@defop("argmin", method=True, out=True, refuses_complex=_refuses_complex("argmin"))
def argmin(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    """Index of the (first) smallest element, of the flattened tensor unless ``dim``."""
    return _arg_extreme_index("argmin", input, dim, keepdim, largest=False)


# ------------------------------------------------------------------ statistics


def _correction(dim, unbiased, correction):
    if isinstance(dim, bool):  # std(input, unbiased) overload
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    return dim, correction


@defop("var", method=True, out=True)
def var(
    input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None
) -> Tensor:
    """Variance over ``dim`` with Bessel's ``correction`` (default 1; ``unbiased=False``
    means 0).

    Examples::

        >>> torch.var(torch.tensor([1.0, 2.0, 4.0]))
        tensor(2.3333)
        >>> torch.var(torch.tensor([1.0, 3.0]), correction=0)
        tensor(1.)
    """
    dim, correction = _correction(dim, unbiased, correction)
    if not (input._dtype.is_floating_point or input._dtype.is_complex):
        raise RuntimeError("std and var only support floating point and complex dtypes")
    dims = normalize_dims(input, dim)
    count = math.prod(input._np.shape[d] for d in dims)
    if count - correction <= 0:
        warnings.warn(
            "var(): degrees of freedom is <= 0. Correction should be strictly less "
            "than the reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=2,
        )
    with np.errstate(all="ignore"):
        result = np.var(input._np, axis=dims, keepdims=keepdim, ddof=correction)
    return record(VAR, (input,), _wrap(result, input._dtype.to_real()), (dims, keepdim, correction))


VAR = _register(
    "var",
    var,
    "var.correction(Tensor self, int[1]? dim=None, *, Scalar? "
    "correction=None, bool keepdim=False) -> Tensor",
    saved=("dim", "keepdim", "correction"),
)


@defop("std", method=True, out=True)
def std(
    input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None
) -> Tensor:
    """Standard deviation: the square root of :func:`var`."""
    from .unary_math import sqrt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        variance = var(input, dim, unbiased, keepdim, correction=correction)
    dims = normalize_dims(input, _correction(dim, unbiased, correction)[0])
    count = math.prod(input._np.shape[d] for d in dims)
    if count - _correction(dim, unbiased, correction)[1] <= 0:
        warnings.warn(
            "std(): degrees of freedom is <= 0. Correction should be strictly less "
            "than the reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=2,
        )
    return sqrt(variance)


@defop("var_mean", method=True)
def var_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """``(var, mean)`` over the same dims."""
    dim2, _ = _correction(dim, unbiased, correction)
    return var(input, dim, unbiased, keepdim, correction=correction), mean(input, dim2, keepdim)


@defop("std_mean", method=True)
def std_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """``(std, mean)`` over the same dims."""
    dim2, _ = _correction(dim, unbiased, correction)
    return std(input, dim, unbiased, keepdim, correction=correction), mean(input, dim2, keepdim)


@defop("logsumexp", method=True, out=True)
def logsumexp(input: Tensor, dim, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input)))`` over ``dim``, computed without overflow."""
    dims = normalize_dims(input, dim)
    floating = input._dtype.is_floating_point or input._dtype.is_complex
    dtype = input._dtype if floating else _dtype.get_default_dtype()
    array = input._np.astype(dtype.np_dtype)
    with np.errstate(all="ignore"):
        # complex input: shifted by the largest real part, which bounds |exp|
        peak = (
            np.max(array.real, axis=dims, keepdims=True)
            if array.size
            else np.zeros([1] * array.ndim, array.real.dtype)
        )
        peak = np.where(np.isfinite(peak), peak, 0)
        result = np.log(np.sum(np.exp(array - peak), axis=dims, keepdims=True)) + peak
    if not keepdim:
        result = np.squeeze(result, axis=dims)
    return record(LOGSUMEXP, (input,), _wrap(result, dtype), (dims, keepdim))


LOGSUMEXP = _register(
    "logsumexp", logsumexp, "logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor"
)


# ------------------------------------------------------------------ cumulative


@defop("cumsum", method=True, inplace=True, out=True)
def cumsum(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """Running sums along ``dim``; integers give int64."""
    d = input._wrap_dim(dim)
    dtype = dtype or _integral_to_long(input._dtype)
    array = np.cumsum(
        input._np.reshape(input._np.shape or (1,)), axis=d, dtype=dtype.np_dtype
    ).reshape(input._np.shape)
    return record(CUMSUM, (input,), _wrap(array, dtype), (d,))


@defop("cumprod", method=True, inplace=True, out=True)
def cumprod(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """Running products along ``dim``; integers give int64."""
    d = input._wrap_dim(dim)
    dtype = dtype or _integral_to_long(input._dtype)
    with np.errstate(all="ignore"):
        array = np.cumprod(
            input._np.reshape(input._np.shape or (1,)), axis=d, dtype=dtype.np_dtype
        ).reshape(input._np.shape)
    return record(CUMPROD, (input,), _wrap(array, dtype), (d,))


_CUMULATIVE = "{}(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor"
CUMSUM = _register("cumsum", cumsum, _CUMULATIVE.format("cumsum"), saved=("dim",))
CUMPROD = _register("cumprod", cumprod, _CUMULATIVE.format("cumprod"), saved=("dim",))


def _running_extreme(name, input: Tensor, dim: int, largest: bool):
    d = input._wrap_dim(dim)
    array = np.moveaxis(input._np.reshape(input._np.shape or (1,)), d, -1)
    values = np.empty_like(array)
    indices = np.empty(array.shape, dtype=np.int64)
    if array.shape[-1]:
        values[..., 0], indices[..., 0] = array[..., 0], 0
        for k in range(1, array.shape[-1]):
            current, best = array[..., k], values[..., k - 1]
            # ties move the index forward, and a NaN, once seen, stays
            take = (current >= best) if largest else (current <= best)
            if array.dtype.kind in "fc":
                take = (take | np.isnan(current)) & ~np.isnan(best)
            values[..., k] = np.where(take, current, best)
            indices[..., k] = np.where(take, k, indices[..., k - 1])
    values = np.moveaxis(values, -1, d).reshape(input._np.shape)
    indices = np.moveaxis(indices, -1, d).reshape(input._np.shape)
    index_tensor = _wrap(indices, _dtype.int64)
    value_tensor = (
        record(SELECT_ALONG, (input,), _wrap(values, input._dtype), (index_tensor, d, True))
        if input._np.ndim
        else _wrap(values, input._dtype)
    )
    return getattr(_return_types, name)(value_tensor, index_tensor)


@defop("cummax", method=True, out=True, refuses_complex=kernel_refusal("cummax_cpu"))
def cummax(input: Tensor, dim: int):
    """Running maxima along ``dim`` and their indices (ties take the later index)."""
    return _running_extreme("cummax", input, dim, True)


@defop("cummin", method=True, out=True, refuses_complex=kernel_refusal("cummin_cpu"))
def cummin(input: Tensor, dim: int):
    """Running minima along ``dim`` and their indices (ties take the later index)."""
    return _running_extreme("cummin", input, dim, False)


# ------------------------------------------------------------ logical and counts


@defop("all", method=True, out=True)
def all(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether every element is nonzero (over ``dim``); uint8 inputs give uint8."""
    dims = normalize_dims(input, dim)
    dtype = _dtype.uint8 if input._dtype is _dtype.uint8 else _dtype.bool_
    return _wrap(np.all(input._np, axis=dims, keepdims=keepdim), dtype)


@defop("any", method=True, out=True)
def any(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether some element is nonzero (over ``dim``); uint8 inputs give uint8."""
    dims = normalize_dims(input, dim)
    dtype = _dtype.uint8 if input._dtype is _dtype.uint8 else _dtype.bool_
    return _wrap(np.any(input._np, axis=dims, keepdims=keepdim), dtype)


@defop("count_nonzero", method=True)
def count_nonzero(input: Tensor, dim=None) -> Tensor:
    """The number of nonzero elements (over ``dim``), as int64."""
    dims = normalize_dims(input, dim)
    return _wrap(np.count_nonzero(input._np, axis=dims), _dtype.int64)


# ----------------------------------------------------------------------- norms


def vector_norm(x: Tensor, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The ``ord``-norm of ``x`` seen as a vector (over ``dim``): ``inf`` is the largest
    absolute value, ``-inf`` the smallest, 0 the count of nonzeros."""
    target = dtype or x._dtype
    if not (target.is_floating_point or target.is_complex):
        raise RuntimeError(
            f"linalg.vector_norm: Expected a floating point or complex tensor as "
            f"input. Got {x._dtype._legacy[:-6]}"
        )
    dims = normalize_dims(x, dim)
    magnitude = np.abs(x._np.astype(target.np_dtype))
    with np.errstate(all="ignore"):
        if ord == math.inf:
            result = np.max(magnitude, axis=dims, keepdims=keepdim)
        elif ord == -math.inf:
            result = np.min(magnitude, axis=dims, keepdims=keepdim)
        elif ord == 0:
            result = np.sum(magnitude != 0, axis=dims, keepdims=keepdim)
        elif ord == 1:
            result = np.sum(magnitude, axis=dims, keepdims=keepdim)
        elif ord == 2:
            result = np.sqrt(np.sum(magnitude * magnitude, axis=dims, keepdims=keepdim))
        else:
            result = np.sum(magnitude**ord, axis=dims, keepdims=keepdim) ** (1.0 / ord)
    return record(VECTOR_NORM, (x,), _wrap(result, target.to_real()), (ord, dims, keepdim))


VECTOR_NORM = _register(
    "linalg_vector_norm",
    vector_norm,
    "linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False) -> Tensor",
    saved=("ord", "dim", "keepdim"),
)
VECTOR_NORM.extra["binding"] = "torch.linalg.vector_norm"


@defop("norm", method=True, out=True)
def norm(input: Tensor, p="fro", dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """The legacy ``torch.norm``: Frobenius (= 2) norm by default, a vector ``p``-norm
    over ``dim`` otherwise."""
    order = 2 if p in ("fro", None) else p
    if isinstance(p, str) and p not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    if p == "nuc":
        from .decompositions import matrix_norm

        dims = (-2, -1) if dim is None else tuple(dim)
        return matrix_norm(input, "nuc", dims, keepdim, dtype=dtype)
    return vector_norm(input, order, dim, keepdim, dtype=dtype)


@defop("frobenius_norm", out=True)
def frobenius_norm(input: Tensor, dim, keepdim: bool = False) -> Tensor:
    """The legacy ``torch.frobenius_norm``: the 2-norm over ``dim`` (at most two dims)."""
    warn_once(
        "frobenius_norm",
        "at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will "
        "be removed in a future PyTorch release. Please use "
        "`linalg.vector_norm(A, 2., dim, keepdim)` instead",
        stacklevel=3,
    )
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dims) > 2:
        raise RuntimeError(
            f"Expected at most 2 dimensions, but got {len(dims)} dimensions instead."
        )
    return vector_norm(input, 2, dims, keepdim)


# -------------------------------------------------------------- order statistics


def _check_median_dtype(input: Tensor, dim) -> None:
    """median's and nanmedian's refusals of bool and complex inputs, named as PyTorch's."""
    if input._dtype is _dtype.bool_:
        kernel = "median_cpu" if dim is None else "median_out"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    if input._dtype._category == 3:
        refuse_complex("median" if dim is None else "median.dim", input._dtype)


@defop(
    "median",
    method=True,
    out=True,
    refuses_complex={"": kernel_refusal("median_cpu"), "dim": kernel_refusal("median_out")},
)
def median(input: Tensor, dim=None, keepdim: bool = False):
    """The lower median (of all elements, or ``(values, indices)`` along ``dim``)."""
    _check_median_dtype(input, dim)
    if dim is None:
        flat = input._np.reshape(-1)
        if flat.size == 0:
            return _wrap(np.array(np.nan), input._dtype)
        order = np.argsort(flat, kind="stable")
        pick = order[(flat.size - 1) // 2]
        if flat.dtype.kind in "fc" and np.isnan(flat).any():
            pick = int(np.argmax(np.isnan(flat)))
        index = _wrap(np.array(pick), _dtype.int64)
        return _select_along(input.reshape(-1), index.reshape(1), 0, True).reshape(())
    d = input._wrap_dim(dim)
    if input._np.ndim == 0:  # dim 0 (or -1) of a 0-dim tensor: its one element
        values, indices = median(input.reshape(1), 0)
        return _return_types.median(values.reshape(()), indices.reshape(()))
    order = np.argsort(input._np, axis=d, kind="stable")
    position = (input._np.shape[d] - 1) // 2
    indices = np.take(order, position, axis=d)
    if input._np.dtype.kind in "fc":
        nan = np.isnan(input._np)
        indices = np.where(nan.any(axis=d), np.argmax(nan, axis=d), indices)
    if keepdim:
        indices = np.expand_dims(indices, d)
    index_tensor = _wrap(indices, _dtype.int64)
    return _return_types.median(_select_along(input, index_tensor, d, keepdim), index_tensor)


@defop("kthvalue", method=True, out=True, refuses_complex=kernel_refusal("kthvalue_cpu"))
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    """The ``k``-th smallest element along ``dim`` (1-based) and its index."""
    d = input._wrap_dim(dim)
    size = input._np.shape[d] if input._np.ndim else 1
    if size == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    order = np.argsort(input._np.reshape(input._np.shape or (1,)), axis=d, kind="stable")
    indices = np.take(order, k - 1, axis=d)
    if keepdim:
        indices = np.expand_dims(indices, d)
    index_tensor = _wrap(indices, _dtype.int64)
    return _return_types.kthvalue(_values_at(input, index_tensor, d, keepdim), index_tensor)


@defop("mode", method=True, out=True, refuses_complex=kernel_refusal("mode_cpu"))
def mode(input: Tensor, dim: int = -1, keepdim: bool = False):
    """The most frequent value along ``dim`` (the smallest on ties) and the index of its
    last occurrence."""
    d = input._wrap_dim(dim)
    array = np.moveaxis(input._np.reshape(input._np.shape or (1,)), d, -1)
    rows = array.reshape(-1, array.shape[-1])
    values, indices = [], []
    for row in rows:
        uniques, counts = np.unique(row, return_counts=True)
        best = uniques[np.argmax(counts)]  # unique sorts, so ties pick the smallest
        values.append(best)
        indices.append(len(row) - 1 - int(np.argmax(row[::-1] == best)))
    shape = array.shape[:-1]
    indices = np.array(indices, dtype=np.int64).reshape(shape)
    if keepdim and input._np.ndim:
        indices = np.expand_dims(indices, d)
    index_tensor = _wrap(indices, _dtype.int64)
    return _return_types.mode(_values_at(input, index_tensor, d, keepdim), index_tensor)


def _values_at(input: Tensor, index_tensor: Tensor, d: int, keepdim: bool) -> Tensor:
    """The values of ``input`` at ``index_tensor`` along ``d``, shaped as the indices (a
    0-dim input is read as one element)."""
    source = input if input._np.ndim else input.reshape(1)
    values = _select_along(
        source,
        index_tensor if input._np.ndim else index_tensor.reshape(1),
        d,
        keepdim or not input._np.ndim,
    )
    return values.reshape(index_tensor.shape)
