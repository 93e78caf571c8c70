"""Pointwise arithmetic: ``add``, ``sub``, ``mul``, ``div``, ``neg`` and in-place forms."""

from __future__ import annotations

import numpy as np

from .. import _dtype, _grad_mode
from .._interface import OpDef, ops
from .._tensor import Tensor
from ._dispatch import operand, record, result_type, tensor_pair_dtype

__all__ = ["add", "sub", "mul", "div", "neg"]


def _binary_dtype(a, b):
    # hot path: two tensors with dims, cached per dtype pair
    if type(a) is Tensor and type(b) is Tensor and a._np.ndim and b._np.ndim:
        return tensor_pair_dtype(a._dtype, b._dtype)
    return result_type(a, b)


def _check_alpha(alpha, dtype, name: str) -> None:
    if (
        alpha != 1
        and isinstance(alpha, float)
        and not (dtype.is_floating_point or dtype.is_complex)
    ):
        raise RuntimeError(
            f"For integral input tensors, argument alpha must not be a floating "
            f"point number. ({name})"
        )


def _write_out(out: Tensor, array: np.ndarray) -> Tensor:
    if out._np.shape != array.shape:
        raise RuntimeError(
            f"out= tensor has shape {list(out._np.shape)}, but the result has "
            f"shape {list(array.shape)}"
        )
    np.copyto(out._np, array, casting="unsafe")
    out._bump_version()
    return out


def _make_binary(name: str, ufunc, doc: str, with_alpha: bool):
    op = ops.register(
        OpDef(
            name=name,
            signature=f"{name}(Tensor input, Tensor other"
            + (", *, Scalar alpha=1)" if with_alpha else ")")
            + " -> Tensor",
            kernels={"cpu": ufunc},
            family="pointwise",
            doc=doc,
        )
    )

    def function(input, other, *, alpha=1, out=None):
        if not isinstance(input, Tensor):
            input, other = _as_tensor_first(name, input, other)
        dtype = _binary_dtype(input, other)
        if alpha != 1:
            _check_alpha(alpha, dtype, name)
        if name == "div" and not (dtype.is_floating_point or dtype.is_complex):
            dtype = _dtype.get_default_dtype()  # true division of integers
        b = operand(other, dtype)
        if alpha != 1:
            b = b * np.asarray(alpha, dtype=dtype.np_dtype)
        result = ufunc(operand(input, dtype), b)
        if out is not None:
            return _write_out(out, result)
        saved = (alpha,) if with_alpha else ()
        return record(op, (input, other), Tensor._from_array(result, dtype), saved)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return op, function


def _as_tensor_first(name, input, other):
    if isinstance(other, Tensor):
        from .._creation import tensor

        return tensor(input, dtype=result_type(input, other)), other
    raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")


_ADD_DOC = """Add ``other``, scaled by ``alpha``, to ``input``, broadcasting their shapes.

Args:
    input (Tensor): the first operand.
    other (Tensor or Number): the second operand.
    alpha (Number): multiplier for ``other``. Default: ``1``.
    out (Tensor, optional): where to write the result.

Examples::

    >>> import torch
    >>> torch.add(torch.tensor([1, 2]), torch.tensor([10, 20]), alpha=2)
    tensor([21, 42])
"""

_SUB_DOC = """Subtract ``other``, scaled by ``alpha``, from ``input``, broadcasting.

Examples::

    >>> import torch
    >>> torch.sub(torch.tensor([5.0, 6.0]), 1)
    tensor([4., 5.])
"""

_MUL_DOC = """Multiply ``input`` by ``other`` elementwise, broadcasting.

Examples::

    >>> import torch
    >>> torch.mul(torch.tensor([1, 2, 3]), 2.5)
    tensor([2.5000, 5.0000, 7.5000])
"""

_DIV_DOC = """Divide ``input`` by ``other`` elementwise (true division: integers give floats).

Examples::

    >>> import torch
    >>> torch.div(torch.tensor([1, 2, 3]), 2)
    tensor([0.5000, 1.0000, 1.5000])
"""

ADD, add = _make_binary("add", np.add, _ADD_DOC, with_alpha=True)
SUB, sub = _make_binary("sub", np.subtract, _SUB_DOC, with_alpha=True)
MUL, mul = _make_binary("mul", np.multiply, _MUL_DOC, with_alpha=False)
DIV, div = _make_binary("div", np.true_divide, _DIV_DOC, with_alpha=False)

NEG = ops.register(
    OpDef(
        name="neg",
        signature="neg(Tensor input) -> Tensor",
        kernels={"cpu": np.negative},
        family="pointwise",
    )
)


def neg(input: Tensor, *, out=None) -> Tensor:
    """``-input``, elementwise.

    Examples::

        >>> import torch
        >>> torch.neg(torch.tensor([1.0, -2.0]))
        tensor([-1.,  2.])
    """
    if input._dtype is _dtype.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If "
            "you are trying to invert a mask, use the `~` or `logical_not()` "
            "operator instead."
        )
    result = np.negative(input._np)
    if out is not None:
        return _write_out(out, result)
    return record(NEG, (input,), Tensor._from_array(result, input._dtype))


# ------------------------------------------------------------------------- in-place


def _make_inplace(name: str, function):
    # Only add_ and sub_ record for autograd for now: their derivatives need no input
    # values, which the in-place write has already overwritten.
    recordable = name in ("add_", "sub_")
    op = ops.register(
        OpDef(
            name=name,
            signature=f"{name}(Tensor(a!) self, Tensor other) -> Tensor(a!)",
            kernels={"cpu": function},
            family="pointwise",
            inplace=True,
            differentiable=recordable,
        )
    )

    def method(self: Tensor, other, **kwargs):
        recording = _grad_mode.is_grad_enabled() and (
            self._requires_grad or (isinstance(other, Tensor) and other._requires_grad)
        )
        if recording and self.is_leaf and self._requires_grad:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation."
            )
        if recording and not recordable:
            raise NotImplementedError(
                f"{name} on tensors that require grad is not supported "
                f"yet; use the out-of-place {name[:-1]}"
            )
        with _grad_mode.no_grad():
            result = function(self, other, **kwargs)
        if result._dtype is not self._dtype and not _can_cast(result._dtype, self._dtype):
            raise RuntimeError(
                f"result type {_legacy_name(result._dtype)} can't be cast to the "
                f"desired output type {_legacy_name(self._dtype)}"
            )
        if result._np.shape != self._np.shape:
            raise RuntimeError(
                f"output with shape {list(self._np.shape)} doesn't match the "
                f"broadcast shape {list(result._np.shape)}"
            )
        self._np[...] = result._np
        self._bump_version()
        if recording:
            record(op, (self, other), self, (kwargs.get("alpha", 1),))
        return self

    method.__name__ = method.__qualname__ = name
    return method


def _can_cast(src, dst) -> bool:
    return src._category <= dst._category


def _legacy_name(d) -> str:
    return d._legacy.replace("Tensor", "")


add_ = _make_inplace("add_", add)
sub_ = _make_inplace("sub_", sub)
mul_ = _make_inplace("mul_", mul)
div_ = _make_inplace("div_", div)
