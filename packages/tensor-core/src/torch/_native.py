"""Selects native kernels (``torch._C``) or their NumPy references.

``TORCH_NATIVE=0`` in the environment selects the pure NumPy path; otherwise the
compiled module must be importable and a broken build fails loudly here.
"""

from __future__ import annotations

import os

ENABLED = os.environ.get("TORCH_NATIVE", "1") != "0"

if ENABLED:
    from . import _C as kernels  # noqa: F401, N811
    from ._C import special  # noqa: F401
else:
    from . import _mt19937_ref as kernels  # noqa: F401
    from ._special_ref import special  # noqa: F401

# Arrays at least this large go to the multi-threaded native kernels: below it, starting
# threads costs more than it saves.
PARALLEL_MIN_SIZE = 1 << 16
_FLOATS = ("float32", "float64")


def large_binary(name: str, a, b):
    """``a (name) b`` by the threaded native kernel when both are big same-shape
    C-contiguous float arrays of one dtype; None otherwise (the caller uses NumPy)."""
    if not ENABLED or getattr(a, "size", 0) < PARALLEL_MIN_SIZE:
        return None
    if (
        type(b) is not type(a)
        or a.dtype != b.dtype
        or a.shape != b.shape
        or a.dtype.name not in _FLOATS
        or not (a.flags.c_contiguous and b.flags.c_contiguous)
    ):
        return None
    return kernels.binary(name, a, b)


def large_exp(a):
    """``exp(a)`` by the vectorised threaded native kernel for a big C-contiguous float
    array, or None (the caller uses NumPy)."""
    if (
        not ENABLED
        or a.size < PARALLEL_MIN_SIZE
        or a.dtype.name not in _FLOATS
        or not a.flags.c_contiguous
    ):
        return None
    return kernels.unary("exp", a)


def large_sum(a):
    """The sum of a big C-contiguous float array by the threaded native kernel, or None."""
    if (
        not ENABLED
        or a.size < PARALLEL_MIN_SIZE
        or a.dtype.name not in _FLOATS
        or not a.flags.c_contiguous
    ):
        return None
    return kernels.sum_all(a)
