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


def _extremum(name, ufunc, doc):
    refusal = (RuntimeError, f"{name} not implemented for complex tensors.")
    return _binary_op(
        name, _plain(ufunc), _arith, doc, True, family=_FAMILY, refuses_complex=refusal
    )


def _math_binary(name, kernel, rule, doc, aliases=()):
    """An op of this family whose complex refusal is its CPU kernel's."""
    refusal = kernel_refusal(f"{name}_cpu")
    return _binary_op(
        name, kernel, rule, doc, True, family=_FAMILY, refuses_complex=refusal, aliases=aliases
    )


maximum = _extremum(
    "maximum",
    np.maximum,
    """The larger of two elements (NaN if
either is NaN).

Examples::

    >>> torch.maximum(torch.tensor([1.0, 5.0]), torch.tensor([3.0, 2.0]))
    tensor([3., 5.])
""",
)
minimum = _extremum("minimum", np.minimum, "The smaller of two elements (NaN if either is NaN).")
fmax = _extremum(
    "fmax", np.fmax, "The larger of two elements, ignoring a NaN when the other is a number."
)
fmin = _extremum(
    "fmin", np.fmin, "The smaller of two elements, ignoring a NaN when the other is a number."
)
atan2 = _math_binary(
    "atan2",
    _plain(np.arctan2),
    _floating,
    "The angle of the point (``other``, ``input``), in (-pi, pi].",
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


hypot = _math_binary(
    "hypot",
    _plain(np.hypot),
    _floating_only("hypot_cpu"),
    "``sqrt(input**2 + other**2)`` elementwise, without overflow.",
)
fmod = _math_binary(
    "fmod",
    _fmod,
    _bool_refused("fmod_cpu"),
    """C's ``fmod``: the remainder has the sign of the
dividend.

Examples::

    >>> torch.fmod(torch.tensor([5, -5]), 3)
    tensor([ 2, -2])
""",
)
