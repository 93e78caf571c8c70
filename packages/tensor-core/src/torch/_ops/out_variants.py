"""``out=`` for functions whose kernels make a new result: the result is computed as usual
and copied into the given tensor(s), which are resized first when their shape differs
(with PyTorch's warning when they held elements).

A function whose kernel writes into ``out`` directly (the pointwise family) does not go
through this; :func:`add_out` wraps the rest where ``torch`` binds them.
"""

from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

from .. import _grad_mode, _return_types
from .._tensor import Tensor
from ._dispatch import check_array_overlap, refuse_grad_with_out
from .pointwise import _cast_error, can_cast

__all__ = ["add_out", "copy_into_out"]


def _dtype_name(d) -> str:
    """PyTorch's C++ spelling of a dtype in out= messages (``float``, ``long int``)."""
    return _CPP_NAMES.get(d.name, d.name)


_CPP_NAMES = {
    "float32": "float",
    "float64": "double",
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "bool": "bool",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>",
}


def _resize(out: Tensor, like: np.ndarray) -> None:
    """Give ``out`` fresh memory shaped and laid out like the result ``like`` (PyTorch's
    out= resize; LAPACK results stay column-major there too)."""
    shape = like.shape
    if out._np.size:
        warnings.warn(
            f"An output with one or more elements was resized since it had shape "
            f"{list(out._np.shape)}, which does not match the required output shape "
            f"{list(shape)}. This behavior is deprecated, and in a future PyTorch release "
            "outputs will not be resized unless they have zero elements. You can explicitly "
            "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
            UserWarning,
            stacklevel=5,
        )
    fresh = Tensor._from_array(np.empty_like(like, dtype=out._np.dtype, order="K"), out._dtype)
    out.set_(fresh)


def _castable(result, out, exact: bool) -> bool:
    """Whether a result of dtype ``result`` may be written into an out= tensor of dtype
    ``out``: never for integer results (indices, counts) or ``exact`` ops (torch.linalg),
    else by the in-place casting rule."""
    if result is out:
        return True
    if exact or not (result.is_floating_point or result.is_complex):
        return False
    return can_cast(result, out)


#: composites whose out= follows the pointwise casting rule and message (the result may
#: be written into any dtype it can be cast to), as PyTorch's elementwise kernels do
POINTWISE = set(
    "exp2 deg2rad rad2deg copysign xlogy sinc logaddexp logaddexp2 clamp_min clamp_max "
    "sgn ldexp nextafter heaviside".split()
)


def _copy_one(result: Tensor, out, name: str, exact: bool = False) -> Tensor:
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if name == "float_power" and out._dtype is not result._dtype:
        raise RuntimeError(
            f"the output given to float_power has dtype {out._dtype._legacy[:-6]} but the "
            f"operation's result requires dtype {result._dtype._legacy[:-6]}"
        )
    if name in POINTWISE and not can_cast(result._dtype, out._dtype):
        raise _cast_error(result._dtype, out)
    if name not in POINTWISE and not _castable(result._dtype, out._dtype, exact):
        raise RuntimeError(
            f"Expected out tensor to have dtype {_dtype_name(result._dtype)}, but got "
            f"{_dtype_name(out._dtype)} instead"
        )
    if out._np.shape != result._np.shape:
        _resize(out, result._np)
    check_array_overlap(out._np)
    np.copyto(out._np, result._np, casting="unsafe")
    out._bump_version()
    return out


@functools.cache
def _out_structseq(kind: type) -> type:
    """``torch.return_types.<name>_out``: what PyTorch returns for a tuple out=."""
    return _return_types._structseq(kind.__name__ + "_out", kind._fields)


def copy_into_out(result, out, name: str, exact: bool = False):
    """Copy ``result`` (a tensor or a tuple of tensors) into ``out``; return ``out``.
    ``exact``: ``out`` must have the result's dtype."""
    if isinstance(result, Tensor):
        return _copy_one(result, out, name, exact)
    if not isinstance(out, (tuple, list)) or len(out) != len(result):
        raise TypeError(
            f"{name}(): argument 'out' must be a tuple of {len(result)} Tensors, "
            f"not {type(out).__name__}"
        )
    copied = [_copy_one(r, o, name, exact) for r, o in zip(result, out)]
    kind = type(result)
    return _out_structseq(kind)(*copied) if hasattr(kind, "_fields") else tuple(copied)


def add_out(function, name: str | None = None, exact: bool = False):
    """``function`` with an ``out=`` keyword (a tensor, or a tuple for several results);
    ``exact``: the out tensors must have the result's dtypes.

    Examples::

        >>> from torch._ops.out_variants import add_out
        >>> trace = add_out(lambda x: x.diagonal().sum(), "trace")
        >>> out = torch.empty(0)
        >>> trace(torch.eye(3), out=out) is out, out
        (True, tensor(3.))
    """
    name = name or function.__name__

    @functools.wraps(function)
    def with_out(*args, out=None, **kwargs):
        if out is None:
            return function(*args, **kwargs)
        if _grad_mode._state.enabled:
            refuse_grad_with_out(name, (*args, *kwargs.values(), out))
        return copy_into_out(function(*args, **kwargs), out, name, exact)

    with_out.__signature__ = _signature_with_out(function)
    return with_out


def _signature_with_out(function):
    """``function``'s signature with a keyword-only ``out=None`` (before any ``**``)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    params = list(signature.parameters.values())
    at = len(params) - (params and params[-1].kind is inspect.Parameter.VAR_KEYWORD)
    out = inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None)
    return signature.replace(parameters=params[:at] + [out] + params[at:])
