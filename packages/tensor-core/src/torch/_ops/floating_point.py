"""Pointwise functions of the floating-point representation: ``frexp``, ``ldexp``,
``nextafter``, ``heaviside`` and ``polar``.

NOTE: ``frexp``, ``ldexp`` and ``polar`` are composites of differentiable ops;
``nextafter`` and ``heaviside`` are recorded ops with derivative entries (``heaviside``'s
raises, as PyTorch's backward does).
"""

from __future__ import annotations

import numpy as np

import torch

from .. import _dtype, _return_types
from .._tensor import Tensor
from ._dispatch import as_array, defop, record, register_op
from .complex_views import _complex_parts_check, complex
from .gather_scatter import _inplace
from .pointwise import _legacy_name as _legacy

__all__ = [
    "frexp",
    "ldexp",
    "nextafter",
    "heaviside",
    "polar",
]


@defop("frexp", method=True, out=True)
def frexp(input: Tensor):
    """``(mantissa, exponent)`` with ``input = mantissa * 2 ** exponent`` and
    ``0.5 <= |mantissa| < 1`` (``exponent`` is int32).

    Examples::

        >>> torch.frexp(torch.tensor([8.0, 0.3]))
        torch.return_types.frexp(
        mantissa=tensor([0.5000, 0.6000]),
        exponent=tensor([ 4, -1], dtype=torch.int32))
    """
    if not input._dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    _, exponent = np.frexp(input._np)
    exponent = as_array(exponent, np.int32)
    # NOTE: the mantissa as input * 2 ** -exponent, so its gradient is 2 ** -exponent
    ones = np.ones(exponent.shape, like=exponent)  # on the device of the input
    scale = Tensor._from_array(np.ldexp(ones, -exponent), _dtype.float64)
    mantissa = input * scale.to(input.dtype)
    return _return_types.frexp(mantissa, Tensor._from_array(exponent, _dtype.int32))


@defop("ldexp", method=True, inplace=True, out=True, torch_inplace=True)
def ldexp(input: Tensor, other: Tensor) -> Tensor:
    """``input * 2 ** other`` (a floating result)."""
    scale = torch.pow(2.0, other) if isinstance(other, Tensor) else 2.0**other
    if not input._dtype.is_floating_point and not input._dtype.is_complex:
        input = input.to(_dtype.get_default_dtype())
    return input * scale


def ldexp_(self: Tensor, other: Tensor) -> Tensor:
    """In-place :func:`ldexp`."""
    return self.mul_(torch.pow(2.0, other) if isinstance(other, Tensor) else 2.0**other)


def _same_float_check(name: str, input: Tensor, other: Tensor) -> None:
    if not input._dtype.is_floating_point:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_legacy(input._dtype)}'")


@defop("nextafter", method=True, inplace=True, out=True)
def nextafter(input: Tensor, other: Tensor) -> Tensor:
    """The next floating-point value after ``input`` towards ``other``."""
    _same_float_check("nextafter", input, other)
    a, b = np.broadcast_arrays(input._np, other._np.astype(input._dtype.np_dtype, copy=False))
    result = Tensor._from_array(np.nextafter(a, b), input._dtype)
    return record(NEXTAFTER, (input, other), result)


NEXTAFTER = register_op(
    "nextafter", nextafter, "nextafter(Tensor self, Tensor other) -> Tensor", "floating_point"
)


def _heaviside(input: Tensor, values: Tensor, op) -> Tensor:
    if input._dtype is not values._dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    a, b = np.broadcast_arrays(input._np, values._np)
    result = Tensor._from_array(np.heaviside(a, b).astype(input._dtype.np_dtype), input._dtype)
    return record(op, (input, values), result)


@defop(
    "heaviside",
    method=True,
    inplace=True,
    out=True,
    refuses_complex=(RuntimeError, "heaviside is not yet implemented for complex tensors."),
    complex_operands=2,
)
def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """The step function: 0 where ``input < 0``, ``values`` where it is 0, 1 above."""
    return _heaviside(input, values, HEAVISIDE)


def _heaviside_into(input: Tensor, values: Tensor) -> Tensor:
    return _heaviside(input, values, HEAVISIDE_INPLACE)


HEAVISIDE = register_op(
    "heaviside", heaviside, "heaviside(Tensor self, Tensor values) -> Tensor", "floating_point"
)
# recorded as itself by the in-place form, whose backward names it (as PyTorch's does)
HEAVISIDE_INPLACE = register_op(
    "heaviside_",
    _heaviside_into,
    "heaviside_(Tensor(a!) self, Tensor values) -> Tensor(a!)",
    "floating_point",
    inplace=True,
    out_of_place="heaviside",
)


@defop("polar", out=True)
def polar(abs: Tensor, angle: Tensor) -> Tensor:  # noqa: A002 - PyTorch's names
    """The complex numbers ``abs * (cos(angle) + i sin(angle))``."""
    _complex_parts_check(abs, angle)
    return complex(abs * torch.cos(angle), abs * torch.sin(angle))


nextafter_ = _inplace(nextafter, "nextafter_")
heaviside_ = _inplace(_heaviside_into, "heaviside_")
