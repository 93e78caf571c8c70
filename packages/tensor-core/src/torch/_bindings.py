"""Binds the op functions as ``Tensor`` methods, properties and Python operators."""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from . import _conversion, _indexing, _predicates, _random
from ._layout import strided
from ._ops import (
    binary_math,
    combining,
    complex_views,
    conveniences,
    gather_scatter,
    householder,
    index_ops,
    linalg,
    linalg_extras,
    math_extras,
    nn_aliases,
    nn_kernels,
    numeric,
    pointwise,
    pointwise_composites,
    reduction,
    shape_ops,
    sorting,
    special_functions,
    ternary,
    unary_math,
    views,
)
from ._tensor import Tensor

_METHODS = {
    # pointwise: every public function of the family is also a method
    **{
        name: getattr(pointwise, name)
        for name in pointwise.__all__
        if name not in ("can_cast", "INPLACE")
    },
    "subtract": pointwise.sub,
    "multiply": pointwise.mul,
    "divide": pointwise.div,
    "greater": pointwise.gt,
    "greater_equal": pointwise.ge,
    "less": pointwise.lt,
    "less_equal": pointwise.le,
    "not_equal": pointwise.ne,
    **{name: getattr(unary_math, name) for name in unary_math.__all__},
    **{name: getattr(binary_math, name) for name in binary_math.__all__},
    "clamp": ternary.clamp,
    "clip": ternary.clip,
    "lerp": ternary.lerp,
    "addcmul": ternary.addcmul,
    "addcdiv": ternary.addcdiv,
    "where": lambda self, condition, other: ternary.where(condition, self, other),
    "relu": nn_kernels.relu,
    "softmax": nn_kernels.softmax,
    "log_softmax": nn_kernels.log_softmax,
    **pointwise.INPLACE,
    # views
    **{name: getattr(views, name) for name in views.__all__},
    # reductions and linear algebra
    **{name: getattr(reduction, name) for name in reduction.__all__ if name != "vector_norm"},
    **{name: getattr(gather_scatter, name) for name in gather_scatter.__all__},
    "matmul": linalg.matmul,
    **{
        name: getattr(linalg, name)
        for name in ("mm", "bmm", "mv", "dot", "outer", "addmm", "addmv", "baddbmm", "addbmm")
    },
    **{
        name: getattr(shape_ops, name)
        for name in (
            "repeat",
            "tile",
            "roll",
            "rot90",
            "tril",
            "triu",
            "diag",
            "trace",
            "broadcast_to",
        )
    },
    **{
        name: getattr(sorting, name)
        for name in sorting.__all__
        if name not in ("searchsorted", "bucketize")
    },
    **{
        name: getattr(getattr(pointwise_composites, name), "__wrapped__", None)
        or getattr(pointwise_composites, name)
        for name in pointwise_composites.__all__
    },
    # in-place spellings PyTorch also has
    **{
        alias + "_": pointwise.INPLACE[name + "_"]
        for alias, name in (
            ("subtract", "sub"),
            ("multiply", "mul"),
            ("divide", "div"),
            ("true_divide", "div"),
            ("absolute", "abs"),
            ("negative", "neg"),
            ("arcsin", "asin"),
            ("arccos", "acos"),
            ("arctan", "atan"),
            ("arcsinh", "asinh"),
            ("arccosh", "acosh"),
            ("arctanh", "atanh"),
            ("arctan2", "atan2"),
            ("fix", "trunc"),
            ("greater", "gt"),
            ("greater_equal", "ge"),
            ("less", "lt"),
            ("less_equal", "le"),
            ("not_equal", "ne"),
        )
    },
    "is_nonzero": _predicates.is_nonzero,
    "is_same_size": _predicates.is_same_size,
    # conversions and copies
    "to": _conversion.to,
    "type": _conversion.type_,
    "cpu": _conversion.cpu,
    "cuda": _conversion.cuda,
    "clone": _conversion.clone,
    "contiguous": _conversion.contiguous,
    "copy_": _conversion.copy_,
    "set_": _conversion.set_,
    "new_tensor": _conversion.new_tensor,
    "new_empty": _conversion.new_empty,
    "new_zeros": _conversion.new_zeros,
    "new_ones": _conversion.new_ones,
    "new_full": _conversion.new_full,
    **_conversion.DTYPE_METHODS,
    # indexing
    "__getitem__": _indexing.getitem,
    "__setitem__": _indexing.setitem,
    # random fills
    **_random.TENSOR_METHODS,
    # the math API's remaining families (issue 4)
    **index_ops.METHODS,
    **combining.METHODS,
    **math_extras.METHODS,
    **linalg_extras.METHODS,
    **householder.METHODS,
    **numeric.METHODS,
    **conveniences.METHODS,
    **special_functions.METHODS,
    **nn_aliases.METHODS,
    "i0": special_functions.i0,
}


def _operator(function):
    """A binary operator: ``NotImplemented`` for operands that are neither tensors nor
    numbers, so Python can try the other side (``t == None`` is False)."""

    def method(self, other):
        if isinstance(other, (Tensor, numbers.Number, np.generic)):
            return function(self, other)
        if isinstance(other, np.ndarray):
            return function(self, _from_array_operand(other))
        return NotImplemented

    return method


def _reflected(function):
    def method(self, other):
        if isinstance(other, (numbers.Number, np.generic)):
            return function(other, self)
        if isinstance(other, np.ndarray):  # NumPy defers to us (__array_priority__)
            return function(_from_array_operand(other), self)
        return NotImplemented

    return method


def _from_array_operand(array: np.ndarray) -> Tensor:
    from ._creation import tensor

    return tensor(array)


_BINARY_OPERATORS = {
    "add": pointwise.add,
    "sub": pointwise.sub,
    "mul": pointwise.mul,
    "truediv": pointwise.div,
    "floordiv": pointwise.floor_divide,
    "mod": pointwise.remainder,
    "pow": pointwise.pow,
    "and": pointwise.bitwise_and,
    "or": pointwise.bitwise_or,
    "xor": pointwise.bitwise_xor,
    "lshift": pointwise.bitwise_left_shift,
    "rshift": pointwise.bitwise_right_shift,
}
_COMPARISONS = {
    "eq": pointwise.eq,
    "ne": pointwise.ne,
    "lt": pointwise.lt,
    "le": pointwise.le,
    "gt": pointwise.gt,
    "ge": pointwise.ge,
}


def _transpose_all(self: Tensor) -> Tensor:
    if self._np.ndim > 2:
        warnings.warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their "
            "shape is deprecated and it will throw an error in a future release. "
            "Consider `x.mT` to transpose batches of matrices or `x.permute(*torch."
            "arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.",
            UserWarning,
            stacklevel=2,
        )
    return views.permute(self, tuple(reversed(range(self._np.ndim))))


def _transpose_matrices(self: Tensor) -> Tensor:
    if self._np.ndim < 2:
        raise RuntimeError(
            f"tensor.mT is only supported on matrices or batches of matrices. Got "
            f"{self._np.ndim}-D tensor."
        )
    return views.transpose(self, -2, -1)


def _invert(self: Tensor) -> Tensor:
    if self._dtype.is_floating_point or self._dtype.is_complex:
        raise TypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return pointwise.bitwise_not(self)


def _index(self: Tensor) -> int:
    if self._dtype.is_floating_point or self._dtype.is_complex or self._np.size != 1:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return int(self._np.reshape(())[()])


def _set_part(part):
    """The setter of ``Tensor.real``/``Tensor.imag``: copy ``value`` into that part."""

    def setter(self: Tensor, value) -> None:
        _conversion.copy_(part(self), value)

    return setter


def _typed_storage(self: Tensor):
    from ._storage import TypedStorage

    return TypedStorage._wrap(self._storage, self._dtype)


def _rebuild(array, dtype_name, requires_grad):
    from ._dtype import ALIASES

    result = Tensor._from_array(np.array(array), ALIASES[dtype_name])
    if requires_grad:
        result.requires_grad_(True)
    return result


def _reduce_ex(self: Tensor, protocol):
    # plain pickling copies the data; torch.save is what preserves storage sharing
    if self.grad_fn is not None:
        raise RuntimeError(
            "Can't pickle a tensor that requires grad and is not a leaf; detach() it first"
        )
    return (_rebuild, (np.array(self._np), self._dtype.name, self._requires_grad))


def _dlpack(self: Tensor, *, stream=None, **kwargs):
    if self._requires_grad:
        raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")
    try:
        # newer consumers ask for a versioned capsule (it carries the writable flag)
        return self._np.__dlpack__(stream=stream, **kwargs)
    except TypeError:
        return self._np.__dlpack__(stream=stream)  # NumPy < 2.1 knows no max_version


def _array_namespace(self: Tensor, *, api_version=None):
    from . import _array_api

    if api_version not in (None, "2021.12", "2022.12", "2023.12"):
        raise ValueError(f"Unrecognized array API version: {api_version!r}")
    return _array_api


def bind() -> None:
    for name, function in _METHODS.items():
        setattr(Tensor, name, function)
    for name, function in _BINARY_OPERATORS.items():
        setattr(Tensor, f"__{name}__", _operator(function))
        setattr(Tensor, f"__r{name}__", _reflected(function))
        setattr(Tensor, f"__i{name}__", _operator(pointwise.INPLACE[function.__name__ + "_"]))
    for name, function in _COMPARISONS.items():
        setattr(Tensor, f"__{name}__", _operator(function))
    Tensor.__matmul__ = _operator(linalg.matmul)
    Tensor.__rmatmul__ = lambda self, other: linalg.matmul(other, self)
    Tensor.__neg__ = pointwise.neg
    Tensor.__pos__ = pointwise.positive
    Tensor.__abs__ = pointwise.abs
    Tensor.__invert__ = _invert
    Tensor.__index__ = _index
    Tensor.__hash__ = lambda self: id(self)
    Tensor.T = property(_transpose_all)
    Tensor.mT = property(_transpose_matrices)
    Tensor.layout = property(lambda self: strided)
    for name, getter in conveniences.PROPERTIES.items():
        setattr(Tensor, name, property(getter))
    Tensor.real = property(complex_views.real, _set_part(complex_views.real))
    Tensor.imag = property(complex_views.imag, _set_part(complex_views.imag))
    Tensor.nbytes = property(lambda self: self._np.nbytes)
    Tensor.itemsize = property(lambda self: self._np.itemsize)
    Tensor.storage = _typed_storage
    Tensor.is_set_to = lambda self, other: (
        self._storage is other._storage
        and self._offset == other._offset
        and self._np.shape == other._np.shape
        and self.stride() == other.stride()
    )
    Tensor.__reduce_ex__ = _reduce_ex
    Tensor.__array_priority__ = 1000
    Tensor.__dlpack__ = _dlpack
    Tensor.__dlpack_device__ = lambda self: (1, 0)  # kDLCPU, device 0
    Tensor.__array_namespace__ = _array_namespace
