"""Sparse COO tensors: a tensor kind holding an ``indices`` tensor (``sparse_dim x nnz``,
int64) and a ``values`` tensor (``nnz x dense dims``), as PyTorch 0.4 had them.

How it fits the dense design:

- :class:`SparseTensor` subclasses ``Tensor`` and overrides the methods it supports;
  its dense data (``_np``) raises :class:`~torch._ops._dispatch.SparseLayoutError`, a
  ``NotImplementedError``, so every dense op that reaches a sparse tensor fails clearly.
- The few ``torch.*`` functions that accept sparse operands (``add``, ``sub``, ``mul``,
  ``div``, ``mm``, ``matmul``, ``sum``, ``t``, ``transpose``) catch that exception and call
  the sparse kernel that ``torch._sparse_ops`` registers for them (PyTorch's SparseCPU
  dispatch key). A ``try`` costs nothing until it fires, so dense calls pay nothing.
- Every sparse op is written with differentiable dense ops on ``values`` (indexing,
  ``_index_scatter``, ``cat``, arithmetic), so gradients reach ``values`` and the dense
  operands of ``sparse.mm`` / ``to_dense`` / dense + sparse without derivative entries of
  their own; the registry marks them as composites.
"""

from __future__ import annotations

import numpy as np

from . import _dtype
from ._creation import tensor as _tensor_from_data
from ._layout import sparse_coo
from ._ops._dispatch import SparseLayoutError, register_op
from ._ops.scatter import index_scatter
from ._size import Size
from ._tensor import Tensor, _new_tensor

__all__ = [
    "SparseTensor",
    "sparse_coo_tensor",
    "to_sparse",
    "to_dense",
    "legacy_types",
    "DENSE_METHODS",
]


class SparseTensor(Tensor):
    """A sparse COO tensor. Make one with :func:`torch.sparse_coo_tensor` or
    ``Tensor.to_sparse()``; its ``layout`` is ``torch.sparse_coo``."""

    __slots__ = ("_indices_", "_values_", "_shape", "_coalesced")

    is_sparse = True
    layout = sparse_coo

    @property
    def _device(self):
        return self._values_._device  # where its values live

    @property
    def _np(self):
        raise SparseLayoutError(
            "this operation does not support sparse COO tensors (layout torch.sparse_coo); "
            "convert with .to_dense() first"
        )

    # ------------------------------------------------------------------ metadata

    @property
    def shape(self) -> Size:
        return Size(self._shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return Size(self._shape)
        return self._shape[self._wrap_dim(dim)]

    def dim(self) -> int:
        return len(self._shape)

    ndim = property(dim)

    def numel(self) -> int:
        return int(np.prod(self._shape, dtype=np.int64))

    nelement = numel

    def _wrap_dim(self, dim: int) -> int:
        ndim = max(len(self._shape), 1)
        if not -ndim <= dim < ndim:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], "
                f"but got {dim})"
            )
        return dim % ndim

    def sparse_dim(self) -> int:
        """Number of sparse dims (the rows of ``indices``)."""
        return self._indices_._np.shape[0]

    def dense_dim(self) -> int:
        """Number of dense trailing dims (the dims of each value)."""
        return self._values_._np.ndim - 1

    def _nnz(self) -> int:
        """Number of stored entries (duplicates counted until coalesced)."""
        return self._values_._np.shape[0]

    def element_size(self) -> int:
        return self._values_.element_size()

    def is_contiguous(self, memory_format=None) -> bool:
        return False

    def stride(self, dim: int | None = None):
        raise RuntimeError("sparse tensors do not have strides")

    def storage(self):
        raise NotImplementedError("Cannot access storage of SparseTensorImpl")

    untyped_storage = storage

    def data_ptr(self) -> int:
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def storage_offset(self) -> int:
        raise RuntimeError("sparse tensors do not have storage offsets")

    # ---------------------------------------------------------- indices and values

    def _indices(self) -> Tensor:
        """The indices as stored (also when not coalesced)."""
        return self._indices_

    def _values(self) -> Tensor:
        """The values as stored (also when not coalesced)."""
        return self._values_

    def indices(self) -> Tensor:
        """The indices of a coalesced tensor."""
        self._check_coalesced("indices")
        return self._indices_

    def values(self) -> Tensor:
        """The values of a coalesced tensor."""
        self._check_coalesced("values")
        return self._values_

    def _check_coalesced(self, what: str) -> None:
        if not self._coalesced:
            raise RuntimeError(
                f"Cannot get {what} on an uncoalesced tensor, please call .coalesce() first"
            )

    def is_coalesced(self) -> bool:
        """Whether the indices are sorted and free of duplicates."""
        return self._coalesced

    def coalesce(self) -> SparseTensor:
        """This tensor with duplicate indices summed and indices sorted (``self`` when
        already coalesced)."""
        return self if self._coalesced else _coalesce(self)

    # ------------------------------------------------------------------ autograd

    @property
    def _requires_grad(self) -> bool:
        return self._values_._requires_grad

    @_requires_grad.setter
    def _requires_grad(self, flag: bool) -> None:
        self._values_._requires_grad = flag

    @property
    def grad_fn(self):
        return self._values_.grad_fn

    @property
    def grad(self):
        # gradients reach the dense values; the sparse gradient has this tensor's indices
        grad = self._values_.grad
        return None if grad is None else _make(self._indices_, grad, self._shape, self._coalesced)

    @grad.setter
    def grad(self, value) -> None:
        self._values_.grad = None if value is None else value._values()

    def requires_grad_(self, requires_grad: bool = True) -> SparseTensor:
        self._values_.requires_grad_(requires_grad)
        return self

    def detach(self) -> SparseTensor:
        return _make(self._indices_, self._values_.detach(), self._shape, self._coalesced)

    # --------------------------------------------------------------- conversion

    def to_dense(self, dtype=None) -> Tensor:
        """The dense tensor this sparse tensor stands for (duplicates summed)."""
        result = to_dense(self)
        return result if dtype is None else result.to(dtype)

    def to_sparse(self, sparse_dim: int | None = None) -> SparseTensor:
        if sparse_dim is not None and sparse_dim != self.sparse_dim():
            raise RuntimeError(
                f"to_sparse: conversion from Sparse to Sparse with sparse_dim argument "
                f"!=self.sparse_dim() is not supported (got {sparse_dim})"
            )
        return self

    def to(self, *args, **kwargs) -> SparseTensor:
        values = self._values_.to(*args, **kwargs)
        if values is self._values_:
            return self
        indices = self._indices_.to(values.device)  # the indices live with the values
        return _make(indices, values, self._shape, self._coalesced)

    def type(self, dtype=None, non_blocking: bool = False, **kwargs):
        if dtype is None:
            return "torch.sparse." + self._dtype._legacy
        values = self._values_.type(dtype, non_blocking, **kwargs)
        return _make(self._indices_, values, self._shape, self._coalesced)

    def clone(self, *, memory_format=None) -> SparseTensor:
        return _make(self._indices_.clone(), self._values_.clone(), self._shape, self._coalesced)

    def cpu(self) -> SparseTensor:
        return self.to("cpu")

    def numpy(self, *, force: bool = False):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")

    def tolist(self):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(
                f"a Tensor with {self.numel()} elements cannot be converted to Scalar"
            )
        return to_dense(self).item()

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of a 0-d tensor")
        return self._shape[0]

    def __repr__(self) -> str:
        return _sparse_repr(self)

    __hash__ = Tensor.__hash__


def _make(indices: Tensor, values: Tensor, shape, coalesced: bool) -> SparseTensor:
    """A sparse tensor around ``indices`` and ``values`` (no checks: the caller's job)."""
    self = _new_tensor(SparseTensor)
    self._indices_ = indices
    self._values_ = values
    self._shape = tuple(int(n) for n in shape)
    self._coalesced = bool(coalesced)
    self._dtype = values._dtype
    self._version_ = None
    self._base = None
    return self


def _long_indices(array: np.ndarray) -> Tensor:
    array = array.astype(np.int64, copy=False)  # methods: on the array's own device
    return Tensor._from_array(array if array.flags.c_contiguous else array.copy(), _dtype.int64)


# ----------------------------------------------------------------------- construction


def sparse_coo_tensor(
    indices,
    values,
    size=None,
    *,
    dtype=None,
    device=None,
    requires_grad: bool = False,
    check_invariants=None,
    is_coalesced=None,
) -> SparseTensor:
    """A sparse tensor in COO format: ``values[k]`` sits at the position given by column
    ``k`` of ``indices``; other positions are zero. Duplicate positions add up.

    Args:
        indices (Tensor or sequence): ``sparse_dim x nnz`` integer coordinates.
        values (Tensor or sequence): ``nnz`` values, each a number or (hybrid tensors) a
            dense tensor of the trailing dims.
        size (sequence of int, optional): the tensor's size. Default: the smallest size
            holding every index, followed by the dims of a value.
        dtype (torch.dtype, optional): dtype of the values. Default: that of ``values``.
        device (torch.device, optional): where the values (and indices) go. Default: the
            values' device (host indices beside device values are copied there).
        requires_grad (bool): whether the values are a leaf requiring grad. Default: ``False``.
        check_invariants (bool, optional): accepted for compatibility; indices are always
            checked against ``size``. Default: ``None``.
        is_coalesced (bool, optional): declare the indices sorted and free of duplicates.
            Default: ``None`` (only tensors with at most one entry count as coalesced).

    Examples::

        >>> s = torch.sparse_coo_tensor([[0, 1], [2, 0]], [3.0, 4.0], (2, 3))
        >>> s.to_dense()
        tensor([[0., 0., 3.],
                [4., 0., 0.]])
        >>> s._nnz(), s.layout
        (2, torch.sparse_coo)
    """
    indices = _as_indices(indices)
    values = _as_values(values, dtype)
    if device is not None:
        values = values.to(device)
    indices = _on_values_device(indices, values)
    _check_nnz(indices, values)
    shape = (
        _inferred_size(indices, values) if size is None else _checked_size(size, indices, values)
    )
    _check_bounds(indices, shape)
    if requires_grad:
        values = values.detach().requires_grad_(True)
    coalesced = values._np.shape[0] <= 1 if is_coalesced is None else bool(is_coalesced)
    return _make(indices, values, shape, coalesced)


def _as_indices(indices) -> Tensor:
    if not isinstance(indices, Tensor):
        indices = _tensor_from_data(indices, dtype=_dtype.int64)
    elif indices.is_sparse:
        raise TypeError("sparse_coo_tensor(): argument 'indices' must be a dense Tensor")
    if indices._np.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(indices._np.shape)}")
    if indices._dtype is not _dtype.int64:
        indices = _long_indices(indices._np)
    return indices


def _on_values_device(indices: Tensor, values: Tensor) -> Tensor:
    """The indices on the values' device: host indices are copied there (PyTorch accepts
    them beside device values); indices on another device raise PyTorch's error."""
    if indices.device == values.device:
        return indices
    if indices.device.type != "cpu":
        raise RuntimeError(
            f"device of indices ({indices.get_device()}) must match device of values "
            f"({values.get_device()})"
        )
    return indices.to(values.device)


def _as_values(values, dtype) -> Tensor:
    if not isinstance(values, Tensor):
        return _tensor_from_data(values, dtype=dtype)
    if values.is_sparse:
        raise TypeError("sparse_coo_tensor(): argument 'values' must be a dense Tensor")
    return values if dtype is None else values.to(dtype)


def _check_nnz(indices: Tensor, values: Tensor) -> None:
    nnz_values = values._np.shape[0] if values._np.ndim else 1
    if values._np.ndim == 0 or indices._np.shape[1] != nnz_values:
        raise RuntimeError(
            f"indices and values must have same nnz, but got nnz from indices: "
            f"{indices._np.shape[1]}, nnz from values: {nnz_values}"
        )


def _inferred_size(indices: Tensor, values: Tensor) -> tuple:
    array = indices._np
    if array.shape[1]:
        sparse = tuple(int(n) + 1 for n in array.max(axis=1))
    else:
        sparse = (0,) * array.shape[0]
    return sparse + values._np.shape[1:]


def _checked_size(size, indices: Tensor, values: Tensor) -> tuple:
    shape = tuple(int(n) for n in size)
    for n in shape:
        if n < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {n}: {list(shape)}"
            )
    sparse_dim, dense_dim = indices._np.shape[0], values._np.ndim - 1
    if len(shape) != sparse_dim + dense_dim:
        raise RuntimeError(
            f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = "
            f"{len(shape)}, sparse_dim = {sparse_dim}, dense_dim = {dense_dim}"
        )
    expected = (values._np.shape[0],) + shape[sparse_dim:]
    if values._np.shape != expected:
        raise RuntimeError(
            f"values has incorrect size, expected {list(expected)}, got {list(values._np.shape)}"
        )
    return shape


def _check_bounds(indices: Tensor, shape: tuple) -> None:
    array = indices._np
    if not array.shape[1]:
        return
    # each bound read back on its own (on a device: one element each, not the indices)
    low, high = array.min(axis=1), array.max(axis=1)
    for dim in range(array.shape[0]):
        lowest, highest = int(low[dim]), int(high[dim])
        if lowest < 0:
            raise RuntimeError(f"found negative index {lowest} for dim {dim}")
        if highest >= shape[dim]:
            raise RuntimeError(
                f"size is inconsistent with indices: for dim {dim}, size is {shape[dim]} "
                f"but found index {highest}"
            )


def to_sparse(input: Tensor, sparse_dim: int | None = None) -> SparseTensor:
    """``input`` as a coalesced sparse tensor whose first ``sparse_dim`` dims are sparse
    (all by default); a position is stored when any of its values is nonzero.

    Args:
        sparse_dim (int, optional): number of sparse dims. Default: ``input.dim()``.

    Examples::

        >>> torch.tensor([[0.0, 2.0], [3.0, 0.0]]).to_sparse()._indices()
        tensor([[0, 1],
                [1, 0]])
    """
    if input.is_sparse:
        return input.to_sparse(sparse_dim)
    ndim = input._np.ndim
    sparse_dim = ndim if sparse_dim is None else sparse_dim
    if not 0 <= sparse_dim <= ndim:
        raise RuntimeError(
            f"dense_to_sparse: sparse_dim argument must be in [0,{ndim}] range, but {sparse_dim} "
            "is given"
        )
    if sparse_dim == 0:
        indices = _long_indices(np.zeros((0, 1), like=input._np))  # on the input's device
        return _make(indices, input.unsqueeze(0), input._np.shape, True)
    mask = input._np != 0
    if sparse_dim < ndim:
        mask = mask.any(axis=tuple(range(sparse_dim, ndim)))
    positions = np.nonzero(mask)  # in row-major order: sorted, no duplicates
    indices = _long_indices(np.stack(positions) if positions else np.zeros((0, 0), like=mask))
    values = input[tuple(_long_indices(p) for p in positions)]
    return _make(indices, values, input._np.shape, True)


def to_dense(input: Tensor) -> Tensor:
    """The dense tensor a sparse tensor stands for (duplicate entries add up); a dense
    ``input`` is returned as is.

    Examples::

        >>> torch.sparse_coo_tensor([[1, 1]], [2.0, 5.0], (3,)).to_dense()
        tensor([0., 7., 0.])
    """
    if not input.is_sparse:
        return input
    if input.sparse_dim() == 0:  # every entry is the whole (dense) tensor
        return input._values_.sum(0)
    index = tuple(input._indices_._np)
    return index_scatter(input._values_, index, input._shape)


def _coalesce(input: SparseTensor) -> SparseTensor:
    sparse_dim = input.sparse_dim()
    indices, values = input._indices_._np, input._values_
    if indices.shape[1] == 0:
        return _make(input._indices_, values, input._shape, True)
    sparse_shape = input._shape[:sparse_dim]
    flat = np.ravel_multi_index(tuple(indices), sparse_shape) if sparse_dim else indices[0]
    unique, inverse = np.unique(flat, return_inverse=True)
    new_indices = np.stack(np.unravel_index(unique, sparse_shape)) if sparse_dim else indices[:, :1]
    summed = index_scatter(values, (inverse.reshape(-1),), (unique.size,) + values._np.shape[1:])
    return _make(_long_indices(new_indices), summed, input._shape, True)


def legacy_new(dtype, args) -> SparseTensor:
    """``torch.sparse.<Type>Tensor(*args)``: ``(indices, values[, size])``, sizes, or
    nothing (an empty sparse tensor)."""
    if args and isinstance(args[0], Tensor):
        if len(args) not in (2, 3):
            raise TypeError("expected (indices, values) or (indices, values, size)")
        return sparse_coo_tensor(*args, dtype=dtype)
    shape = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    if not all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in shape):
        raise TypeError(
            f"new() received an invalid combination of arguments - got "
            f"({', '.join(type(a).__name__ for a in args)})"
        )
    indices = _long_indices(np.zeros((len(shape), 0)))
    values = Tensor._from_array(np.zeros((0,), dtype=dtype.np_dtype), dtype)
    return sparse_coo_tensor(indices, values, shape)


class _LegacySparseMeta(type):
    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, SparseTensor) and instance._dtype is cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.sparse.{cls.__name__}'>"


def legacy_types() -> dict:
    """``torch.sparse.FloatTensor`` and friends: constructors and isinstance checks."""

    def make(d):
        def __new__(cls, *args):  # noqa: N807
            return legacy_new(d, args)

        attributes = {"__slots__": (), "__new__": __new__, "dtype": d, "__module__": "torch.sparse"}
        return _LegacySparseMeta(d._legacy, (), attributes)

    kept = (d for d in _dtype.CLASSIC_DTYPES if d is not _dtype.bfloat16)
    return {d._legacy: make(d) for d in kept}


# ---------------------------------------------------------------------------- printing


def _sparse_repr(input: SparseTensor) -> str:
    from ._format import tensor_repr

    default = _dtype.get_default_dtype()
    prefix = "tensor("

    def field(name: str, value: Tensor) -> str:
        text = tensor_repr(value, default, plain=True)
        return name + "=" + text.replace("\n", "\n" + " " * (len(prefix) + len(name) + 1))

    parts = [field("indices", input._indices_), field("values", input._values_)]
    tail = [f"size={input._shape}", f"nnz={input._nnz()}"]
    dtype = input._dtype
    if not (dtype in (default, default.to_complex()) or dtype.name in ("int64", "bool")):
        tail.append(f"dtype={dtype}")
    tail.append(f"layout={sparse_coo}")
    if input.grad_fn is not None:
        tail.append(f"grad_fn=<{type(input.grad_fn).__name__}>")
    elif input.requires_grad:
        tail.append("requires_grad=True")
    parts.append(", ".join(tail))
    return prefix + (",\n" + " " * len(prefix)).join(parts) + ")"


# ---------------------------------------------------------------------------- dense API


def _not_sparse(name: str):
    def method(self, *args, **kwargs):
        raise RuntimeError(f"{name} expected sparse coordinate tensor layout but got Strided")

    method.__name__ = name
    return method


def _dense_nnz(self):
    raise NotImplementedError(
        "_nnz() is only defined for sparse tensors; this tensor's layout is torch.strided"
    )


#: what dense tensors answer to the sparse API
DENSE_METHODS = {
    "is_sparse": False,
    "to_sparse": to_sparse,
    "to_dense": lambda self, dtype=None: self if dtype is None else self.to(dtype),
    "sparse_dim": lambda self: 0,
    "dense_dim": lambda self: self._np.ndim,
    "_nnz": _dense_nnz,
    **{
        name: _not_sparse(name)
        for name in ("coalesce", "is_coalesced", "indices", "values", "_indices", "_values")
    },
}


def bind() -> None:
    """Give dense tensors the sparse API's methods and register the sparse kernels of
    the dense ops that take sparse operands."""
    for name, value in DENSE_METHODS.items():
        setattr(Tensor, name, value)
    from . import _sparse_ops

    _sparse_ops.register()


def _register(name, function, signature, binding=None):
    """A sparse op's registry entry (bound as ``binding``, default ``torch.<name>``)."""
    register_op(
        name,
        function,
        signature,
        "sparse",
        differentiable=False,
        composite=True,  # gradients come from the dense ops on the values
        binding=binding or f"torch.{name}",
    )


_register(
    "sparse_coo_tensor",
    sparse_coo_tensor,
    "sparse_coo_tensor(Tensor indices, Tensor values, int[]? size=None, *, ScalarType? dtype="
    "None, bool requires_grad=False) -> Tensor",
)
_register("to_sparse", to_sparse, "to_sparse(Tensor self, int? sparse_dim=None) -> Tensor")
_register("to_dense", to_dense, "to_dense(Tensor self) -> Tensor")
_register("coalesce", SparseTensor.coalesce, "coalesce(Tensor self) -> Tensor")
