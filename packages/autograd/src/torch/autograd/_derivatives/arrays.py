"""Array-level forms of the hottest derivative formulas.

When no hook, ``create_graph`` or anomaly mode needs gradients as Tensors, the engine
runs these on the NumPy arrays of the gradients and inputs: the same arithmetic as the
Tensor formulas of the same op (same NumPy calls, in the same order, so the results are
identical), without making a Tensor per intermediate gradient.

A formula covers only the plain case (operands of the gradient's shape and dtype, no
broadcasting); for anything else it raises :class:`NoArrayFormError` and the engine runs the
op's Tensor formulas instead. Keys are op names, as in ``DERIVATIVES``; each value holds
one function per input, called as ``f(grad, inputs, saved)`` (or with the saved result as
a fourth argument for ops whose entry has ``saves_output``).
"""

from __future__ import annotations

import math

import numpy as np

from torch._interface import array_kernels
from torch._interface import tensors as _tensors

__all__ = ["ARRAY_FORMULAS", "NoArrayFormError"]


class NoArrayFormError(Exception):
    """An array formula does not cover this case: use the Tensor formulas."""


_negative = np.negative
_multiply = np.multiply
_where = np.where
_EXACT_INT = 2**24
_empty = np.empty
_array = _tensors.array


def _operand(x, grad):
    """The NumPy array of input ``x`` when it has the gradient's shape and dtype (a
    Python float, or an int a float32 holds exactly, as it is: NumPy treats them as
    weakly typed, as PyTorch does). Raises NoArrayFormError otherwise: formulas call it
    for that check alone where an input only needs the gradient's shape."""
    kind = type(x)
    if kind is float or (kind is int and -_EXACT_INT < x < _EXACT_INT):
        return x
    try:
        array = _array(x)
    except Exception:  # a kept shape, a sparse tensor, ...
        raise NoArrayFormError from None
    if array.shape != grad.shape or array.dtype != grad.dtype:
        raise NoArrayFormError
    return array


def _add_self(grad, inputs, saved):
    _operand(inputs[0], grad)
    return grad


def _add_other(grad, inputs, saved):
    if saved.alpha != 1:
        raise NoArrayFormError
    _operand(inputs[1], grad)
    return grad


def _sub_other(grad, inputs, saved):
    if saved.alpha != 1:
        raise NoArrayFormError
    _operand(inputs[1], grad)
    return _negative(grad)


def _mul_self(grad, inputs, saved):
    _operand(inputs[0], grad)
    return grad * _operand(inputs[1], grad)


def _mul_other(grad, inputs, saved):
    _operand(inputs[1], grad)
    return grad * _operand(inputs[0], grad)


def _div_self(grad, inputs, saved):
    if saved.rounding_mode is not None:
        raise NoArrayFormError  # rounding modes: the Tensor formula
    _operand(inputs[0], grad)
    return grad / _operand(inputs[1], grad)


def _div_other(grad, inputs, saved):
    if saved.rounding_mode is not None:
        raise NoArrayFormError
    a = _operand(inputs[0], grad)
    b = _operand(inputs[1], grad)
    return _negative(grad) * a / (b * b)  # as the Tensor formula: -grad * a / (b * b)


def _neg(grad, inputs, saved):
    return _negative(grad)


def _result(array, grad):
    """The saved result (the engine passes its array) when it matches the gradient."""
    if array.dtype != grad.dtype or array.shape != grad.shape:
        raise NoArrayFormError
    return array


def _tanh(grad, inputs, saved, result):
    y = _result(result, grad)
    return grad * (1.0 - y * y)


def _sigmoid(grad, inputs, saved, result):
    y = _result(result, grad)
    return grad * y * (1.0 - y)


def _exp(grad, inputs, saved, result):
    return grad * _result(result, grad)


def _sqrt(grad, inputs, saved, result):
    return grad / (2 * _result(result, grad))  # as the Tensor formula: g / (2 * y)


def _log(grad, inputs, saved):
    return grad / _operand(inputs[0], grad)


def _square(grad, inputs, saved):
    return 2 * _operand(inputs[0], grad) * grad  # as the Tensor formula: 2 * x * g


def _pow_self(grad, inputs, saved):
    base, exponent = inputs
    # exponents 2 and 3 only: core's pow takes base ** 1 and base ** 2 as the base itself
    # and a product (not np.power, which NumPy 1.x rounds off by an ulp); other powers
    # may take other kernels there
    if type(exponent) not in (int, float) or exponent not in (2, 3):
        raise NoArrayFormError
    base = _operand(base, grad)
    return grad * exponent * (base if exponent == 2 else _multiply(base, base))


def _permute(grad, inputs, saved):
    return grad.transpose(tuple(int(i) for i in np.argsort(saved.dims)))


def _condition(x, grad):
    """A boolean mask input of the gradient's shape."""
    try:
        array = _array(x)
    except Exception:
        raise NoArrayFormError from None
    if array.shape != grad.shape or array.dtype != np.bool_:
        raise NoArrayFormError
    return array


def _no_array_form(grad, inputs, saved):
    raise NoArrayFormError


def _where_self(grad, inputs, saved):
    _operand(inputs[1], grad)
    return _where(_condition(inputs[0], grad), grad, 0.0)


def _where_other(grad, inputs, saved):
    _operand(inputs[2], grad)
    return _where(_condition(inputs[0], grad), 0.0, grad)


def _clamp_self(grad, inputs, saved):
    x, low, high = inputs
    if not (_is_bound(low) and _is_bound(high)):
        raise NoArrayFormError  # tensor bounds: the Tensor formula
    x = _operand(x, grad)
    inside = np.ones(x.shape, dtype=np.bool_)  # as the Tensor formula's _within
    if low is not None:
        inside = inside & (x >= low)
    if high is not None:
        inside = inside & (x <= high)
    return _where(inside, grad, 0.0)


def _is_bound(value) -> bool:
    return value is None or type(value) is float or type(value) is int


def _matrices(inputs, grad):
    a, b = inputs
    try:
        a, b = _array(a), _array(b)
    except Exception:
        raise NoArrayFormError from None
    if a.ndim != 2 or b.ndim != 2 or a.dtype != grad.dtype or b.dtype != grad.dtype:
        raise NoArrayFormError
    return a, b


# Gradients at least this large go to core's threaded array kernels ("fill", "add_");
# callers test the size first: for smaller ones NumPy's call costs less than the lookup.
THREADED_MIN_SIZE = 1 << 16


def fill_big(out, value) -> None:
    """Every element of a big array ``out`` set to ``value``: by core's array kernel (a
    core that has none: by NumPy)."""
    kernel = array_kernels.get("fill")
    if kernel is None:
        out.fill(value)
    else:
        kernel(out, value)


def add_into_big(into, grad) -> None:
    """``into += grad`` for a big array ``into``: by core's array kernel (a core that has
    none: by NumPy)."""
    kernel = array_kernels.get("add_")
    if kernel is None:
        np.add(into, grad, into)
    else:
        kernel(into, grad)


def _matmul_kernel():
    """``torch.matmul``'s own kernel on arrays (core fills it in when it loads)."""
    kernel = array_kernels.get("matmul")
    return np.matmul if kernel is None else kernel


def _matmul_self(grad, inputs, saved):
    a, b = _matrices(inputs, grad)
    return _matmul_kernel()(grad, b.T)


def _matmul_other(grad, inputs, saved):
    a, b = _matrices(inputs, grad)
    return _matmul_kernel()(a.T, grad)


def _expanded(grad, shape: tuple, dims, keepdim: bool):
    """The gradient of a reduction over ``dims`` written into every position of the
    input's ``shape`` (a new array: the Tensor formula's expanded view, materialised as
    AccumulateGrad would)."""
    if type(shape) is not tuple:
        shape = tuple(shape)
    out = _empty(shape, grad.dtype)
    if grad.ndim == 0:
        if out.size < THREADED_MIN_SIZE:
            out.fill(grad)
        else:
            fill_big(out, grad)
        return out
    if not keepdim:
        grad = grad.reshape(tuple(1 if i in dims else s for i, s in enumerate(shape)))
    np.copyto(out, grad)
    return out


def _sum(grad, inputs, saved):
    shape = inputs[0]
    if not isinstance(shape, tuple):  # what the node keeps of the dropped input: its shape
        raise NoArrayFormError
    return _expanded(grad, shape, saved.dim, saved.keepdim)


def _mean(grad, inputs, saved):
    summed = _sum(grad, inputs, saved)
    # the Tensor formula divides the expanded gradient: the same value in every position
    return summed / math.prod([inputs[0][d] for d in saved.dim])


def _view(grad, inputs, saved):
    return grad.reshape(saved.input_geometry[0])  # the input's shape


def _reshape(grad, inputs, saved):
    return grad.reshape(saved.input_shape)


ARRAY_FORMULAS: dict[str, tuple] = {
    "add": (_add_self, _add_other),
    "sub": (_add_self, _sub_other),
    "mul": (_mul_self, _mul_other),
    "div": (_div_self, _div_other),
    "neg": (_neg,),
    "tanh": (_tanh,),
    "sigmoid": (_sigmoid,),
    "exp": (_exp,),
    "matmul": (_matmul_self, _matmul_other),
    "sum": (_sum,),
    "mean": (_mean,),
    "view": (_view,),
    "reshape": (_reshape,),
    "permute": (_permute,),
    # composite views recorded under their own node names (see ``views.py``)
    "_view_unsqueeze_view": (_view,),
    "_view_squeeze": (_view,),
    "_view_squeeze_dim": (_view,),
    "_view_squeeze_dims": (_view,),
    "_view_transpose": (_permute,),
    "_view_t": (_permute,),
    "sqrt": (_sqrt,),
    "log": (_log,),
    "square": (_square,),
    "pow": (_pow_self, _no_array_form),
    "where": (_no_array_form, _where_self, _where_other),
    "clamp": (_clamp_self, _no_array_form, _no_array_form),
}


def _keeping_dtype(formula):
    """``formula``, leaving to the Tensor formulas any result whose dtype is not the
    gradient's (NumPy 1.x promotes a 0-d float32 array combined with a Python scalar to
    float64; NumPy 2 keeps float32, as PyTorch does)."""

    def checked(grad, *args):
        result = formula(grad, *args)
        if result.dtype != grad.dtype:
            raise NoArrayFormError
        return result

    return checked


if (np.array(1, np.float32) * 2.5).dtype != np.float32:  # NumPy < 2 (before NEP 50)
    ARRAY_FORMULAS = {
        name: tuple(_keeping_dtype(formula) for formula in formulas)
        for name, formulas in ARRAY_FORMULAS.items()
    }
