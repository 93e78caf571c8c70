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
