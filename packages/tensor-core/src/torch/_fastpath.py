"""Hot paths for the commonest calls: arithmetic operators on same-dtype tensors or a
tensor and a Python float, basic indexing and ``view``. Each checks the few conditions
under which the general implementation would do exactly this, and otherwise hands over
to it; the general implementation stays the reference (tests run both)."""

from __future__ import annotations

import functools
import sys
import warnings

import numpy as np

from . import _bindings, _blas, _dtype, _grad_mode
from ._interface import array_kernels, get_grad_engine, ops
from ._memory_format import pointwise_layout
from ._native import _BLAS_MIN_WORK, all_c_contiguous, blas_matmul, large_binary, native_sum
from ._ops import pointwise, unary_math
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
_np_matmul = np.matmul  # only for products too small for any BLAS to thread (see below)
_gated_matmul = _blas.matmul
# Below this many multiply-adds no BLAS call starts threads (OpenBLAS threads GEMM from
# 64^3, GEMV from 9216 elements), so such products may skip the fork gate.
_UNTHREADED_WORK = 4096
# Python ints a float32 holds exactly: NumPy and the general path convert them alike
_EXACT_INT = 2**24
_FULL_FLOATS = (_dtype.float32, _dtype.float64)


def _binary(ufunc, general, floats_only: bool, native_name: str):
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
                        return general(self, other)
                    get_grad_engine().record(op, (self, other), result, saved)
                    return result
        elif kind is float or (kind is int and -_EXACT_INT < other < _EXACT_INT):
            dtype = self._dtype
            # 0-dim arrays give NumPy scalars: those take the general path
            if dtype.is_floating_point and self._np.ndim:
                result = ufunc(self._np, other)
                if result.dtype == dtype.np_dtype:  # a huge float may widen on old NumPy
                    if not all_c_contiguous(self._np):
                        result = pointwise_layout(result, (self._np, other))[0]
                    result = make(result, dtype)
                    if _grad_state.enabled and self._requires_grad:
                        get_grad_engine().record(op, (self, other), result, saved)
                    return result
        elif not isinstance(other, (Tensor, int, float, complex, np.generic)):
            return slow_operator(self, other)
        return general(self, other)

    slow_operator = _bindings._operator(general)
    op = ops[native_name]
    saved = (1, None) if native_name == "div" else (1,)  # alpha (and div's rounding mode)
    operator.__name__ = general.__name__
    return operator


def _reflected(ufunc, general, native_name: str):
    def operator(self, other):
        kind = type(other)
        if (
            (kind is float or (kind is int and -_EXACT_INT < other < _EXACT_INT))
            and self._dtype.is_floating_point
            and self._np.ndim  # 0-dim arrays give NumPy scalars: the general path
        ):
            result = ufunc(other, self._np)
            if result.dtype == self._dtype.np_dtype:
                if not all_c_contiguous(self._np):
                    result = pointwise_layout(result, (other, self._np))[0]
                result = make(result, self._dtype)
                if _grad_state.enabled and self._requires_grad:
                    # as the general path records it: the scalar is the first input
                    get_grad_engine().record(op, (other, self), result, saved)
                return result
        return slow_reflected(self, other)

    slow_reflected = _bindings._reflected(general)
    op = ops[native_name]
    saved = (1, None) if native_name == "div" else (1,)
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


def getitem(general):
    def method(self, index):
        if _is_plain_basic(index) and not (_grad_state.enabled and self._requires_grad):
            if type(index) is not tuple:
                index = (index, Ellipsis)
            else:
                index = index + (Ellipsis,)  # a 0-dim view, not a NumPy scalar
            try:
                array = self._np[index]
            except IndexError:
                pass  # the general path raises PyTorch's message
            else:
                if array.size:  # empty results need PyTorch's geometry: the general path
                    return make_view(self, array)
        return general(self, index)

    return method


def view(general):
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


def transpose_2d(general):
    """``x.t()`` of a matrix outside autograd: NumPy's transposed view, same storage start."""

    def method(self):
        array = self._np
        if array.ndim == 2 and array.size and not (_grad_state.enabled and self._requires_grad):
            return make_view(self, array.T, self._offset_)
        return general(self)

    return method


def sum_all(general):
    """``x.sum()`` of a float32/64 tensor: one NumPy reduction (recorded for autograd when
    needed)."""
    sum_op = ops["sum"]
    all_dims = [tuple(range(n)) for n in range(65)]

    def method(self, *args, **kwargs):
        # float32/64 only: NumPy sums half precision in half, PyTorch in float32
        if not args and not kwargs and self._dtype in _FULL_FLOATS:
            big = native_sum(self._np)
            if big is not None:
                result = make(_asarray(big, dtype=self._np.dtype), self._dtype)
            else:
                result = make(_asarray(_add_reduce(self._np, None)), self._dtype)
            if _grad_state.enabled and self._requires_grad:
                # recorded exactly as the general path records a full sum
                get_grad_engine().record(sum_op, (self,), result, (all_dims[self._np.ndim], False))
            return result
        return general(self, *args, **kwargs)

    return method


def unary(general, kernel, name: str):
    """``torch.<name>(x)`` and ``x.<name>()`` of a float32/64 tensor (no other arguments):
    the op's own kernel on the cached array, recorded for autograd as the general path
    records it."""
    op = ops[name]
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
                get_grad_engine().record(op, (input,), result, ())
            return result
        return general(input, *args, **kwargs)

    return function


def matmul_2d(general):
    """``a @ b`` of two float32/64 matrices of one dtype: the kernel straight on the cached
    arrays (recorded for autograd when needed); anything else, and every error, through
    the general path."""
    op = ops["matmul"]
    from_array = Tensor._from_array

    def operator(self, other):
        if type(other) is Tensor:
            a, b = self._np, other._np
            dtype = self._dtype
            if (
                a.ndim == 2
                and b.ndim == 2
                and dtype is other._dtype
                and dtype in _FULL_FLOATS
                and a.shape[1] == b.shape[0]
            ):
                result = from_array(_matmul_arrays(a, b), dtype)
                if _grad_state.enabled and (self._requires_grad or other._requires_grad):
                    get_grad_engine().record(op, (self, other), result, ())
                return result
        return general(self, other)

    operator.__name__ = "__matmul__"
    return operator


def _matmul_arrays(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` with the kernel ``torch.matmul`` uses (so gradients computed on arrays
    equal those computed on tensors)."""
    if type(a) is not np.ndarray or type(b) is not np.ndarray:
        return np.matmul(a, b)  # a device's arrays: their module's product (NEP 13)
    if a.ndim == 2 and b.ndim == 2:
        work = a.shape[0] * a.shape[1] * b.shape[-1]
        if work < _UNTHREADED_WORK:
            return _np_matmul(a, b)
        if work < _BLAS_MIN_WORK:
            return _gated_matmul(a, b)  # small: blas_matmul would decline it
    result = blas_matmul(a, b)
    return _gated_matmul(a, b) if result is None else result


def install() -> None:
    array_kernels.register("matmul", _matmul_arrays)
    Tensor.__add__ = _binary(np.add, pointwise.add, False, "add")
    Tensor.__sub__ = _binary(np.subtract, pointwise.sub, False, "sub")
    Tensor.__mul__ = _binary(np.multiply, pointwise.mul, False, "mul")
    Tensor.__truediv__ = _binary(np.true_divide, pointwise.div, True, "div")
    Tensor.__radd__ = _reflected(np.add, pointwise.add, "add")
    Tensor.__rmul__ = _reflected(np.multiply, pointwise.mul, "mul")
    Tensor.__rsub__ = _reflected(np.subtract, pointwise.sub, "sub")
    Tensor.__rtruediv__ = _reflected(np.true_divide, pointwise.div, "div")
    Tensor.__getitem__ = getitem(Tensor.__getitem__)
    Tensor.view = view(Tensor.view)
    Tensor.sum = sum_all(Tensor.sum)
    Tensor.t = transpose_2d(Tensor.t)
    Tensor.__matmul__ = matmul_2d(Tensor.__matmul__)
    # the kernels the general functions use (unary_math/pointwise), without their argument
    # handling and np.errstate (NumPy's warnings are filtered for torch's modules above)
    torch = sys.modules["torch"]
    for name, kernel in (
        ("tanh", np.tanh),
        ("sigmoid", unary_math._sigmoid),
        ("exp", pointwise._exp),
    ):
        fast = unary(getattr(torch, name), kernel, name)
        setattr(torch, name, fast)
        setattr(Tensor, name, fast)
