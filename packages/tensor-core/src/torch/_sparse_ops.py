"""Kernels of the dense ops that take sparse COO operands (``add``, ``mul``, ``mm``,
``sum``, ``transpose``, ...), the sparse tensor's methods, and ``torch.sparse.mm`` /
``torch.sparse.sum``. Each works on the dense ``values`` with differentiable core ops, so
gradients reach the values and the dense operands."""

from __future__ import annotations

import numbers

import numpy as np

from ._conversion import DTYPE_METHODS
from ._ops import linalg, pointwise, reduction, views
from ._ops._dispatch import SPARSE_KERNELS, result_type
from ._ops.scatter import index_scatter
from ._ops.shape_ops import cat
from ._sparse import SparseTensor, _long_indices, _make, _register, to_dense
from ._tensor import Tensor

__all__ = ["add", "sub", "mul", "div", "mm", "sparse_sum", "transpose", "t", "register"]


def _is_scalar(x) -> bool:
    """A number or a 0-dim dense tensor (what multiplies every value alike)."""
    if isinstance(x, Tensor):
        return not x.is_sparse and x._np.ndim == 0
    return isinstance(x, (numbers.Number, np.generic))


def _size_list(x) -> list:
    return list(x.shape)


# ---------------------------------------------------------------------------- add / sub


def add(input, other, alpha=1) -> Tensor:
    """``input + alpha * other`` where either is sparse: dense + sparse is dense, sparse +
    sparse is sparse (coalesced when both operands are)."""
    if not isinstance(input, SparseTensor):
        return _add_dense_sparse(input, other, alpha)
    if not isinstance(other, SparseTensor):
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
    if input._shape != other._shape:
        raise RuntimeError(
            f"add: expected sizes of 'self' and 'other' to match, but "
            f"{list(input._shape)} != {list(other._shape)}"
        )
    if input.sparse_dim() != other.sparse_dim():
        raise RuntimeError(
            f"add: expected 'self' and 'other' to have same sparse dimensions, but got "
            f"{input.sparse_dim()} and {other.sparse_dim()}"
        )
    dtype = result_type(input._values_, other._values_)
    scaled = other._values_ if alpha == 1 else other._values_ * alpha
    values = cat([input._values_.to(dtype), scaled.to(dtype)])
    indices = _long_indices(np.concatenate([input._indices_._np, other._indices_._np], axis=1))
    result = _make(indices, values, input._shape, False)
    return result.coalesce() if input._coalesced and other._coalesced else result


def _add_dense_sparse(input, other: SparseTensor, alpha) -> Tensor:
    if not isinstance(input, Tensor):
        raise TypeError(f"add(): argument 'input' must be Tensor, not {type(input).__name__}")
    if tuple(input._np.shape) != other._shape:
        raise RuntimeError(
            f"add: expected 'self' and 'other' to have same size, but self has size "
            f"{list(input._np.shape)} while other has size {list(other._shape)} (FYI: "
            f"dense-sparse addition does not currently support broadcasting)"
        )
    return pointwise.add(input, to_dense(other), alpha=alpha)


def _dense_add_(self: Tensor, other, alpha=1) -> Tensor:
    """``dense.add_(sparse)``: the dense in-place add of the sparse operand's dense form
    (what optimizers do with sparse gradients)."""
    if not isinstance(other, SparseTensor):
        raise RuntimeError("add_(sparse): a sparse tensor cannot be updated in place this way")
    if tuple(self._np.shape) != other._shape:
        _add_dense_sparse(self, other, alpha)  # raises PyTorch's size error
    return pointwise.INPLACE["add_"](self, to_dense(other), alpha=alpha)


def sub(input, other, alpha=1) -> Tensor:
    """``input - alpha * other`` where either is sparse."""
    return add(input, other, -alpha)


# ---------------------------------------------------------------------------- mul / div


def mul(input, other) -> Tensor:
    """A sparse tensor times a scalar, a dense tensor of its size (sparse result) or
    another sparse tensor (the product where both have entries)."""
    if not isinstance(input, SparseTensor):
        input, other = other, input
    if _is_scalar(other):
        values = input._values_ * other
        return _make(input._indices_, values, input._shape, input._coalesced)
    if _size_list(other) != list(input._shape):
        raise RuntimeError(
            f"mul(sparse, other): expected other of size {list(input._shape)}, got "
            f"{_size_list(other)} (sparse multiplication does not broadcast)"
        )
    if isinstance(other, SparseTensor):
        return _mul_sparse(input.coalesce(), other.coalesce())
    input = input.coalesce()
    picked = other[tuple(_long_indices(row) for row in input._indices_._np)]
    return _make(input._indices_, input._values_ * picked, input._shape, True)


def _mul_sparse(a: SparseTensor, b: SparseTensor) -> SparseTensor:
    sparse_shape = a._shape[: a.sparse_dim()]
    flat_a = np.ravel_multi_index(tuple(a._indices_._np), sparse_shape)
    flat_b = np.ravel_multi_index(tuple(b._indices_._np), sparse_shape)
    _, in_a, in_b = np.intersect1d(flat_a, flat_b, assume_unique=True, return_indices=True)
    values = a._values_[_long_indices(in_a)] * b._values_[_long_indices(in_b)]
    return _make(_long_indices(a._indices_._np[:, in_a]), values, a._shape, True)


def div(input, other, rounding_mode=None) -> Tensor:
    """A sparse tensor divided by a scalar."""
    if not isinstance(input, SparseTensor) or not _is_scalar(other):
        raise RuntimeError(
            "div(): only a sparse tensor divided by a scalar (number or 0-dim dense tensor) "
            "is supported with sparse operands"
        )
    values = pointwise.div(input._values_, other, rounding_mode=rounding_mode)
    return _make(input._indices_, values, input._shape, input._coalesced)


def neg(input: SparseTensor) -> SparseTensor:
    return _make(input._indices_, -input._values_, input._shape, input._coalesced)


def abs(input: SparseTensor) -> SparseTensor:  # noqa: A001 - the method's name
    # NOTE: nonlinear in the values, so duplicates are summed (coalesced) first
    input = input.coalesce()
    return _make(input._indices_, pointwise.abs(input._values_), input._shape, True)


def pow(input: SparseTensor, exponent) -> SparseTensor:  # noqa: A001 - the method's name
    """A sparse tensor to a positive scalar power (zeros stay zeros)."""
    if not _is_scalar(exponent) or not float(exponent) > 0:
        raise RuntimeError(
            f"pow(sparse, exponent): the exponent must be a positive scalar, got {exponent!r}"
        )
    input = input.coalesce()  # nonlinear: duplicates are summed first
    values = pointwise.pow(input._values_, exponent)
    return _make(input._indices_, values, input._shape, True)


# -------------------------------------------------------------------------- mm / matmul


def mm(mat1, mat2) -> Tensor:
    """The product of a sparse and a dense matrix (dense result), in either order; two
    sparse matrices give a sparse result.

    Args:
        mat1 (Tensor): sparse (2 sparse dims, no dense dims) or dense matrix.
        mat2 (Tensor): dense or sparse matrix.

    Examples::

        >>> s = torch.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], (2, 2))
        >>> torch.sparse.mm(s, torch.tensor([[1.0], [10.0]]))
        tensor([[20.],
                [ 3.]])
    """
    if isinstance(mat1, SparseTensor):
        if isinstance(mat2, SparseTensor):
            return _spmm(mat1, to_dense(mat2)).to_sparse()
        return _spmm(mat1, mat2)
    if not isinstance(mat2, SparseTensor):
        return linalg.mm(mat1, mat2)
    return views.t(_spmm(transpose(mat2, 0, 1), views.t(mat1)))


def _legacy(dtype) -> str:
    return dtype._legacy[: -len("Tensor")]


def _check_spmm(sparse: SparseTensor, dense: Tensor) -> None:
    if sparse.sparse_dim() != 2 or sparse.dense_dim() != 0:
        raise RuntimeError(
            f"addmm: matrices expected, got {sparse.sparse_dim()} sparse and "
            f"{sparse.dense_dim()} dense dims"
        )
    if dense._np.ndim > 2:
        raise RuntimeError(f"addmm: matrices expected, got {dense._np.ndim}D tensor")
    dense.size(1)  # a 1-D operand: PyTorch's IndexError
    if dense._np.shape[0] != sparse._shape[1]:
        raise RuntimeError(
            f"addmm: Argument #3 (dense): Expected dim 0 size {sparse._shape[1]}, "
            f"got {dense._np.shape[0]}"
        )
    if dense._dtype is not sparse._dtype:
        raise RuntimeError(
            f"expected scalar type {_legacy(sparse._dtype)} but found {_legacy(dense._dtype)}"
        )


def _spmm(sparse: SparseTensor, dense: Tensor) -> Tensor:
    # NOTE: gathered rows of the dense operand scaled by the values and summed into the
    # result rows: indexing, mul and _index_scatter all record for autograd, so the
    # gradients of the values and of the dense operand follow from their formulas.
    _check_spmm(sparse, dense)
    rows, cols = sparse._indices_._np
    picked = dense[_long_indices(cols)]
    contributions = views.unsqueeze(sparse._values_, 1) * picked
    return index_scatter(contributions, (rows,), (sparse._shape[0], dense._np.shape[1]))


def addmm(input: Tensor, mat1: SparseTensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)`` with ``mat1`` sparse.

    Examples::

        >>> s = torch.sparse_coo_tensor([[0], [0]], [2.0], (1, 1))
        >>> torch.sparse.addmm(torch.ones(1, 1), s, torch.ones(1, 1), beta=0.5)
        tensor([[2.5000]])
    """
    product = mm(mat1, mat2)
    product = product if alpha == 1 else product * alpha
    return product + (input if beta == 1 else input * beta)


# --------------------------------------------------------------------------------- sum


def sparse_sum(input, dim=None, dtype=None) -> Tensor:
    """Sum of a sparse tensor over ``dim`` (all dims by default): dense when every
    sparse dim is summed, otherwise sparse (coalesced).

    Args:
        input (Tensor): a sparse tensor.
        dim (int or tuple of ints, optional): dims to sum. Default: all.
        dtype (torch.dtype, optional): dtype the values are summed in. Default: ``None``.

    Examples::

        >>> s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 3))
        >>> torch.sparse.sum(s), torch.sparse.sum(s, 0).to_dense()
        (tensor(12.), tensor([4., 0., 8.]))
    """
    if not isinstance(input, SparseTensor):
        return reduction.sum(input, dim, dtype=dtype)
    values = input._values_ if dtype is None else input._values_.to(dtype)
    if dim is None:
        return reduction.sum(values)
    dims = sorted({input._wrap_dim(d) for d in ((dim,) if isinstance(dim, int) else dim)})
    sparse_dim = input.sparse_dim()
    summed_sparse = [d for d in dims if d < sparse_dim]
    summed_dense = tuple(d - sparse_dim + 1 for d in dims if d >= sparse_dim)
    if summed_dense:
        values = reduction.sum(values, summed_dense)
    if len(summed_sparse) == sparse_dim:
        return reduction.sum(values, 0)
    shape = tuple(n for d, n in enumerate(input._shape) if d not in dims)
    if not summed_sparse:
        return _make(input._indices_, values, shape, False).coalesce()
    kept = [d for d in range(sparse_dim) if d not in summed_sparse]
    indices = _long_indices(input._indices_._np[kept])
    return _make(indices, values, shape, False).coalesce()


def _sum_method(input, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    if keepdim:
        raise RuntimeError("sum of a sparse tensor does not support keepdim=True")
    return sparse_sum(input, dim, dtype)


# ---------------------------------------------------------------------- transposition


def transpose(input: SparseTensor, dim0: int, dim1: int) -> SparseTensor:
    """``input`` with two sparse dims (or two dense dims) swapped."""
    d0, d1 = input._wrap_dim(dim0), input._wrap_dim(dim1)
    sparse_dim = input.sparse_dim()
    shape = list(input._shape)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    if d0 < sparse_dim and d1 < sparse_dim:
        order = list(range(sparse_dim))
        order[d0], order[d1] = order[d1], order[d0]
        indices = _long_indices(input._indices_._np[order])
        return _make(indices, input._values_, shape, input._coalesced and d0 == d1)
    if d0 >= sparse_dim and d1 >= sparse_dim:
        values = views.transpose(input._values_, d0 - sparse_dim + 1, d1 - sparse_dim + 1)
        return _make(input._indices_, values, shape, input._coalesced)
    raise RuntimeError(
        f"transpose(): can't transpose a sparse dim with a dense dim (dims {d0} and {d1}, "
        f"sparse_dim = {sparse_dim})"
    )


def t(input: SparseTensor) -> SparseTensor:
    """Transpose of a sparse tensor with at most 2 sparse dims and no dense dims."""
    if input.sparse_dim() > 2 or input.dense_dim() > 0:
        raise RuntimeError(
            f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but got "
            f"{input.sparse_dim()} sparse and {input.dense_dim()} dense dimensions"
        )
    return transpose(input, 0, 1) if input.dim() == 2 else input.clone()


# ------------------------------------------------------------------------- the methods


def _assign(self: SparseTensor, result: SparseTensor) -> SparseTensor:
    """Make ``self`` hold ``result`` (the in-place forms)."""
    if not isinstance(result, SparseTensor) or result._shape != self._shape:
        raise RuntimeError("in-place sparse op: the result must be sparse of the same size")
    self._indices_, self._values_ = result._indices_, result._values_
    self._coalesced, self._dtype = result._coalesced, result._dtype
    return self


def zero_(self: SparseTensor) -> SparseTensor:
    """Drop every stored entry in place (the size stays; no entries is coalesced)."""
    indices = self._indices_
    values = self._values_
    # empty arrays on the tensor's device (made by its values' array module)
    like = values._np
    empty_indices = _long_indices(np.empty((indices.shape[0], 0), dtype=np.int64, like=like))
    empty_values = Tensor._from_array(
        np.empty((0, *values.shape[1:]), dtype=values._np.dtype, like=like), values._dtype
    )
    self._bump_version()
    return _assign(self, _make(empty_indices, empty_values, self._shape, True))


def _binary_methods(name, kernel):
    def method(self, other, **kwargs):
        return kernel(self, other, **kwargs)

    def reflected(self, other):
        return kernel(other, self)

    def inplace(self, other, **kwargs):
        return _assign(self, kernel(self, other, **kwargs))

    method.__name__, reflected.__name__, inplace.__name__ = name, f"__r{name}__", name + "_"
    return method, reflected, inplace


def _methods() -> dict:
    methods = {}
    for name, kernel in (("add", add), ("sub", sub), ("mul", mul)):
        method, reflected, inplace = _binary_methods(name, kernel)
        methods.update(
            {name: method, f"__{name}__": method, f"__r{name}__": reflected, f"{name}_": inplace}
        )
        methods[f"__i{name}__"] = inplace
    div_method, _, div_inplace = _binary_methods("div", div)
    methods.update(
        {"div": div_method, "__truediv__": div_method, "div_": div_inplace},
    )
    methods.update(
        {
            "zero_": zero_,
            "neg": neg,
            "__neg__": neg,
            "abs": abs,
            "__abs__": abs,
            "pow": pow,
            "__pow__": pow,
            "mm": mm,
            "matmul": mm,
            "__matmul__": mm,
            "__rmatmul__": lambda self, other: mm(other, self),
            "sum": _sum_method,
            "t": t,
            "transpose": transpose,
            **{name: _dtype_method(method) for name, method in DTYPE_METHODS.items()},
        }
    )
    return methods


def _dtype_method(dense_method):
    """``s.double()`` and friends: the dense method applied to the values."""

    def method(self, *args, **kwargs):
        values = dense_method(self._values_, *args, **kwargs)
        if values is self._values_:
            return self
        return _make(self._indices_, values, self._shape, self._coalesced)

    method.__name__ = dense_method.__name__
    return method


def register() -> None:
    """Bind the sparse tensor's methods, the sparse kernels of dense functions, and the
    registry entries of ``torch.sparse.mm`` / ``torch.sparse.sum``."""
    for name, function, signature in (
        ("sparse_mm", mm, "sparse_mm(Tensor sparse, Tensor dense) -> Tensor"),
        ("sparse_sum", sparse_sum, "sparse_sum(Tensor self, int[1]? dim=None) -> Tensor"),
    ):
        _register(name, function, signature, f"torch.sparse.{name[len('sparse_') :]}")
    for name, function in _methods().items():
        setattr(SparseTensor, name, function)
    SPARSE_KERNELS.update(
        {
            "add": add,
            "sub": sub,
            "mul": lambda input, other, alpha=1: mul(input, other),
            "div": lambda input, other, alpha=1, rounding_mode=None: div(
                input, other, rounding_mode
            ),
            "add_": _dense_add_,
            "sub_": lambda self, other, alpha=1: _dense_add_(self, other, -alpha),
            "mm": mm,
            "matmul": mm,
            "sum": lambda input, dim=None, keepdim=False, dtype=None: _sum_method(
                input, dim, keepdim, dtype=dtype
            ),
            "t": t,
            "transpose": transpose,
        }
    )
