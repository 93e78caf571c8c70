"""Elementwise math of two tensors: ``maximum``/``minimum`` (NaN-propagating),
``fmax``/``fmin`` (NaN-ignoring), ``atan2``, ``hypot``, ``fmod``."""

from __future__ import annotations

import numpy as np

from ._dispatch import as_array, kernel_refusal
from .pointwise import _arith, _binary_op, _bool_refused, _plain, _true_div

__all__ = ["maximum", "minimum", "fmax", "fmin", "atan2", "hypot", "fmod", "arctan2"]

_FAMILY = "binary_math"


def _floating(dtype, *_):
    return _true_div(dtype)


def _fmod(a, b, dtype):
    if dtype._category <= 1 and np.any(as_array(b) == 0):
        raise RuntimeError("ZeroDivisionError")
    return np.fmod(a, b)


maximum = _binary_op(
    "maximum",
    _plain(np.maximum),
    _arith,
    """The larger of two elements (NaN if
either is NaN).

Examples::

    >>> import torch
    >>> torch.maximum(torch.tensor([1.0, 5.0]), torch.tensor([3.0, 2.0]))
    tensor([3., 5.])
""",
    True,
    family=_FAMILY,
    refuses_complex=(RuntimeError, "maximum not implemented for complex tensors."),
)
minimum = _binary_op(
    "minimum",
    _plain(np.minimum),
    _arith,
    "The smaller of two elements (NaN if either is NaN).",
    True,
    family=_FAMILY,
    refuses_complex=(RuntimeError, "minimum not implemented for complex tensors."),
)
fmax = _binary_op(
    "fmax",
    _plain(np.fmax),
    _arith,
    "The larger of two elements, ignoring a NaN when the other is a number.",
    True,
    family=_FAMILY,
    refuses_complex=(RuntimeError, "fmax not implemented for complex tensors."),
)
fmin = _binary_op(
    "fmin",
    _plain(np.fmin),
    _arith,
    "The smaller of two elements, ignoring a NaN when the other is a number.",
    True,
    family=_FAMILY,
    refuses_complex=(RuntimeError, "fmin not implemented for complex tensors."),
)
atan2 = _binary_op(
    "atan2",
    _plain(np.arctan2),
    _floating,
    "The angle of the point (``other``, ``input``), in (-pi, pi].",
    True,
    family=_FAMILY,
    refuses_complex=kernel_refusal("atan2_cpu"),
    aliases=("arctan2",),
)
arctan2 = atan2


def _floating_only(kernel_name):
    """Floating dtypes only (``hypot`` has no integer kernel in PyTorch)."""

    def rule(dtype, *extra):
        if not (dtype.is_floating_point or dtype.is_complex):
            raise NotImplementedError(
                f"\"{kernel_name}\" not implemented for '{dtype._legacy[:-6]}'"
            )
        return _floating(dtype, *extra)

    return rule


hypot = _binary_op(
    "hypot",
    _plain(np.hypot),
    _floating_only("hypot_cpu"),
    "``sqrt(input**2 + other**2)`` elementwise, without overflow.",
    True,
    family=_FAMILY,
    refuses_complex=kernel_refusal("hypot_cpu"),
)
fmod = _binary_op(
    "fmod",
    _fmod,
    _bool_refused("fmod_cpu"),
    """C's ``fmod``: the remainder has the sign of the
dividend.

Examples::

    >>> import torch
    >>> torch.fmod(torch.tensor([5, -5]), 3)
    tensor([ 2, -2])
""",
    True,
    family=_FAMILY,
    refuses_complex=kernel_refusal("fmod_cpu"),
)
