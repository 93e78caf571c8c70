"""What every op shares: result dtypes, operand conversion and handing ops to the grad
engine."""

from __future__ import annotations

import functools

import numpy as np

from .. import _dtype, _grad_mode
from .._interface import OpDef, get_grad_engine, ops
from .._tensor import Tensor

_PY_SCALAR_DTYPE = {bool: _dtype.bool_, int: _dtype.int64}
_grad_state = _grad_mode._state


def _combine_categories(higher, lower):
    # PyTorch's rule for mixing operands of different priority (tensor, 0-dim tensor,
    # Python scalar): a lower-priority operand matters only if it is of a higher category.
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_complex:
        return higher
    if lower.is_complex:
        return higher.to_complex() if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is _dtype.bool_ or lower.is_floating_point:
        return _dtype.promote_types(higher, lower)
    return higher


def _scalar_dtype(value):
    kind = type(value)
    if kind in _PY_SCALAR_DTYPE:
        return _PY_SCALAR_DTYPE[kind]
    if kind is float:
        return _dtype.get_default_dtype()
    if kind is complex:
        return _dtype.get_default_dtype().to_complex()
    if isinstance(value, (bool, np.bool_)):
        return _dtype.bool_
    if isinstance(value, (int, np.integer)):
        return _dtype.int64
    if isinstance(value, (float, np.floating)):
        return _dtype.get_default_dtype()
    if isinstance(value, (complex, np.complexfloating)):
        return _dtype.get_default_dtype().to_complex()
    raise TypeError(f"expected a Tensor or a number, got {type(value).__name__}")


def result_type(*operands):
    """The dtype PyTorch gives an op over ``operands`` (tensors and Python scalars)."""
    dim_result = zero_result = scalar_result = None
    for x in operands:
        if isinstance(x, Tensor):
            if x._np.ndim:
                dim_result = (
                    x._dtype if dim_result is None else _dtype.promote_types(dim_result, x._dtype)
                )
            else:
                zero_result = (
                    x._dtype if zero_result is None else _dtype.promote_types(zero_result, x._dtype)
                )
        else:
            d = _scalar_dtype(x)
            scalar_result = d if scalar_result is None else _dtype.promote_types(scalar_result, d)
    return _combine_categories(dim_result, _combine_categories(zero_result, scalar_result))


@functools.cache
def tensor_pair_dtype(a, b):
    """Cached result dtype of two tensors with dim > 0 (the hot path)."""
    return _dtype.promote_types(a, b)


def operand(x, dtype) -> np.ndarray:
    """``x`` (tensor or scalar) as a NumPy operand of ``dtype``."""
    if isinstance(x, Tensor):
        array = x._np
        return array if array.dtype == dtype.np_dtype else array.astype(dtype.np_dtype)
    if type(x) is int and dtype._category == 1:
        # a weak Python int wraps into the tensor's integer type, as in PyTorch
        return np.asarray(np.int64(x) if -(2**63) <= x < 2**63 else x).astype(dtype.np_dtype)
    return np.asarray(x, dtype=dtype.np_dtype)


def check_tensor(x, op: str, arg: str = "input") -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{arg}' must be Tensor, not {type(x).__name__}")


def record(op, inputs, result, saved=()) -> Tensor:
    """Hand a finished op to the grad engine when grad mode is on and an input requires
    grad; return ``result``."""
    if not _grad_state.enabled or not op.differentiable:
        return result
    for x in inputs:
        if isinstance(x, Tensor) and x._requires_grad:
            get_grad_engine().record(op, inputs, result, saved)
            break
    return result


def check_inplace(self: Tensor, *others) -> bool:
    """Errors of an in-place write into ``self``; returns whether it must be recorded for
    autograd."""
    if not _grad_mode._state.enabled:
        return False
    recording = self._requires_grad or any(
        isinstance(o, Tensor) and o._requires_grad for o in others
    )
    if not recording:
        return False
    if self._requires_grad and self.grad_fn is None and self._base is None:
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    base = self._base
    if base is not None:
        if base._requires_grad and base.grad_fn is None:
            raise RuntimeError(
                "a view of a leaf Variable that requires grad is being used in an in-place "
                "operation."
            )
        # the engine rebases the history of the view's base when the write is recorded
        get_grad_engine().inplace_on_view(self)
    return True


def register_op(
    name,
    function,
    signature,
    family,
    *,
    differentiable=True,
    inplace=False,
    out_of_place=None,
    view=False,
    **extra,
):
    """Register one core op (its binding is ``function``); an in-place op with an
    out-of-place form names it, and that form's derivative entry covers both."""
    op = ops.register(
        OpDef(
            name=name,
            signature=signature,
            kernels={"cpu": function},
            family=family,
            differentiable=differentiable,
            inplace=inplace,
            view=view,
        )
    )
    op.function = function
    if out_of_place is not None:
        op.extra["out_of_place"] = out_of_place
    op.extra.update(extra)
    return op


class SparseLayoutError(NotImplementedError):
    """Raised when an op reads the dense data of a sparse COO tensor (``torch._sparse``).
    The few functions that take sparse operands catch it and call :func:`sparse_kernel`;
    a ``try`` costs the dense path nothing until it fires."""


#: function name -> its kernel for sparse operands (filled by ``torch._sparse_ops``)
SPARSE_KERNELS: dict = {}


def sparse_kernel(name: str, error: SparseLayoutError):
    """The sparse kernel of function ``name``; re-raises ``error`` when it has none."""
    kernel = SPARSE_KERNELS.get(name)
    if kernel is None:
        raise error
    return kernel


def wrap_array(array, dtype) -> Tensor:
    """A new tensor of ``dtype`` from a computed array, C-contiguous (0-dim stays 0-dim)."""
    return Tensor._from_array(np.asarray(array, dtype=dtype.np_dtype, order="C"), dtype)
