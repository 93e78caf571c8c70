"""Hot paths for the commonest calls: arithmetic operators on same-dtype tensors or a
tensor and a Python float, basic indexing and ``view``. Each checks the few conditions
under which the general implementation would do exactly this, and otherwise hands over
to it; the general implementation stays the reference (tests run both).

A fast path is part of its op's declaration: the family file names it in
``defop(..., fast={target: factory})`` (``torch._ops._dispatch``), and ``torch._bindings``
calls ``factory(op, general)`` where it binds ``target``, ``general`` being what it would
bind there otherwise. Targets are ``"Tensor.<attr>"`` (a method or operator) or
``"binding"`` (the op's function wherever it is bound: ``torch.<name>`` and its Tensor
methods, one object). A fast path hands its result to autograd through
``_dispatch.record_checked``, as the general path does through ``_dispatch.record``."""

from __future__ import annotations

import functools
import warnings

import numpy as np

from . import _blas, _dtype, _grad_mode
from ._memory_format import pointwise_layout
from ._native import (
    _BLAS_MIN_WORK,
    all_c_contiguous,
    blas_matmul,
    large_binary,
    native_sum,
    small_matmul,
)
from ._ops._dispatch import record_checked
from ._tensor import Tensor, make, make_view

# NumPy warns about float overflow and division by zero; PyTorch does not. Silencing
# them for frames in torch's own modules costs nothing when no warning happens (unlike
# np.errstate around every call).
warnings.filterwarnings(
    "ignore",
    message=r"(overflow|invalid value|divide by zero) encountered",
    category=RuntimeWarning,
    module=r"torch\.",
)

_grad_state = _grad_mode._state
_add_reduce = np.add.reduce  # the C reduction, without ndarray.sum's Python wrapper
_asarray = np.asarray
_ndarray = np.ndarray
_np_matmul = np.matmul  # only for products too small for any BLAS to thread (see below)
_gated_matmul = _blas.matmul
# Below this many multiply-adds no BLAS call starts threads (OpenBLAS threads GEMM from
# 64^3, GEMV from 9216 elements), so such products may skip the fork gate.
_UNTHREADED_WORK = 4096
# Python ints a float32 holds exactly: NumPy and the general path convert them alike
_EXACT_INT = 2**24
_FULL_FLOATS = (_dtype.float32, _dtype.float64)


def binary(ufunc, floats_only: bool = False):
    """Fast ``Tensor.__<op>__`` of the binary op computed by ``ufunc``: same-dtype tensors
    (floating ones only, with ``floats_only``) and a floating tensor with a Python float
    or small int; anything else through the op's function (``op.binding``), operands that
    are no numbers through ``general`` (the operator that returns ``NotImplemented``)."""

    def factory(op, general):
        return _binary(ufunc, op, general, floats_only)

    return factory


def _binary(ufunc, op, slow_operator, floats_only: bool):
    function = op.binding
    native_name = op.name
    saved = (1, None) if native_name == "div" else (1,)  # as function records: alpha (, mode)

    def operator(self, other):
        kind = type(other)
        if kind is Tensor:
            dtype = self._dtype
            if (
                dtype is other._dtype
                and dtype._fast_arith
                and (not floats_only or dtype.is_floating_point)
                and self._np.ndim
                and other._np.ndim
            ):
                if not (_grad_state.enabled and (self._requires_grad or other._requires_grad)):
                    try:
                        big = large_binary(native_name, self._np, other._np)
                        result = ufunc(self._np, other._np) if big is None else big
                        if not all_c_contiguous(self._np, other._np):
                            result = pointwise_layout(result, (self._np, other._np))[0]
                        return make(result, dtype)
                    except ValueError:
                        pass  # shapes that do not broadcast: the general path explains
                elif dtype.is_floating_point:
                    # recorded for autograd exactly as the general path records it
                    try:
                        result = ufunc(self._np, other._np)
                        if not all_c_contiguous(self._np, other._np):
                            result = pointwise_layout(result, (self._np, other._np))[0]
                        result = make(result, dtype)
                    except ValueError:
                        return function(self, other)
                    return record_checked(op, (self, other), result, saved)
        elif kind is float or (kind is int and -_EXACT_INT < other < _EXACT_INT):
            dtype = self._dtype
            # 0-dim arrays give NumPy scalars: those take the general path
            if dtype.is_floating_point and dtype._fast_arith and self._np.ndim:
                result = ufunc(self._np, other)
                if result.dtype == dtype.np_dtype:  # a huge float may widen on old NumPy
                    if not all_c_contiguous(self._np):
                        result = pointwise_layout(result, (self._np, other))[0]
                    result = make(result, dtype)
                    if _grad_state.enabled and self._requires_grad:
                        return record_checked(op, (self, other), result, saved)
                    return result
        elif not isinstance(other, (Tensor, int, float, complex, np.generic)):
            return slow_operator(self, other)
        return function(self, other)

    operator.__name__ = function.__name__
    return operator


def reflected(ufunc):
    """Fast ``Tensor.__r<op>__``: a Python float or small int with a floating tensor;
    anything else through ``general``."""

    def factory(op, general):
        return _reflected(ufunc, op, general)

    return factory


def _reflected(ufunc, op, slow_reflected):
    saved = (1, None) if op.name == "div" else (1,)

    def operator(self, other):
        kind = type(other)
        if (
            (kind is float or (kind is int and -_EXACT_INT < other < _EXACT_INT))
            and self._dtype.is_floating_point
            and self._dtype._fast_arith
            and self._np.ndim  # 0-dim arrays give NumPy scalars: the general path
        ):
            result = ufunc(other, self._np)
            if result.dtype == self._dtype.np_dtype:
                if not all_c_contiguous(self._np):
                    result = pointwise_layout(result, (other, self._np))[0]
                result = make(result, self._dtype)
                if _grad_state.enabled and self._requires_grad:
                    # as the general path records it: the scalar is the first input
                    return record_checked(op, (other, self), result, saved)
                return result
        return slow_reflected(self, other)

    return operator


def _is_plain_basic(index) -> bool:
    """An index of ints and forward slices only (what NumPy and PyTorch agree on)."""
    kind = type(index)
    if kind is int:
        return True
    if kind is slice:
        return index.step is None or (type(index.step) is int and index.step > 0)
    if kind is tuple:
        for item in index:
            k = type(item)
            if k is slice:
                if not (item.step is None or (type(item.step) is int and item.step > 0)):
                    return False
            elif k is not int:
                return False
        return True
    return False


def getitem(op, general):
    """``x[i]``, ``x[a:b, i]``: NumPy's view of basic indices outside autograd."""

    def method(self, index):
        if _is_plain_basic(index) and not (_grad_state.enabled and self._requires_grad):
            if type(index) is not tuple:
                whole = (index, Ellipsis)
            else:
                whole = index + (Ellipsis,)  # a 0-dim view, not a NumPy scalar
            try:
                array = self._np[whole]
            except IndexError:
                pass  # the general path raises PyTorch's message
            else:
                if array.size:  # empty results need PyTorch's geometry: the general path
                    return make_view(self, array)
        return general(self, index)

    return method


def view(op, general):
    """``x.view(*ints)`` of a C-contiguous tensor outside autograd: NumPy's reshape view."""

    def method(self, *shape):
        array = self._np
        if (
            array.flags.c_contiguous
            and array.size
            and not (_grad_state.enabled and self._requires_grad)
            and shape
            and type(shape[0]) is int
        ):
            try:
                viewed = array.reshape(shape)
            except ValueError:
                viewed = None  # -1 inference errors and bad sizes: the general path explains
            # NumPy infers any negative size, PyTorch only -1 (it rejects -2)
            if viewed is not None and (viewed.shape == shape or min(shape) == -1):
                return make_view(self, viewed, self._offset_)
        return general(self, *shape)

    return method


def transpose_2d(op, general):
    """``x.t()`` of a matrix outside autograd: NumPy's transposed view, same storage start."""

    def method(self):
        array = self._np
        if array.ndim == 2 and array.size and not (_grad_state.enabled and self._requires_grad):
            return make_view(self, array.T, self._offset_)
        return general(self)

    return method


def sum_all(op, general):
    """``x.sum()`` of a float32/64 tensor: one NumPy reduction (recorded for autograd when
    needed)."""
    all_dims = [tuple(range(n)) for n in range(65)]

    def method(self, *args, **kwargs):
        # float32/64 only: NumPy sums half precision in half, PyTorch in float32
        # (a device's array takes the general path: its reduction stays on the device)
        if not args and not kwargs and self._dtype in _FULL_FLOATS and type(self._np) is _ndarray:
            big = native_sum(self._np)
            if big is not None:
                result = make(_asarray(big, dtype=self._np.dtype), self._dtype)
            else:
                result = make(_asarray(_add_reduce(self._np, None)), self._dtype)
            if _grad_state.enabled and self._requires_grad:
                # recorded exactly as the general path records a full sum
                return record_checked(op, (self,), result, (all_dims[self._np.ndim], False))
            return result
        return general(self, *args, **kwargs)

    return method


def unary(kernel):
    """``torch.<name>(x)`` and ``x.<name>()`` of a float32/64 tensor (no other arguments):
    ``kernel``, the op's own, on the cached array, recorded for autograd as the general
    path records it. Declared for the op's ``"binding"``."""

    def factory(op, general):
        return _unary(kernel, op, general)

    return factory


def _unary(kernel, op, general):
    from_array = Tensor._from_array

    @functools.wraps(general)
    def function(input, *args, **kwargs):
        if (
            not args
            and not kwargs
            and type(input) is Tensor
            and input._dtype in _FULL_FLOATS
            and input._np.ndim
        ):
            result = from_array(kernel(input._np), input._dtype)
            if _grad_state.enabled and input._requires_grad:
                return record_checked(op, (input,), result, ())
            return result
        return general(input, *args, **kwargs)

    return function


def matmul_2d(op, general):
    """``a @ b`` of two float32/64 matrices of one dtype: the kernel straight on the cached
    arrays (recorded for autograd when needed); anything else, and every error, through
    the general path."""
    from_array = Tensor._from_array

    def operator(self, other):
        if type(other) is Tensor:
            a, b = self._np, other._np
            dtype = self._dtype
            if dtype is other._dtype and dtype in _FULL_FLOATS:
                # matmul_arrays' choice for small matrices, without its call: fresh
                # C-contiguous products, with PyTorch's strides
                product = small_matmul(a, b)
                if product is not None:
                    result = make(product, dtype)
                    if _grad_state.enabled and (self._requires_grad or other._requires_grad):
                        return record_checked(op, (self, other), result, ())
                    return result
            if (
                a.ndim == 2
                and b.ndim == 2
                and dtype is other._dtype
                and dtype in _FULL_FLOATS
                and a.shape[1] == b.shape[0]
            ):
                rows, columns = a.shape[0], b.shape[1]
                if (
                    rows * a.shape[1] * columns < _UNTHREADED_WORK
                    and type(a) is type(b) is _ndarray
                ):
                    product = _np_matmul(a, b)  # (empty products)
                else:
                    product = matmul_arrays(a, b)
                # a fresh C-contiguous product: only size-0/1 dims need _from_array's fixes
                if rows > 1 and columns > 1:
                    result = make(product, dtype)
                else:
                    result = from_array(product, dtype)
                if _grad_state.enabled and (self._requires_grad or other._requires_grad):
                    return record_checked(op, (self, other), result, ())
                return result
        return general(self, other)

    operator.__name__ = "__matmul__"
    return operator


def matmul_arrays(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` with the kernel ``torch.matmul`` uses (so gradients computed on arrays
    equal those computed on tensors); also the engine's array-level product
    (``torch._interface.array_kernels["matmul"]``)."""
    work = a.shape[0] * a.shape[1] * b.shape[-1] if a.ndim == 2 and b.ndim == 2 else None
    if work is not None and work < _UNTHREADED_WORK:
        product = small_matmul(a, b)  # None for a device's arrays: their module's (NEP 13)
        return _np_matmul(a, b) if product is None else product
    if type(a) is not _ndarray or type(b) is not _ndarray:
        return _np_matmul(a, b)  # a device's arrays: their module's product (NEP 13)
    if work is not None and work < _BLAS_MIN_WORK:
        return _gated_matmul(a, b)  # small: blas_matmul would decline it
    result = blas_matmul(a, b)
    return _gated_matmul(a, b) if result is None else result
