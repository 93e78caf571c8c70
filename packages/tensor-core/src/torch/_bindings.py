"""Binds the op functions as ``Tensor`` methods, properties and Python operators."""

from __future__ import annotations

import numbers
import sys
import warnings

import numpy as np

from . import _conversion, _indexing, _predicates, _random  # noqa: F401 - their declarations
from ._dtype_support import gate_bindings, gated
from ._interface import ops
from ._layout import strided
from ._ops import complex_views, linalg, pointwise, tensor_methods, views
from ._ops._dispatch import REMOVED
from ._ops.out_variants import add_out
from ._tensor import Tensor


def bind_ops(namespace: dict) -> None:
    """Generate from the op registry (``torch._ops._dispatch.defop``) the public
    ``torch.<name>`` functions (``out=`` added where declared), the ``Tensor`` methods and
    in-place forms, and ``torch.<name>_``; ``namespace`` is the ``torch`` module's. Where
    an op declares a hot path for a binding (``fast``, see ``torch._fastpath``), that is
    what is bound."""
    torch_inplace = []
    for op in ops.everything():
        function = op.binding
        if function is None:
            continue
        function = gated(function, op.name)  # refusals for the limited dtypes, if any
        public = add_out(function, op.name) if op.out and op.public else function
        fast = op.fast.get("binding")
        if fast is not None:  # one object for torch.<name> and its methods
            function = public = fast(op, public)
        if op.public:
            for name in (op.name, *op.aliases):
                namespace[name] = public
        method = gated(op.method, op.name) if op.method else function
        for name in op.methods:
            _bind_method(name, method, op)
        if op.inplace_forms:
            _bind_inplace(op)
        if op.torch_inplace:
            torch_inplace.append(op)
    for op in torch_inplace:  # once every in-place method is bound
        for name in (op.name, *op.aliases):
            method = getattr(Tensor, name + "_", None)
            if method is not None:
                namespace[name + "_"] = method
    _bind_removed(namespace)
    gate_bindings(namespace, Tensor)


def _bind_removed(namespace: dict) -> None:
    """``torch.<name>`` for each function PyTorch removed (``_dispatch.defremoved``)."""
    for name, function in REMOVED.items():
        op = ops.lookup(name)
        if op is not None and op.public:
            raise LookupError(f"torch.{name} is declared both as an op and as removed")
        namespace[name] = function


def _bind_method(name: str, general, op) -> None:
    """``Tensor.<name> = general``, or the hot path ``op`` declares for it."""
    factory = op.fast.get("Tensor." + name) if op is not None else None
    setattr(Tensor, name, general if factory is None else factory(op, general))


def _bind_inplace(op) -> None:
    """``Tensor.<form>`` for each in-place form of ``op``; the method aliases of the op
    (``subtract`` of ``sub``) get the form of its own name (``subtract_`` is ``sub_``)."""
    forms = {form: _resolve(op, form) for form in op.inplace_forms}
    for form, method in forms.items():
        setattr(Tensor, form, method)
    own = forms.get(op.name + "_")
    if own is not None:
        for alias in {*op.aliases, *op.methods} - {op.name}:
            setattr(Tensor, alias + "_", own)


def _resolve(op, form: str):
    """An in-place form named by its declaration: a name of the op's module, else an
    in-place kernel of the pointwise table, else a registered op's binding."""
    value = op.inplace_forms[form]
    if not isinstance(value, str):
        return value
    module = sys.modules[op.binding.__module__]
    found = getattr(module, value, None) or pointwise.INPLACE.get(value)
    if found is None and value in ops:
        found = ops[value].function
    if found is None:  # written next to other ops (cumsum_ with the math composites)
        found = next(
            (
                getattr(family, value)
                for family_name, family in sorted(sys.modules.items())
                if family_name.startswith("torch._ops.") and hasattr(family, value)
            ),
            None,
        )
    if found is None:
        raise LookupError(f"op '{op.name}' declares in-place form '{value}', which is not defined")
    return found


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

    if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
        raise ValueError(f"Unrecognized array API version: {api_version!r}")
    return _array_api


def bind() -> None:
    """The operators and properties of ``Tensor`` (hot paths where their ops declare them)."""
    _bind_method("__getitem__", _indexing.getitem, ops["index"])
    Tensor.__setitem__ = _indexing.setitem
    for name, function in _BINARY_OPERATORS.items():
        op = ops.lookup(function.__name__)
        _bind_method(f"__{name}__", _operator(function), op)
        _bind_method(f"__r{name}__", _reflected(function), op)
        setattr(Tensor, f"__i{name}__", _operator(pointwise.INPLACE[function.__name__ + "_"]))
    for name, function in _COMPARISONS.items():
        setattr(Tensor, f"__{name}__", _operator(function))
    _bind_method("__matmul__", _operator(linalg.matmul), ops["matmul"])
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
    for name, getter in tensor_methods.PROPERTIES.items():
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
