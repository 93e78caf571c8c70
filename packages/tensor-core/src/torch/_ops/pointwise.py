"""Pointwise ops: arithmetic, comparisons, bitwise and logical ops, with broadcasting and
PyTorch's type promotion; each with its in-place ``_`` form.

One builder makes every binary op and one every unary op, so the dtype rules, ``out=``,
in-place checks and autograd recording are written once.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype, _fastpath, _grad_mode
from .._dtype_support import refuse_limited
from .._interface import array_kernels
from .._memory_format import pointwise_layout
from .._native import PARALLEL_MIN_SIZE, large_binary, large_exp
from .._tensor import Tensor, make
from ._dispatch import (
    SparseLayoutError,
    as_array,
    check_array_overlap,
    check_inplace,
    complex_refusing,
    defop,
    kernel_refusal,
    operand,
    record,
    refuse_grad_with_out,
    register_op,
    result_type,
    scalar,
    sparse_kernel,
    tensor_pair_dtype,
)

__all__ = [
    "add",
    "sub",
    "mul",
    "div",
    "true_divide",
    "floor_divide",
    "remainder",
    "pow",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "logical_and",
    "logical_or",
    "logical_xor",
    "neg",
    "negative",
    "abs",
    "absolute",
    "sign",
    "exp",
    "log",
    "bitwise_not",
    "logical_not",
    "positive",
    "can_cast",
    "INPLACE",
]

_FLOATING = (2, 3)  # dtype categories: floating, complex


@defop("can_cast")
def can_cast(from_, to) -> bool:
    """Whether an op may write a result of dtype ``from_`` into a tensor of dtype ``to``
    (no complex to real, floating to integral, or non-bool to bool).

    Examples::

        >>> torch.can_cast(torch.float64, torch.float16), torch.can_cast(torch.float32, torch.int32)
        (True, False)
    """
    return from_._category <= to._category


def _legacy_name(d) -> str:
    return d._legacy[: -len("Tensor")]


def _cast_error(dtype, target, target_name=None) -> RuntimeError:
    """PyTorch's error for a result of ``dtype`` that cannot be written into the tensor
    ``target`` (``target_name``: how to spell its dtype, when not the legacy way)."""
    return RuntimeError(
        f"result type {_legacy_name(dtype)} can't be cast to the desired output type "
        f"{target_name or _legacy_name(target._dtype)}"
    )


def _shape_error(shape, broadcast_shape) -> RuntimeError:
    """PyTorch's error for an in-place result of ``broadcast_shape`` that does not fit the
    ``shape`` of the tensor written into."""
    return RuntimeError(
        f"output with shape {list(shape)} doesn't match the broadcast shape {list(broadcast_shape)}"
    )


def _binary_dtype(a, b):
    # hot path: two tensors with dims, cached per dtype pair
    if type(a) is Tensor and type(b) is Tensor and a._np.ndim and b._np.ndim:
        return tensor_pair_dtype(a._dtype, b._dtype)
    return result_type(a, b)


def _write_out(out: Tensor, array: np.ndarray, dtype) -> Tensor:
    if not isinstance(out, Tensor):
        raise TypeError(f"argument 'out' must be Tensor, not {type(out).__name__}")
    if not can_cast(dtype, out._dtype):
        raise _cast_error(dtype, out)
    if out._np.shape != array.shape:
        # resized to the result, as PyTorch does (with its warning when it held elements)
        from .out_variants import _resize

        _resize(out, array)
    check_array_overlap(out._np)
    np.copyto(out._np, array, casting="unsafe")
    out._bump_version()
    return out


def _first_tensor(name, input, other):
    """Allow a number as the first operand when the second is a tensor (``2 ** t``)."""
    if isinstance(input, Tensor):
        return input
    if isinstance(other, Tensor):
        # a 0-dim tensor where ``other`` lives (its device, as PyTorch wraps the number)
        dtype = result_type(input, other).np_dtype
        return Tensor._from_array(np.full((), input, dtype=dtype, like=other._np))
    raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")


def _broadcast_error(a: Tensor, b) -> RuntimeError:
    sa, sb = a._np.shape, np.shape(b._np if isinstance(b, Tensor) else b)
    for i in range(1, max(len(sa), len(sb)) + 1):
        x = sa[-i] if i <= len(sa) else 1
        y = sb[-i] if i <= len(sb) else 1
        if x != y and x != 1 and y != 1:
            return RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b "
                f"({y}) at non-singleton dimension {max(len(sa), len(sb)) - i}"
            )
    return RuntimeError("operands could not be broadcast together")


# --------------------------------------------------------------------- dtype rules


def _arith(dtype, *_):
    return dtype, dtype


def _true_div(dtype, *_):
    result = dtype if dtype._category in _FLOATING else _dtype.get_default_dtype()
    return result, result


def _sub_rule(dtype, *_):
    if dtype is _dtype.bool_:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not "
            "supported. Use the `^` or `logical_xor()` operator instead."
        )
    return dtype, dtype


def _compare(dtype, *_):
    return dtype, _dtype.bool_


def _logical(dtype, *_):
    return dtype, _dtype.bool_


def _bool_refused(kernel_name, rule=None):
    """``rule`` (the plain arithmetic one by default) refusing bool operands, with
    PyTorch's message naming its kernel."""

    def checked(dtype, *extra):
        if dtype is _dtype.bool_:
            raise NotImplementedError(f"\"{kernel_name}\" not implemented for 'Bool'")
        return (rule or _arith)(dtype, *extra)

    return checked


def _integral_only(name):
    def rule(dtype, *_):
        if dtype._category in _FLOATING:
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_legacy_name(dtype)}'")
        return dtype, dtype

    return rule


# ------------------------------------------------------------------------ kernels


def _check_integer_divisor(a, b, dtype) -> None:
    if dtype._category <= 1 and np.any(as_array(b) == 0):
        raise RuntimeError("ZeroDivisionError")


def _floor_divide(a, b, dtype):
    _check_integer_divisor(a, b, dtype)
    return np.floor_divide(a, b)


def _remainder(a, b, dtype):
    _check_integer_divisor(a, b, dtype)
    return np.remainder(a, b)


def _pow(a, b, dtype):
    if dtype._category <= 1 and np.any(as_array(b) < 0):
        if np.ndim(b) == 0:  # a Python number exponent
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return _integer_pow(as_array(a), as_array(b))
    # NOTE: a scalar exponent of 0.5 is a square root, as PyTorch computes it: np.power
    # rounds x ** 0.5 differently from one NumPy version to the next, np.sqrt never does
    # (scalars arrive here as 0-d arrays)
    if dtype.is_floating_point and np.ndim(b) == 0:
        if b == 0.5:
            return np.sqrt(a)
        # NOTE: exponents 1, 2 and -1 are a copy, a product and a reciprocal, as in PyTorch
        # and NumPy 2; NumPy 1.x's np.power (SVML on AVX-512) rounds even x ** 2 and
        # x ** 1 off by an ulp
        if b == 2:
            return np.multiply(a, a)
        if b == 1:
            return np.positive(a)  # a copy
        if b == -1:
            return np.reciprocal(a)
    return np.power(a, b)


def _integer_pow(a, b):
    """Integer powers where some exponents are negative, as PyTorch computes them:
    1 for base 1, +-1 for base -1 by the exponent's parity, 0 for any other base."""
    positive = np.power(a, np.maximum(b, 0))
    one = np.ones_like(positive)
    negative = np.where(a == 1, one, np.where(a == -1, np.where(b % 2 == 0, one, -one), 0))
    return np.where(b < 0, negative, positive)


def _div_kernel(a, b, dtype, rounding_mode):
    if rounding_mode is None:
        return np.true_divide(a, b)
    if rounding_mode == "floor":
        return _floor_divide(a, b, dtype)
    if rounding_mode == "trunc":
        if dtype._category <= 1:
            _check_integer_divisor(a, b, dtype)
            quotient = np.floor_divide(a, b)
            inexact = (np.remainder(a, b) != 0) & ((as_array(a) < 0) != (as_array(b) < 0))
            return quotient + inexact.astype(quotient.dtype)
        return np.trunc(np.true_divide(a, b))
    raise ValueError(
        f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
        f"found '{rounding_mode}'"
    )


_NATIVE_NAMES = {np.add: "add", np.subtract: "sub", np.multiply: "mul"}


def _plain(ufunc):
    """The kernel of a binary op that is one NumPy ufunc; ``kernel.ufunc`` lets the
    in-place form write straight into the tensor."""
    name = _NATIVE_NAMES.get(ufunc)
    if name is None:

        def kernel(a, b, dtype):
            return ufunc(a, b)

    else:

        def kernel(a, b, dtype):
            big = large_binary(name, a, b)
            return ufunc(a, b) if big is None else big

    kernel.ufunc = ufunc
    return kernel


def _shifted(ufunc):
    def kernel(a, b, dtype):
        # shifting by the width or more gives 0 (or -1 for negative numbers shifted right)
        bits = dtype.itemsize * 8
        b = as_array(b)
        result = ufunc(a, np.clip(b, 0, bits - 1).astype(as_array(a).dtype))
        too_far = (b >= bits) | (b < 0)  # PyTorch treats negative counts as too far too
        if np.any(too_far):
            fill = np.where(as_array(a) < 0, -1, 0) if ufunc is np.right_shift else 0
            result = np.where(too_far, fill, result).astype(result.dtype)
        return result

    return kernel


# ------------------------------------------------------------------------ builder


def _wrap(result: np.ndarray, dtype, operands) -> Tensor:
    """The tensor for a pointwise result, laid out as PyTorch's TensorIterator would
    (channels-last inputs give channels-last results)."""
    array, moved = pointwise_layout(result, operands)
    return make(array, dtype) if moved else Tensor._from_array(array, dtype)


INPLACE: dict[str, object] = {}


def _register(
    name,
    function,
    signature,
    differentiable,
    inplace=False,
    out_of_place=None,
    family="pointwise",
    saved=(),
):
    return register_op(
        name,
        function,
        signature,
        family,
        differentiable=differentiable,
        inplace=inplace,
        out_of_place=out_of_place,
        saved=saved,
    )


def _register_forms(
    name, function, inplace, doc, signatures, differentiable, family, saved, refuses_complex
):
    """Name ``function`` and its in-place form ``inplace``, and register both OpDefs (with
    ``signatures``, out-of-place first; the in-place one also in ``INPLACE``)."""
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    inplace.__name__ = inplace.__qualname__ = name + "_"
    op = _register(name, function, signatures[0], differentiable, family=family, saved=saved)
    if refuses_complex is not None:
        op.complex_refusal[""] = refuses_complex
    inplace_op = _register(
        name + "_",
        inplace,
        signatures[1],
        differentiable,
        inplace=True,
        out_of_place=name,
        family=family,
        saved=saved,
    )
    INPLACE[name + "_"] = inplace
    return op, inplace_op


def _binary(
    name: str,
    kernel,
    rule,
    doc: str,
    differentiable: bool,
    alpha: bool = False,
    family: str = "pointwise",
    inplace_recorded_as_itself: bool = False,
    refuses_complex=None,
):
    """The function, its OpDef, and its in-place method for one binary op. With
    ``inplace_recorded_as_itself`` an in-place write is recorded as the in-place op
    rather than as its out-of-place form (so that a backward that refuses names it, as
    PyTorch's ``floor_divide_`` does)."""
    rule = complex_refusing(refuses_complex, rule)

    def compute(input, other, alpha_value, extra):
        dtype = _binary_dtype(input, other)
        compute_dtype, result_dtype = rule(dtype, *extra)
        if compute_dtype._limited:
            refuse_limited(name, compute_dtype, other)
        if alpha_value != 1:
            if isinstance(alpha_value, float) and compute_dtype._category < 2:
                raise RuntimeError(
                    "For integral input tensors, argument alpha must not be a "
                    "floating point number."
                )
            other = operand(other, compute_dtype) * scalar(alpha_value, compute_dtype.np_dtype)
        a, b = operand(input, compute_dtype), operand(other, compute_dtype)
        try:
            with np.errstate(all="ignore"):
                result = kernel(a, b, compute_dtype, *extra)
        except ValueError:
            raise _broadcast_error(input, other) from None
        return as_array(result, result_dtype.np_dtype), result_dtype

    def function(input, other, *, out=None, **kwargs):
        alpha_value = kwargs.pop("alpha", 1) if alpha else 1
        extra = (kwargs.pop("rounding_mode", None),) if name == "div" else ()
        if kwargs:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if out is not None:
            if _grad_mode._state.enabled:
                refuse_grad_with_out(name, (input, other, out))
            if native is not None and alpha_value == 1 and _into_out(native, input, other, out):
                return out
        try:
            input = _first_tensor(name, input, other)
            result, dtype = compute(input, other, alpha_value, extra)
        except SparseLayoutError as error:
            return sparse_kernel(name, error)(input, other, alpha_value, *extra)
        if out is not None:
            return _write_out(out, result, dtype)
        tensor = _wrap(
            result, dtype, (input._np, other._np if isinstance(other, Tensor) else other)
        )
        return record(op, (input, other), tensor, (alpha_value,) + extra)

    def inplace(self: Tensor, other, **kwargs):
        alpha_value = kwargs.pop("alpha", 1) if alpha else 1
        extra = (kwargs.pop("rounding_mode", None),) if name == "div" else ()
        recording = check_inplace(self, other)
        if direct is not None and type(self) is Tensor and type(other) in _DIRECT_OTHERS:
            if not extra or extra[0] is None:  # div with rounding: the general path
                snapshot = _write_direct(
                    self, other, direct, rule, alpha_value, extra, recording, name
                )
                if recording:
                    before = snapshot if other is self else other
                    record(recorded_inplace, (snapshot, before), self, (alpha_value,) + extra)
                return self
        try:
            result, dtype = compute(self, other, alpha_value, extra)
        except SparseLayoutError as error:
            return sparse_kernel(name + "_", error)(self, other, alpha_value, *extra)
        if not can_cast(dtype, self._dtype):
            raise _cast_error(dtype, self)
        if result.shape != self._np.shape:
            raise _shape_error(self._np.shape, result.shape)
        snapshot = _snapshot(self) if recording else None
        np.copyto(self._np, result, casting="unsafe")
        self._bump_version()
        if recording:
            # x.mul_(x): the formulas need the old value for both operands
            before = snapshot if other is self else other
            record(recorded_inplace, (snapshot, before), self, (alpha_value,) + extra)
        return self

    direct = np.true_divide if name == "div" else getattr(kernel, "ufunc", None)
    native = _NATIVE_NAMES.get(direct)  # the threaded kernel's name, for big float tensors
    signature = f"{name}(Tensor self, Tensor other{', *, Scalar alpha=1' if alpha else ''})"
    signatures = (
        signature + " -> Tensor",
        signature.replace("Tensor self", "Tensor(a!) self", 1) + " -> Tensor(a!)",
    )
    saved = ("alpha", "rounding_mode") if name == "div" else ("alpha",)  # what record gets
    op, inplace_op = _register_forms(
        name, function, inplace, doc, signatures, differentiable, family, saved, refuses_complex
    )
    recorded_inplace = inplace_op if inplace_recorded_as_itself else op
    return function


_DIRECT_OTHERS = frozenset((Tensor, int, float, bool))


def _into_out(native, input, other, out) -> bool:
    """``input (op) other`` written straight into ``out`` by the threaded kernel named
    ``native``, for big same-shape float tensors of ``out``'s dtype; False when that does
    not apply (the caller computes the result and copies it in)."""
    if type(input) is not Tensor or input._np.size < PARALLEL_MIN_SIZE:
        return False
    if type(out) is not Tensor or type(other) is not Tensor:
        return False
    if large_binary(native, input._np, other._np, out._np) is None:
        return False
    out._bump_version()
    return True


def _family_register(family: str, saved=()):
    """The ``_register`` of an op family: registers ``name`` in ``family``; an in-place op
    (``name`` ending in ``_``) names its out-of-place form."""

    def register(name, function, signature, differentiable=True, inplace=False, saved=saved):
        out_of_place = name[:-1] if inplace else None
        return _register(
            name, function, signature, differentiable, inplace, out_of_place, family, saved
        )

    return register


def _binary_op(name, kernel, rule, doc, differentiable, *, aliases=(), fast=None, **options):
    """Declare binary op ``name`` in one call: :func:`_binary` makes it (``options`` are
    its keywords), :func:`defop` binds ``torch.<name>``, the Tensor method and its
    in-place form, ``aliases`` and the ``fast`` hot paths."""
    function = _binary(name, kernel, rule, doc, differentiable, **options)
    return defop(name, function, method=True, inplace=True, aliases=aliases, fast=fast)


def _check_writable(self: Tensor, dtype) -> None:
    if not can_cast(dtype, self._dtype):
        raise _cast_error(dtype, self)


def _check_broadcast_into(self: Tensor, *operands) -> None:
    """Raise PyTorch's error unless every operand broadcasts to ``self``'s shape."""
    shape = self._np.shape
    for b in operands:
        if b.shape != shape:
            try:
                result = np.broadcast_shapes(shape, b.shape)
            except ValueError:
                raise _broadcast_error(self, b) from None
            if result != shape:
                raise _shape_error(shape, result)


def _write_direct(self: Tensor, other, ufunc, rule, alpha_value, extra, recording, name):
    """``self = ufunc(self, alpha * other)`` computed straight into ``self``'s memory (one
    NumPy call with ``out=``), in the promoted dtype and cast back as PyTorch does;
    returns the snapshot of the old value when the write is recorded for autograd."""
    compute_dtype, result_dtype = rule(_binary_dtype(self, other), *extra)
    if compute_dtype._limited:
        refuse_limited(name, compute_dtype, other)
    _check_writable(self, result_dtype)
    a = self._np if compute_dtype is self._dtype else operand(self, compute_dtype)
    b = operand(other, compute_dtype)
    _check_broadcast_into(self, b)
    if alpha_value != 1:
        if isinstance(alpha_value, float) and compute_dtype._category < 2:
            raise RuntimeError(
                "For integral input tensors, argument alpha must not be a floating point number."
            )
        b = b * scalar(alpha_value, compute_dtype.np_dtype)
    snapshot = _snapshot(self) if recording else None
    if a.size < PARALLEL_MIN_SIZE or not _threaded_in_place(ufunc, a, b, self._np):
        ufunc(a, b, out=self._np, casting="unsafe")
    self._bump_version()
    return snapshot


def add_arrays_into(into: np.ndarray, other) -> None:
    """``into += other`` on arrays: the threaded kernel for big same-shape float arrays
    (as ``add_`` takes it), else NumPy's."""
    if large_binary("add", into, other, into) is None:
        np.add(into, other, into)


# the engine adds a gradient into an existing .grad with it
array_kernels.register("add_", add_arrays_into)


def _threaded_in_place(ufunc, a, b, out) -> bool:
    """``out = a (ufunc) b`` by the threaded kernel when ``out`` is ``a`` and both operands
    are big same-shape float arrays; False when that does not apply."""
    native = _NATIVE_NAMES.get(ufunc)
    return native is not None and a is out and large_binary(native, a, b, out) is not None


def _snapshot(self: Tensor) -> Tensor:
    """The value and graph position of ``self`` before an in-place write: the in-place op
    is recorded as its out-of-place form applied to this."""
    old = Tensor._from_array(self._np.copy(), self._dtype)
    old._requires_grad = self._requires_grad
    old.grad_fn = self.grad_fn
    return old


def _refuse_bool(kernel_name: str, dtype):
    if dtype is _dtype.bool_:
        raise NotImplementedError(f"\"{kernel_name}\" not implemented for 'Bool'")
    return dtype


def _unary(
    name: str,
    kernel,
    doc: str,
    differentiable: bool,
    check=None,
    family="pointwise",
    params=(),
    result_dtype=None,
    refuses_complex=None,
):
    """A unary op, its OpDef and its in-place method. ``params`` lists the op's keyword
    arguments as (name, default) pairs: they reach ``kernel`` and are saved for autograd.
    ``check`` maps the input dtype to the dtype the kernel computes in; ``result_dtype``
    maps that to the result's when they differ (``abs`` of complex numbers is real)."""
    defaults = dict(params)
    check = complex_refusing(refuses_complex, check)

    def options(kwargs):
        unknown = set(kwargs) - set(defaults)
        if unknown:
            raise TypeError(f"{name}() got an unexpected keyword argument '{unknown.pop()}'")
        return {**defaults, **kwargs}

    def function(input, *args, out=None, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError(
                f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}"
            )
        values = options({**dict(zip(defaults, args)), **kwargs})
        dtype = check(input._dtype) if check else input._dtype
        if dtype._limited:
            refuse_limited(name, dtype)
        made = result_dtype(dtype) if result_dtype else dtype
        if out is not None and _grad_mode._state.enabled:
            refuse_grad_with_out(name, (input, out))
        with np.errstate(all="ignore"):
            result = as_array(kernel(operand(input, dtype), **values), made.np_dtype)
        if out is not None:
            return _write_out(out, result, made)
        tensor = _wrap(result, made, (input._np,))
        return record(op, (input,), tensor, tuple(values.values()))

    def inplace(self: Tensor, *args, **kwargs):
        values = options({**dict(zip(defaults, args)), **kwargs})
        recording = check_inplace(self)
        dtype = check(self._dtype) if check else self._dtype
        if dtype._limited:
            refuse_limited(name, dtype)
        if result_dtype and result_dtype(dtype) is not dtype:
            raise RuntimeError(f"In-place {name} is not supported for complex tensors.")
        if not can_cast(dtype, self._dtype):
            raise _cast_error(dtype, self)
        snapshot = _snapshot(self) if recording else None
        if direct and dtype is self._dtype and type(self) is Tensor:
            kernel(self._np, out=self._np)  # a plain ufunc: straight into the tensor
        else:
            with np.errstate(all="ignore"):
                np.copyto(self._np, kernel(operand(self, dtype), **values), casting="unsafe")
        self._bump_version()
        if recording:
            record(op, (snapshot,), self, tuple(values.values()))
        return self

    direct = isinstance(kernel, np.ufunc) and not params
    signatures = (f"{name}(Tensor self) -> Tensor", f"{name}_(Tensor(a!) self) -> Tensor(a!)")
    saved = tuple(defaults)  # the keyword arguments, as record gets them
    op, _ = _register_forms(
        name, function, inplace, doc, signatures, differentiable, family, saved, refuses_complex
    )
    return function


def _operator_fast(operator, ufunc, floats_only=False):
    """The hot paths of ``Tensor.__<operator>__`` and ``__r<operator>__`` (``floats_only``:
    the forward one takes tensor / tensor for floating dtypes only)."""
    return {
        f"Tensor.__{operator}__": _fastpath.binary(ufunc, floats_only=floats_only),
        f"Tensor.__r{operator}__": _fastpath.reflected(ufunc),
    }


def _unary_op(
    name, kernel, doc, differentiable, *, aliases=(), torch_inplace=True, fast=None, **options
):
    """Declare unary op ``name`` in one call: :func:`_unary` makes it (``options`` are its
    keywords), :func:`defop` binds ``torch.<name>`` (``torch.<name>_`` too unless
    ``torch_inplace=False``), the Tensor method and its in-place form, and ``aliases``."""
    function = _unary(name, kernel, doc, differentiable, **options)
    forms = {"aliases": aliases, "torch_inplace": torch_inplace, "fast": fast}
    return defop(name, function, method=True, inplace=True, **forms)


def _floating_result(dtype):
    return dtype if dtype._category in _FLOATING else _dtype.get_default_dtype()


def _no_bool(name):
    def check(dtype):
        if dtype is _dtype.bool_:
            raise RuntimeError(
                f"{name}: bool tensors are not supported here; use logical_not() for masks"
            )
        return dtype

    return check


def _neg_check(dtype):
    if dtype is _dtype.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If "
            "you are trying to invert a mask, use the `~` or `logical_not()` "
            "operator instead."
        )
    return dtype


def _bitwise_not_check(dtype):
    if dtype._category in _FLOATING:
        raise NotImplementedError(
            f"\"bitwise_not_cpu\" not implemented for '{_legacy_name(dtype)}'"
        )
    return dtype


# -------------------------------------------------------------------------- ops

add = _binary_op(
    "add",
    _plain(np.add),
    _arith,
    """Add ``other``, scaled by ``alpha``, to
``input``, broadcasting their shapes.

Args:
    input (Tensor): the first operand.
    other (Tensor or Number): the second operand.
    alpha (Number): multiplier for ``other``. Default: ``1``.
    out (Tensor, optional): where to write the result.

Examples::

    >>> torch.add(torch.tensor([1, 2]), torch.tensor([10, 20]), alpha=2)
    tensor([21, 42])
""",
    True,
    alpha=True,
    fast=_operator_fast("add", np.add),
)

sub = _binary_op(
    "sub",
    _plain(np.subtract),
    _sub_rule,
    """Subtract ``other``, scaled by
``alpha``, from ``input``, broadcasting.

Examples::

    >>> torch.sub(torch.tensor([5.0, 6.0]), 1)
    tensor([4., 5.])
""",
    True,
    alpha=True,
    aliases=("subtract",),
    fast=_operator_fast("sub", np.subtract),
)

mul = _binary_op(
    "mul",
    _plain(np.multiply),
    _arith,
    """Multiply elementwise, broadcasting.

Examples::

    >>> torch.mul(torch.tensor([1, 2, 3]), 2.5)
    tensor([2.5000, 5.0000, 7.5000])
""",
    True,
    aliases=("multiply",),
    fast=_operator_fast("mul", np.multiply),
)


def _div_rule(dtype, rounding_mode=None):
    if rounding_mode not in (None, "trunc", "floor"):
        raise RuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' "
            f"but found '{rounding_mode}'"
        )
    return _true_div(dtype) if rounding_mode is None else _arith(dtype)


div = _binary_op(
    "div",
    _div_kernel,
    _div_rule,
    """Divide elementwise. Without
``rounding_mode`` this is true division (integers give the default float dtype);
``"trunc"`` rounds towards zero and ``"floor"`` down, keeping integer dtypes.

Examples::

    >>> torch.div(torch.tensor([1, 2, 3]), 2)
    tensor([0.5000, 1.0000, 1.5000])
    >>> torch.div(torch.tensor([5, -5]), 2, rounding_mode="floor")
    tensor([ 2, -3])
""",
    True,
    aliases=("divide", "true_divide"),
    # tensor / tensor fast for floating dtypes only: integers divide into the default float
    fast=_operator_fast("truediv", np.true_divide, floats_only=True),
)

true_divide = div

floor_divide = _binary_op(
    "floor_divide",
    _floor_divide,
    _bool_refused("div_floor_cpu"),
    """Divide and round down
(Python's ``//``); integer division by zero raises.

Examples::

    >>> torch.tensor([5, -5]) // 2
    tensor([ 2, -3])
""",
    True,  # as PyTorch: float results require grad, and backward raises (no derivative)
    inplace_recorded_as_itself=True,
    refuses_complex=kernel_refusal("div_floor_cpu"),
)

remainder = _binary_op(
    "remainder",
    _remainder,
    _bool_refused("remainder_cpu"),
    """Python's ``%``: the result has the
sign of the divisor.

Examples::

    >>> torch.tensor([5, -5]) % 3
    tensor([2, 1])
""",
    True,
    refuses_complex=kernel_refusal("remainder_cpu"),
)

pow = _binary_op(
    "pow",
    _pow,
    _bool_refused("pow"),
    """``input ** exponent`` elementwise.

Examples::

    >>> torch.pow(torch.tensor([2, 3]), 2), torch.tensor([1, 2]) ** 0.5
    (tensor([4, 9]), tensor([1.0000, 1.4142]))
""",
    True,
)

_COMPARE_DOC = """``input {sym} other`` elementwise, as a bool tensor.

Examples::

    >>> torch.{name}(torch.tensor([1, 2, 3]), 2)
    {example}
"""


def _comparison(name, ufunc, sym, example, aliases=(), refuses_complex=True):
    """A comparison op: a bool result, no derivative; the ordering ones refuse complex
    inputs with their CPU kernel's error."""
    doc = _COMPARE_DOC.format(sym=sym, name=name, example=example)
    refusal = kernel_refusal(f"{name}_cpu") if refuses_complex else None
    return _binary_op(
        name, _plain(ufunc), _compare, doc, False, aliases=aliases, refuses_complex=refusal
    )


eq = _comparison("eq", np.equal, "==", "tensor([False,  True, False])", refuses_complex=False)
ne = _comparison("ne", np.not_equal, "!=", "tensor([ True, False,  True])", ("not_equal",), False)
lt = _comparison("lt", np.less, "<", "tensor([ True, False, False])", ("less",))
le = _comparison("le", np.less_equal, "<=", "tensor([ True,  True, False])", ("less_equal",))
gt = _comparison("gt", np.greater, ">", "tensor([False, False,  True])", ("greater",))
ge = _comparison("ge", np.greater_equal, ">=", "tensor([False,  True,  True])", ("greater_equal",))


def _bitwise(name, ufunc, word, sign):
    doc = f"Bitwise {word} of integer or bool tensors (``{sign}``)."
    return _binary_op(name, _plain(ufunc), _integral_only(name), doc, False)


def _shift(name, ufunc, kernel_name, sign):
    rule = _bool_refused(f"{kernel_name}_cpu", _integral_only(kernel_name))
    return _binary_op(name, _shifted(ufunc), rule, f"``input {sign} other``.", False)


def _logical_op(name, ufunc, word):
    doc = f"Elementwise logical {word} (nonzero is true), as a bool tensor."
    return _binary_op(name, _plain(ufunc), _logical, doc, False)


bitwise_and = _bitwise("bitwise_and", np.bitwise_and, "AND", "&")
bitwise_or = _bitwise("bitwise_or", np.bitwise_or, "OR", "|")
bitwise_xor = _bitwise("bitwise_xor", np.bitwise_xor, "XOR", "^")
bitwise_left_shift = _shift("bitwise_left_shift", np.left_shift, "lshift", "<<")
bitwise_right_shift = _shift("bitwise_right_shift", np.right_shift, "rshift", ">>")
logical_and = _logical_op("logical_and", np.logical_and, "AND")
logical_or = _logical_op("logical_or", np.logical_or, "OR")
logical_xor = _logical_op("logical_xor", np.logical_xor, "XOR")

neg = _unary_op(
    "neg",
    np.negative,
    """``-input`` elementwise.

Examples::

    >>> torch.neg(torch.tensor([1.0, -2.0]))
    tensor([-1.,  2.])
""",
    True,
    check=_neg_check,
    aliases=("negative",),
)
negative = neg
abs = _unary_op(
    "abs",
    np.abs,
    """Absolute value elementwise.

Examples::

    >>> torch.abs(torch.tensor([-1, 2]))
    tensor([1, 2])
""",
    True,
    check=lambda d: _refuse_bool("abs_cpu", d),
    result_dtype=lambda d: d.to_real() if d.is_complex else d,
    aliases=("absolute",),
)
absolute = abs


def _sign(array):
    return array.copy() if array.dtype == np.bool_ else np.sign(array)  # sign(True) is True


sign = _unary_op(
    "sign",
    _sign,
    "-1, 0 or 1 by the sign of each element.",
    True,
    refuses_complex=(
        NotImplementedError,
        "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
        "torch.sgn instead.",
    ),
)


def _exp(array):
    result = large_exp(array)
    return np.exp(array) if result is None else result


# the hot path calls the kernel without _unary's argument handling and np.errstate
# (NumPy's warnings are filtered for torch's modules by torch._fastpath)
exp = _unary_op(
    "exp",
    _exp,
    """``e ** input`` elementwise (integers give the default float
dtype).""",
    True,
    check=_floating_result,
    fast={"binding": _fastpath.unary(_exp)},
)
log = _unary_op(
    "log",
    np.log,
    """Natural logarithm elementwise (integers give the default float
dtype).""",
    True,
    check=_floating_result,
)
bitwise_not = _unary_op(
    "bitwise_not",
    np.invert,
    """Bitwise NOT (``~``); logical NOT for bool
tensors.

Examples::

    >>> ~torch.tensor([True, False]), ~torch.tensor([1, 2])
    (tensor([False,  True]), tensor([-2, -3]))
""",
    False,
    check=_bitwise_not_check,
    torch_inplace=False,
)


@defop("logical_not", method=True)
def logical_not(input: Tensor, *, out=None) -> Tensor:
    """Elementwise logical NOT (zero is false), as a bool tensor."""
    result = np.logical_not(input._np)
    if out is not None:
        return _write_out(out, result, _dtype.bool_)
    return Tensor._from_array(result, _dtype.bool_)


@defop("positive", method=True)
def positive(input: Tensor) -> Tensor:
    """``input`` itself (unary ``+``); bool tensors are refused, as in PyTorch."""
    if input._dtype is _dtype.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input
