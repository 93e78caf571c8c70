"""What the "limited support" dtypes can do: uint16/32/64 and the float8 types.

PyTorch 2.13 creates, copies, converts, prints, saves and indexes tensors of these
dtypes, but only a few of its CPU kernels have forms for them: the others raise
``NotImplementedError('"<kernel>" not implemented for \\'UInt16\\'')``. NumPy computes all
of them, so this module holds PyTorch's refusals (checked in the pointwise builders
of ``torch._ops.pointwise``, on the dtype an op computes in) and its casts into float8
(which differ from ml_dtypes' where a value is out of range).
"""

from __future__ import annotations

import numpy as np

from . import _dtype

__all__ = [
    "refuse_limited",
    "refuse_kernel",
    "gated",
    "gate_bindings",
    "to_float8",
    "REFUSED_POINTWISE",
    "REFUSED_OTHER",
    "FLOAT8_BY_NUMPY",
]

#: NumPy dtype -> the float8 dtype it stores
FLOAT8_BY_NUMPY = {d.np_dtype: d for d in _dtype.ALL_DTYPES if d._limited == "float8"}

# the pointwise kernels PyTorch 2.13 has no form for, by op name -> its kernel's name
# (recorded by tools/golden/record_dtypes.py)
_BOTH = {
    "add": "add_stub",
    "sub": "add_stub",
    "floor_divide": "div_floor_cpu",
    "remainder": "remainder_cpu",
    "pow": "pow",
    "square": "pow",
    "lt": "lt_cpu",
    "le": "le_cpu",
    "gt": "gt_cpu",
    "ge": "ge_cpu",
    "bitwise_left_shift": "lshift_cpu",
    "bitwise_right_shift": "rshift_cpu",
    "logical_and": "logical_and_cpu",
    "logical_or": "logical_or_cpu",
    "logical_xor": "logical_xor_cpu",
    "maximum": "maximum_cpu",
    "minimum": "minimum_cpu",
    "hypot": "hypot_cpu",
    "fmod": "fmod_cpu",
    "neg": "neg_cpu",
    "sign": "sign_cpu",
    "bitwise_not": "bitwise_not_cpu",
    "frac": "frac_cpu",
}
_UINT = {**_BOTH, "abs": "abs_cpu", "fmax": "maximum_cpu", "fmin": "minimum_cpu"}
# the float8 types compute nothing but products of two tensors, comparisons for
# equality and (except e8m0fnu) abs
_VML = "exp log sqrt expm1 log1p log2 log10 sin cos tan asin acos atan tanh erf erfc erfinv"
_FLOAT8 = {
    **_BOTH,
    "div": "div_cpu",
    "bitwise_and": "bitwise_and_cpu",
    "bitwise_or": "bitwise_or_cpu",
    "bitwise_xor": "bitwise_xor_cpu",
    "fmax": "fmax_cpu",
    "fmin": "fmin_cpu",
    "atan2": "atan2_cpu",
    **{name: f"{name}_vml_cpu" for name in (_VML + " lgamma floor ceil trunc round i0").split()},
    **{
        name: f"{name}_cpu" for name in "rsqrt sinh cosh asinh acosh atanh logit reciprocal".split()
    },
    "sigmoid": "sigmoid_cpu_reduced_float",
    "digamma": "digamma",
    "nan_to_num": "nan_to_num",
}
REFUSED_POINTWISE = {
    "uint": _UINT,
    "float8": _FLOAT8,
    "float8_e8m0fnu": {**_FLOAT8, "abs": "abs_cpu"},
}


def refuse_limited(op_name: str, dtype, other=None) -> None:
    """Raise PyTorch's error when pointwise op ``op_name`` has no kernel for ``dtype`` (a
    limited dtype: callers test ``dtype._limited`` first). ``other`` is a binary op's
    second operand: a float8 product with a number is refused (its scalar kernel)."""
    table = REFUSED_POINTWISE.get(dtype.name) or REFUSED_POINTWISE[dtype._limited]
    kernel = table.get(op_name)
    if dtype._limited == "float8" and op_name in ("mul", "div"):
        if other is not None and not hasattr(other, "_dtype"):  # a Python number
            kernel = f"{op_name}_cpu_reduced_float"
    if kernel is not None:
        refuse_kernel(kernel, dtype)


def refuse_kernel(kernel: str, dtype) -> None:
    """Raise PyTorch's error for CPU kernel ``kernel`` lacking a form for ``dtype``."""
    raise NotImplementedError(f"\"{kernel}\" not implemented for '{dtype._legacy[:-6]}'")


def to_float8(array: np.ndarray, dtype) -> np.ndarray:
    """``array`` ready for NumPy's cast to float8 ``dtype``, as PyTorch converts: e4m3fn
    (which has no infinity) saturates at +-448 instead of becoming NaN; e8m0fnu (powers
    of two, no sign) takes magnitudes, and zero becomes its smallest value."""
    if dtype is _dtype.float8_e4m3fn and array.dtype.kind == "f":
        return np.clip(array, -448.0, 448.0)
    if dtype is _dtype.float8_e8m0fnu and array.dtype.kind in "fiu":
        magnitude = np.abs(array.astype(np.float64))
        return np.where(magnitude == 0, 2.0**-127, magnitude)
    return array


# ops outside the pointwise builders whose CPU kernels PyTorch 2.13 lacks for the
# limited dtypes: op name -> (kernel for uint16/32/64 or None when it runs, kernel for
# the float8 types). Their bindings check the first tensor argument (gate_bindings).
REFUSED_OTHER = {
    "max": ("max_all", "max_all"),
    "min": ("min_all", "min_all"),
    "argmax": ("argmax_cpu", "argmax_cpu"),
    "argmin": ("argmin_cpu", "argmin_cpu"),
    "amax": ("max_values_cpu", "max_values_cpu"),
    "amin": ("min_values_cpu", "min_values_cpu"),
    "flip": ("flip_cpu", "flip_cpu"),
    "clamp": ("clamp_scalar_cpu", "clamp_scalar_cpu"),
    "nonzero": ("nonzero_count_cpu", "nonzero_count_cpu"),
    "index_select": ("index_select", None),
    "isfinite": (None, None),  # the float8 types without infinities: see _gated
    "masked_fill": ("masked_fill", "masked_fill"),
    "sum": (None, "sum_cpu"),
    "mean": (None, "sum_cpu"),
    "prod": (None, "prod_out_cpu"),
    "cumsum": (None, "cumsum_out_cpu"),
    "sort": (None, "sorting_kernel_method_name"),
    "argsort": (None, "sorting_kernel_method_name"),
    "unique": (None, "unique"),
}


# the float8 types without infinities, whose isfinite PyTorch has no kernel for
_NO_INFINITY = (_dtype.float8_e4m3fn, _dtype.float8_e4m3fnuz, _dtype.float8_e5m2fnuz)


def _variant(op_name: str, kernel: str, args: tuple, kwargs: dict) -> str:
    """The kernel PyTorch names for the form of the call: ``max(dim)`` is ``max_cpu``,
    ``max(other)`` ``maximum_cpu``, ``clamp(min=1)`` ``clamp_min_scalar_cpu``, ..."""
    if op_name in ("max", "min"):
        if (args and hasattr(args[0], "_dtype")) or "other" in kwargs:
            return "maximum_cpu" if op_name == "max" else "minimum_cpu"
        if args or "dim" in kwargs:
            return f"{op_name}_cpu"
    if op_name == "clamp":
        low = args[0] if args else kwargs.get("min")
        high = args[1] if len(args) > 1 else kwargs.get("max")
        if hasattr(low, "_dtype"):
            return "maximum_cpu"
        if hasattr(high, "_dtype"):
            return "minimum_cpu"
        if high is None:
            return "clamp_min_scalar_cpu"
        if low is None:
            return "clamp_max_scalar_cpu"
    return kernel


def _gated(function, op_name: str):
    uint_kernel, float8_kernel = REFUSED_OTHER[op_name]

    def gated(input, *args, **kwargs):
        dtype = getattr(input, "_dtype", None)
        if dtype is not None and dtype._limited:
            kernel = uint_kernel if dtype._limited == "uint" else float8_kernel
            if op_name == "isfinite" and dtype in _NO_INFINITY:
                kernel = "isfinite"
            if kernel is not None:
                refuse_kernel(_variant(op_name, kernel, args, kwargs), dtype)
        return function(input, *args, **kwargs)

    gated.__name__, gated.__qualname__ = function.__name__, function.__qualname__
    gated.__doc__, gated.__wrapped__ = function.__doc__, function
    gated._limited_gate = True
    return gated


def gated(function, op_name: str):
    """``function`` (the binding of op ``op_name``) behind the check of ``REFUSED_OTHER``;
    ``function`` itself for the ops PyTorch runs for every limited dtype."""
    if op_name not in REFUSED_OTHER or getattr(function, "_limited_gate", False):
        return function
    return _gated(function, op_name)


def gate_bindings(namespace: dict, tensor_class) -> None:
    """Put the checks of ``REFUSED_OTHER`` in front of the ``torch.<op>`` and
    ``Tensor.<op>`` functions that are not bindings of registered ops (``unique``); the
    op registry's bindings get theirs from ``torch._bindings.bind_ops`` (before any hot
    path is wrapped around them). Their cost dwarfs one attribute test."""
    for name in REFUSED_OTHER:
        for owner in (namespace, vars(tensor_class)):
            function = owner.get(name)
            if function is None or function.__module__ == "torch._fastpath":
                continue
            function = gated(function, name)
            if owner is namespace:
                namespace[name] = function
            else:
                setattr(tensor_class, name, function)
