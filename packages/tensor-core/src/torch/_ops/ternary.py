"""Pointwise ops of three operands: ``where``, ``clamp``, ``lerp``, ``addcmul``,
``addcdiv``, each with its in-place form (optimizers use ``addcmul_``/``addcdiv_``)."""

from __future__ import annotations

import numpy as np

from .. import _dtype, _grad_mode
from .._tensor import Tensor
from ._dispatch import (
    adopt_history,
    as_array,
    check_inplace,
    defop,
    operand,
    record,
    refuse_complex,
    result_type,
    scalar,
)
from .pointwise import (
    INPLACE,
    _cast_error,
    _check_broadcast_into,
    _family_register,
    _shape_error,
    _snapshot,
    _wrap,
    can_cast,
)

__all__ = ["where", "clamp", "clip", "lerp", "addcmul", "addcdiv"]


_register = _family_register("ternary")


def _array(x, dtype):
    return operand(x, dtype) if x is not None else None


def _cpp_name(dtype) -> str:
    from .out_variants import _dtype_name

    return _dtype_name(dtype)


def _direct_operands(self: Tensor, operands) -> list | None:
    """The NumPy arrays of ``operands`` (tensors and numbers, None skipped) when the op's
    result dtype is ``self``'s, so it can be computed in ``self``'s memory; else None."""
    if type(self) is not Tensor:
        return None
    present = [x for x in operands if x is not None]
    if any(isinstance(x, Tensor) and type(x) is not Tensor for x in present):
        return None  # sparse operands: the general path
    if result_type(self, *present) is not self._dtype:
        return None
    arrays = [operand(x, self._dtype) if x is not None else None for x in operands]
    _check_broadcast_into(self, *(a for a in arrays if a is not None))
    return arrays


def _inplace(name, function, direct=None, differentiable=True):
    """``self.<name>_(...)``: written straight into ``self`` by ``direct`` (which returns
    False when it does not apply), else the out-of-place result copied into ``self``.
    ``differentiable=False`` for composites (their parts record the gradient)."""

    def method(self: Tensor, *args, **kwargs):
        recording = check_inplace(self, *args, *kwargs.values())
        if not recording and direct is not None and direct(self, *args, **kwargs):
            self._bump_version()
            return self
        with _grad_mode.no_grad():
            result = function(self, *args, **kwargs)
        if not can_cast(result._dtype, self._dtype):
            # PyTorch's clamp family spells the output type the C++ way ("long int")
            target = (
                _cpp_name(self._dtype) if name.startswith("clamp") else self._dtype._legacy[:-6]
            )
            raise _cast_error(result._dtype, self, target)
        if result._np.shape != self._np.shape:
            raise _shape_error(self._np.shape, result._np.shape)
        snapshot = _snapshot(self) if recording else None
        np.copyto(self._np, result._np, casting="unsafe")
        self._bump_version()
        if recording:
            args = tuple(snapshot if a is self else a for a in args)
            with _grad_mode.enable_grad():
                redo = function(snapshot, *args, **kwargs)
            adopt_history(self, redo)
        return self

    method.__name__ = method.__qualname__ = name + "_"
    _register(
        name + "_",
        method,
        f"{name}_(Tensor(a!) self, ...) -> Tensor(a!)",
        differentiable=differentiable,
        inplace=True,
    )
    INPLACE[name + "_"] = method
    return method


def _arrays(*operands) -> tuple:
    """The TensorIterator operands of a pointwise op: tensors' arrays, None left out (an
    absent clamp bound), anything else a wrapped scalar."""
    return tuple(o._np if isinstance(o, Tensor) else o for o in operands if o is not None)


# --------------------------------------------------------------------------- where


def where(condition, input=None, other=None):
    """Elements of ``input`` where ``condition`` holds, else of ``other`` (tensors or
    numbers, broadcast together); with the condition alone, the indices where it holds.

    Examples::

        >>> x = torch.tensor([1.0, -2.0, 3.0])
        >>> torch.where(x > 0, x, 0.0)
        tensor([1., 0., 3.])
    """
    if input is None and other is None:
        # one (ndim, N) result whose rows are returned as views, as PyTorch does
        rows = Tensor._from_array(np.array(np.nonzero(condition._np), dtype=np.int64), _dtype.int64)
        return tuple(rows[i] for i in range(rows.shape[0]))
    if not isinstance(condition, Tensor) or condition._dtype is not _dtype.bool_:
        got = (
            condition._dtype._legacy[:-6]
            if isinstance(condition, Tensor)
            else type(condition).__name__
        )
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype {got}"
        )
    dtype = result_type(input, other)
    try:
        array = np.where(condition._np, _array(input, dtype), _array(other, dtype))
    except ValueError:
        raise _broadcast_failure(condition, input, other) from None
    result = _wrap(as_array(array, dtype.np_dtype), dtype, _arrays(condition, input, other))
    return record(WHERE, (condition, input, other), result)


def _where_method(self, condition, other):  # self.where(c, y) is torch.where(c, self, y)
    return where(condition, self, other)


defop("where", where, method=_where_method, out=True)


def _broadcast_failure(*operands) -> RuntimeError:
    """PyTorch's message for operands whose shapes do not broadcast together."""
    shapes = [np.shape(x._np if isinstance(x, Tensor) else x) for x in operands]
    ndim = max(len(s) for s in shapes)
    for i in range(1, ndim + 1):
        sizes = [s[-i] for s in shapes if i <= len(s) and s[-i] != 1]
        if len(set(sizes)) > 1:
            return RuntimeError(
                f"The size of tensor a ({sizes[0]}) must match the size of tensor b "
                f"({sizes[1] if sizes[1] != sizes[0] else sizes[2]}) at non-singleton "
                f"dimension {ndim - i}"
            )
    return RuntimeError(f"shapes {[list(s) for s in shapes]} cannot be broadcast together")


WHERE = _register("where", where, "where(Tensor condition, Tensor self, Tensor other) -> Tensor")


# --------------------------------------------------------------------------- clamp


@defop(
    "clamp",
    method=True,
    inplace=True,
    aliases=("clip",),
    torch_inplace=True,
    refuses_complex={"": (NotImplementedError, "clamp is not supported for complex types")},
)
def clamp(input: Tensor, min=None, max=None, *, out=None) -> Tensor:  # noqa: A002
    """``input`` limited to [``min``, ``max``] (numbers or tensors; where ``min > max``
    the result is ``max``).

    Examples::

        >>> torch.clamp(torch.tensor([-2.0, 0.5, 3.0]), min=-1, max=1)
        tensor([-1.0000,  0.5000,  1.0000])
    """
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    dtype = result_type(*(x for x in (input, min, max) if x is not None))
    if dtype._category == 3:
        refuse_complex("clamp", dtype)
    array = operand(input, dtype)
    if min is not None:
        array = np.maximum(array, operand(min, dtype))
    if max is not None:
        array = np.minimum(array, operand(max, dtype))
    result = _wrap(as_array(array, dtype.np_dtype), dtype, _arrays(input, min, max))
    if out is not None:
        from .pointwise import _write_out

        return _write_out(out, result._np, dtype)
    return record(CLAMP, (input, min, max), result)


CLAMP = _register(
    "clamp", clamp, "clamp(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor"
)
clip = clamp


# ---------------------------------------------------------------------------- lerp


_C_NAMES = {"int64": "long int", "int32": "int", "float32": "float", "float64": "double"}


@defop("lerp", method=True, inplace=True, out=True)
def lerp(input: Tensor, end: Tensor, weight) -> Tensor:
    """``input + weight * (end - input)``, computed from the nearer end as PyTorch does.

    Examples::

        >>> torch.lerp(torch.tensor([0.0, 10.0]), torch.tensor([10.0, 20.0]), 0.25)
        tensor([ 2.5000, 12.5000])
    """
    dtype = result_type(input, end)
    if dtype is not input._dtype or (isinstance(end, Tensor) and end._dtype is not dtype):
        raise RuntimeError(
            f"expected dtype {input._dtype.name} for `end` but got dtype "
            f"{end._dtype.name if isinstance(end, Tensor) else 'scalar'}"
        )
    if not (dtype.is_floating_point or dtype.is_complex):
        if isinstance(weight, Tensor) and weight._dtype is not dtype:
            raise RuntimeError(
                f"expected dtype {_C_NAMES.get(dtype.name, dtype.name)} for `weight` but got "
                f"dtype {_C_NAMES.get(weight._dtype.name, weight._dtype.name)}"
            )
        kernel = "lerp_kernel_tensor" if isinstance(weight, Tensor) else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dtype._legacy[:-6]}'")
    start, stop = operand(input, dtype), operand(end, dtype)
    w = operand(weight, dtype)
    span = stop - start
    one = scalar(1, dtype.np_dtype)
    array = np.where(np.abs(w) < 0.5, start + w * span, stop - span * (one - w))
    result = _wrap(as_array(array, dtype.np_dtype), dtype, _arrays(input, end, weight))
    return record(LERP, (input, end, weight), result)


LERP = _register("lerp", lerp, "lerp(Tensor self, Tensor end, Tensor weight) -> Tensor")


# ------------------------------------------------------------------ addcmul/addcdiv


def _addc(op, input, tensor1, tensor2, value, dtype, combine=np.multiply) -> Tensor:
    """``input + value * tensor1 (combine) tensor2`` in ``dtype``, recorded as ``op``."""
    a, b, c = operand(input, dtype), operand(tensor1, dtype), operand(tensor2, dtype)
    array = a + combine(scalar(value, dtype.np_dtype) * b, c)
    result = Tensor._from_array(as_array(array, dtype.np_dtype), dtype)
    return record(op, (input, tensor1, tensor2), result, (value,))


@defop("addcmul", method=True, inplace=True, out=True)
def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
    """``input + value * tensor1 * tensor2``.

    Examples::

        >>> a, b = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
        >>> torch.addcmul(torch.ones(2), a, b, value=0.5)
        tensor([2.5000, 5.0000])
    """
    return _addc(ADDCMUL, input, tensor1, tensor2, value, result_type(input, tensor1, tensor2))


_ADDC = "{}(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor"
ADDCMUL = _register("addcmul", addcmul, _ADDC.format("addcmul"), saved=("value",))


@defop("addcdiv", method=True, inplace=True, out=True)
def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
    """``input + value * tensor1 / tensor2`` (floating dtypes only)."""
    dtype = result_type(input, tensor1, tensor2)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a "
            "future  release addcdiv will perform a true division of tensor1 and "
            "tensor2. The historic addcdiv behavior can be implemented as "
            "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) "
            "for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all "
            "dtypes."
        )
    with np.errstate(all="ignore"):
        return _addc(ADDCDIV, input, tensor1, tensor2, value, dtype, np.true_divide)


ADDCDIV = _register("addcdiv", addcdiv, _ADDC.format("addcdiv"), saved=("value",))

# ------------------------------------------- in-place kernels writing into ``self``
# Each computes what its out-of-place function computes, in the same order of roundings,
# with temporaries only for what cannot go straight into ``self`` (NumPy has no fused
# multiply-add).


def _clamp_direct(self: Tensor, min=None, max=None) -> bool:  # noqa: A002
    if min is None and max is None:
        return False  # the general path raises
    arrays = _direct_operands(self, (min, max))
    if arrays is None or self._dtype._category == 3:
        return False  # complex: the general path raises
    low, high = arrays
    if low is not None and high is not None:
        # one pass; NumPy's clip is min(max(x, low), high) and propagates NaN, as clamp
        np.clip(self._np, low, high, out=self._np)
    elif low is not None:
        np.maximum(self._np, low, out=self._np)
    else:
        np.minimum(self._np, high, out=self._np)
    return True


def _lerp_direct(self: Tensor, end, weight) -> bool:
    if not isinstance(weight, (int, float)) or not self._dtype.is_floating_point:
        return False  # tensor weights: the general path
    arrays = _direct_operands(self, (end,))
    if arrays is None:
        return False
    a, stop = self._np, arrays[0]
    w = scalar(weight, a.dtype)
    span = np.subtract(stop, a)
    if abs(weight) < 0.5:
        np.multiply(span, w, out=span)
        np.add(a, span, out=a)
    else:
        np.multiply(span, scalar(1, a.dtype) - w, out=span)
        np.subtract(stop, span, out=a)
    return True


def _scaled_product(ufunc, b, c, value, dtype):
    """``value * b (ufunc) c`` in ``dtype``, reusing the one temporary."""
    tmp = np.multiply(scalar(value, dtype), b)
    if tmp.shape == np.broadcast_shapes(tmp.shape, c.shape):
        return ufunc(tmp, c, out=tmp)
    return ufunc(tmp, c)


def _addc_direct(ufunc, floating_only):
    def direct(self: Tensor, tensor1, tensor2, *, value=1) -> bool:
        if floating_only and not self._dtype.is_floating_point:
            return False  # the general path raises for integers
        arrays = _direct_operands(self, (tensor1, tensor2))
        if arrays is None:
            return False
        product = _scaled_product(ufunc, arrays[0], arrays[1], value, self._np.dtype)
        np.add(self._np, product, out=self._np)
        return True

    return direct


clamp_ = _inplace("clamp", clamp, _clamp_direct)
lerp_ = _inplace("lerp", lerp, _lerp_direct)
addcmul_ = _inplace("addcmul", addcmul, _addc_direct(np.multiply, False))
addcdiv_ = _inplace("addcdiv", addcdiv, _addc_direct(np.divide, True))
INPLACE["clip_"] = clamp_
