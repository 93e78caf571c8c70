"""Elementwise math of one tensor: roots, exponentials and logarithms, trigonometric and
hyperbolic functions and their inverses, rounding, the error and gamma functions, and
the floating-point tests. Integer inputs of floating functions give the default float
dtype, as in PyTorch."""

from __future__ import annotations

import numpy as np

from .. import _dtype, _fastpath
from .._native import large_unary, special_of
from .._tensor import Tensor
from ._dispatch import as_array, defop, kernel_refusal, scalar
from .pointwise import _floating_result, _refuse_bool, _unary, _unary_op

__all__ = [
    "sqrt",
    "rsqrt",
    "expm1",
    "log1p",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "sigmoid",
    "logit",
    "erf",
    "erfc",
    "erfinv",
    "lgamma",
    "digamma",
    "reciprocal",
    "square",
    "floor",
    "ceil",
    "trunc",
    "frac",
    "round",
    "nan_to_num",
    "isnan",
    "isinf",
    "isfinite",
    "isposinf",
    "isneginf",
    "arcsin",
    "arccos",
    "arctan",
    "arcsinh",
    "arccosh",
    "arctanh",
    "fix",
]

_FAMILY = "unary_math"


def _math(
    name,
    kernel,
    doc,
    differentiable=True,
    check=_floating_result,
    params=(),
    precise=False,
    refuses_complex=None,
):
    """``precise``: a transcendental function NumPy evaluates a few ulp off in float32."""
    kernel = _in_double(kernel) if precise else kernel
    return _unary(
        name,
        kernel,
        doc,
        differentiable,
        check=check,
        family=_FAMILY,
        params=params,
        refuses_complex=refuses_complex,
    )


def _math_op(
    name, kernel, doc, *, differentiable=True, check=_floating_result, precise=False, **options
):
    """Declare math op ``name`` in one call (:func:`_unary_op`, in this family): ``options``
    are :func:`_unary_op`'s keywords, the others :func:`_math`'s."""
    kernel = _in_double(kernel) if precise else kernel
    return _unary_op(name, kernel, doc, differentiable, check=check, family=_FAMILY, **options)


def _in_double(kernel):
    """Evaluate reduced-precision floats in float64 and round once: NumPy's float32
    transcendental functions are a few ulp off where PyTorch's are within one."""

    def wrapped(array, **params):
        if array.dtype.kind == "f" and array.dtype != np.float64:
            return as_array(kernel(array.astype(np.float64), **params)).astype(array.dtype)
        return kernel(array, **params)

    return wrapped


def _special_op(name, doc, refusing_kernel, torch_inplace=True):
    """A native special function as an op, refusing complex inputs with the error of
    PyTorch's ``refusing_kernel``."""
    refusal = kernel_refusal(refusing_kernel)
    return _math_op(name, _special(name), doc, refuses_complex=refusal, torch_inplace=torch_inplace)


def _special(name):
    """A native special function; half-precision inputs go through float32."""

    def kernel(array):
        if array.dtype in (np.float32, np.float64):
            return special_of(name, array)
        return special_of(name, array.astype(np.float32)).astype(array.dtype)

    return kernel


def _sigmoid(array):
    result = large_unary("sigmoid", array)  # big float arrays: one threaded native pass
    if result is not None:
        return result
    one = scalar(1, array.dtype)
    return one / (one + np.exp(-array))


def _logit(array, eps=None):
    if eps is not None:
        array = np.clip(array, eps, 1 - eps)
    return np.log(array / (scalar(1, array.dtype) - array))


_INTEGER_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char"}


def _round(array, decimals=0):
    if decimals and array.dtype.kind in "iub":
        name = _INTEGER_NAMES.get(array.dtype.name, "Byte" if array.dtype.kind == "u" else "Bool")
        raise NotImplementedError(f"\"round_cpu\" not implemented for '{name}'")
    return np.round(array, decimals)


def _no_integers(name):
    def check(dtype):
        if not (dtype.is_floating_point or dtype.is_complex):
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dtype._legacy[:-6]}'")
        return dtype

    return check


def _same(dtype):
    return dtype


def _nan_to_num(array, nan=0.0, posinf=None, neginf=None):
    if array.dtype.kind not in "fc":
        return array
    info = np.finfo(array.dtype) if array.dtype.kind == "f" else np.finfo(array.real.dtype)
    return np.nan_to_num(
        array,
        nan=nan,
        posinf=info.max if posinf is None else posinf,
        neginf=info.min if neginf is None else neginf,
    )


def _bool_test(name, kernel, doc):
    def function(input: Tensor) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(
                f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}"
            )
        array = input._np
        if array.dtype.kind not in "fc":  # integers are always finite numbers
            return Tensor._from_array(np.full(array.shape, name == "isfinite"), _dtype.bool_)
        return Tensor._from_array(as_array(kernel(array)), _dtype.bool_)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


def _infinity_test(name, ufunc, infinity):
    """``isposinf``/``isneginf``: with ``out=``; complex inputs refused."""
    test = _bool_test(name, ufunc, f"Whether each element is {infinity}.")
    refusal = (RuntimeError, f"{name} does not support complex inputs.")
    return defop(name, test, method=True, out=True, refuses_complex=refusal)


sqrt = _math_op("sqrt", np.sqrt, "Square root elementwise.")
rsqrt = _math_op(
    "rsqrt", lambda a: scalar(1, a.dtype) / np.sqrt(a), "``1 / sqrt(input)`` elementwise."
)
expm1 = _math_op("expm1", np.expm1, "``exp(input) - 1``, accurate near 0.", precise=True)
log1p = _math_op("log1p", np.log1p, "``log(1 + input)``, accurate near 0.", precise=True)
log2 = _math_op("log2", np.log2, "Base-2 logarithm elementwise.", precise=True)
log10 = _math_op("log10", np.log10, "Base-10 logarithm elementwise.", precise=True)
sin = _math_op("sin", np.sin, "Sine elementwise.", precise=True)
cos = _math_op("cos", np.cos, "Cosine elementwise.", precise=True)
tan = _math_op("tan", np.tan, "Tangent elementwise.", precise=True)
asin = _math_op("asin", np.arcsin, "Inverse sine elementwise.", precise=True, aliases=("arcsin",))
acos = _math_op("acos", np.arccos, "Inverse cosine elementwise.", precise=True, aliases=("arccos",))
atan = _math_op(
    "atan", np.arctan, "Inverse tangent elementwise.", precise=True, aliases=("arctan",)
)
sinh = _math_op("sinh", np.sinh, "Hyperbolic sine elementwise.", precise=True)
cosh = _math_op("cosh", np.cosh, "Hyperbolic cosine elementwise.", precise=True)
tanh = _math_op(
    "tanh",
    np.tanh,
    """Hyperbolic tangent elementwise.

Examples::

    >>> torch.tanh(torch.tensor([0.0, 1.0]))
    tensor([0.0000, 0.7616])
""",
    fast={"binding": _fastpath.unary(np.tanh)},
)
asinh = _math_op(
    "asinh", np.arcsinh, "Inverse hyperbolic sine elementwise.", precise=True, aliases=("arcsinh",)
)
acosh = _math_op(
    "acosh",
    np.arccosh,
    "Inverse hyperbolic cosine elementwise.",
    precise=True,
    aliases=("arccosh",),
)
atanh = _math_op(
    "atanh",
    np.arctanh,
    "Inverse hyperbolic tangent elementwise.",
    precise=True,
    aliases=("arctanh",),
)
sigmoid = _math_op(
    "sigmoid",
    _sigmoid,
    """The logistic function ``1 / (1 + exp(-input))``.

Examples::

    >>> torch.sigmoid(torch.tensor([0.0, 2.0]))
    tensor([0.5000, 0.8808])
""",
    fast={"binding": _fastpath.unary(_sigmoid)},
)
logit = _math_op(
    "logit",
    _logit,
    """``log(p / (1 - p))``; with ``eps``, ``p`` is first clamped
to [eps, 1 - eps].""",
    params=(("eps", None),),
    refuses_complex=kernel_refusal("logit_cpu"),
)
erf = _special_op(
    "erf",
    """The error function elementwise.

Examples::

    >>> torch.erf(torch.tensor([0.0, 1.0]))
    tensor([0.0000, 0.8427])
""",
    "erf_vml_cpu",
)
erfc = _special_op("erfc", "``1 - erf(input)``, accurate for large inputs.", "erfc_vml_cpu")
erfinv = _special_op("erfinv", "The inverse of the error function.", "erfinv_vml_cpu")
lgamma = _special_op(
    "lgamma", "``log(|gamma(input)|)`` elementwise.", "lgamma_vml_cpu", torch_inplace=False
)
digamma = _special_op("digamma", "The derivative of ``lgamma``.", "digamma", torch_inplace=False)
_trigamma = _math(
    "_trigamma", _special("trigamma"), "The derivative of ``digamma``.", differentiable=False
)
defop("_trigamma", _trigamma, inplace=True, public=False)  # Tensor._trigamma_
reciprocal = _math_op("reciprocal", lambda a: scalar(1, a.dtype) / a, "``1 / input`` elementwise.")


def _square_dtype(dtype):
    return _dtype.int64 if dtype is _dtype.bool_ else dtype  # True * True is 1 (long)


def _rounding(kernel_name):
    return lambda dtype: _refuse_bool(kernel_name, dtype)


def _rounding_op(name, ufunc, doc, aliases=()):
    """``floor``, ``ceil``, ``trunc``: bool and complex inputs refused as in PyTorch."""
    refusal = (NotImplementedError, f"{name} is not supported for complex inputs")
    check = _rounding(f"{name}_vml_cpu")
    return _math_op(name, ufunc, doc, check=check, refuses_complex=refusal, aliases=aliases)


square = _math_op("square", np.square, "``input * input`` elementwise.", check=_square_dtype)
floor = _rounding_op("floor", np.floor, "Round down elementwise.")
ceil = _rounding_op("ceil", np.ceil, "Round up elementwise.")
trunc = _rounding_op("trunc", np.trunc, "Round towards zero elementwise.", aliases=("fix",))
fix = trunc
frac = _math_op(
    "frac",
    lambda a: a - np.trunc(a),
    "``input - trunc(input)`` elementwise.",
    check=_no_integers("frac"),
    refuses_complex=kernel_refusal("frac_cpu"),
)
round = _math_op(
    "round",
    _round,
    """Round half to even, to ``decimals`` decimal places.

Examples::

    >>> torch.round(torch.tensor([0.5, 1.5, 2.567])), torch.round(torch.tensor([2.567]), decimals=1)
    (tensor([0., 2., 3.]), tensor([2.6000]))
""",
    check=_rounding("round_vml_cpu"),
    params=(("decimals", 0),),
    refuses_complex=kernel_refusal("round_vml_cpu"),
)
nan_to_num = _math_op(
    "nan_to_num",
    _nan_to_num,
    """``input`` with NaN, +inf and -inf replaced
by ``nan`` (default 0), ``posinf`` and ``neginf`` (default: the dtype's extremes).""",
    check=_same,
    params=(("nan", 0.0), ("posinf", None), ("neginf", None)),
)

isnan = _bool_test("isnan", np.isnan, "Whether each element is NaN.")
defop("isnan", isnan, method=True)
isinf = _bool_test("isinf", np.isinf, "Whether each element is +inf or -inf.")
defop("isinf", isinf, method=True)
isfinite = _bool_test("isfinite", np.isfinite, "Whether each element is finite.")
defop("isfinite", isfinite, method=True)
isposinf = _infinity_test("isposinf", np.isposinf, "+inf")
isneginf = _infinity_test("isneginf", np.isneginf, "-inf")

arcsin, arccos, arctan = asin, acos, atan
arcsinh, arccosh, arctanh = asinh, acosh, atanh
